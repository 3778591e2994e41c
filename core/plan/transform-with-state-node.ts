/**
 * Builds the `transformWithState` node, checking what can be checked when the DataFrame is built:
 * the grouping keys are input columns, the time mode is known, the processor's `init` declares
 * well-formed state variables, and an initial state is grouped by keys of the same types.
 */
import { AnalysisError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import type { OutputMode } from '../sinks/sink.js';
import { sameType, type StructType, typeName } from '../types/data-types.js';
import { type LogicalPlan, newPlanId, type TransformWithState } from './logical-plan.js';
import { planScope } from './plan-scope.js';
import type { StatefulProcessor, TimeMode } from './stateful-processor.js';
import { stateVariableDeclarations } from './state-variable-declarations.js';

/** What `transformWithState` is given besides the processor, resolved. */
export interface TransformWithStateSpec {
  readonly timeMode: TimeMode;
  readonly outputMode: OutputMode;
  readonly schema: StructType;
  /** A batch DataFrame grouped by the same keys: each key's one row sets up its state. */
  readonly initialState?: { readonly plan: LogicalPlan; readonly keys: readonly Expression[] };
  /**
   * The output column that carries event time on to the operators above (Spark's
   * `eventTimeColumnName`): a timestamp column of `schema`, in event-time mode, over a watermark.
   */
  readonly eventTimeColumnName?: string;
}

const TIME_MODES: readonly TimeMode[] = ['none', 'processingTime', 'eventTime'];
const OUTPUT_MODES: readonly OutputMode[] = ['append', 'update'];

/** `groupBy(keys).transformWithState(processor, spec)` over `input`. */
export function transformWithState(
  input: LogicalPlan,
  keys: readonly Expression[],
  processor: StatefulProcessor,
  spec: TransformWithStateSpec,
): TransformWithState {
  const processorName = processor.constructor?.name || 'anonymous processor';
  if (!TIME_MODES.includes(spec.timeMode)) {
    throw new AnalysisError(
      `transformWithState(${processorName}): timeMode '${String(spec.timeMode)}' is not one of ${TIME_MODES.join(', ')}.`,
    );
  }
  if (!OUTPUT_MODES.includes(spec.outputMode)) {
    throw new AnalysisError(
      `transformWithState(${processorName}): outputMode '${String(spec.outputMode)}' is not supported; use append or update (Spark supports no other).`,
    );
  }
  const keyIndices = keyColumns(input, keys, processorName);
  const initialState = spec.initialState && {
    plan: spec.initialState.plan,
    keyIndices: initialStateKeys(input, keyIndices, spec.initialState, processorName),
  };
  if (initialState && !processor.handleInitialState) {
    throw new AnalysisError(
      `transformWithState(${processorName}) is given an initial state but the processor has no handleInitialState method; add one.`,
    );
  }
  if (initialState?.plan.isStreaming) {
    throw new AnalysisError(
      `transformWithState(${processorName}): the initial state must be a batch DataFrame (read with read, not readStream).`,
    );
  }
  const eventTimeColumnIndex =
    spec.eventTimeColumnName === undefined
      ? undefined
      : outputEventTimeColumn(input, spec, processorName);
  return {
    kind: 'transformWithState',
    id: newPlanId(),
    input,
    keyIndices,
    processor,
    processorName,
    timeMode: spec.timeMode,
    ...(eventTimeColumnIndex === undefined ? {} : { eventTimeColumnIndex }),
    outputMode: spec.outputMode,
    stateVariables: stateVariableDeclarations(
      processor,
      processorName,
      spec.timeMode,
      spec.outputMode,
    ),
    ...(initialState ? { initialState } : {}),
    schema:
      eventTimeColumnIndex === undefined
        ? spec.schema
        : withEventTime(spec.schema, eventTimeColumnIndex, input),
    isStreaming: input.isStreaming,
  };
}

/**
 * The position in the output of the column named by `eventTimeColumnName`, checked as Spark does:
 * the processor runs in event-time mode over a watermark, and the column is a timestamp it returns.
 */
function outputEventTimeColumn(
  input: LogicalPlan,
  spec: TransformWithStateSpec,
  processorName: string,
): number {
  const what = `transformWithState(${processorName}) with eventTimeColumnName '${spec.eventTimeColumnName}'`;
  if (inputEventTime(input) === undefined) {
    throw new AnalysisError(
      `${what} needs a watermark on its input to carry on (Spark's CANNOT_ASSIGN_EVENT_TIME_COLUMN_WITHOUT_WATERMARK); add withWatermark before groupBy.`,
    );
  }
  if (spec.timeMode !== 'eventTime') {
    throw new AnalysisError(
      `${what} runs in event-time mode, but timeMode is '${spec.timeMode}'; set timeMode 'eventTime'.`,
    );
  }
  const fields = spec.schema.fields;
  const index = fields.findIndex(
    (f) => f.name.toLowerCase() === spec.eventTimeColumnName!.toLowerCase(),
  );
  if (index < 0) {
    throw new AnalysisError(
      `${what}: the output schema has no such column; it has ${fields.map((f) => f.name).join(', ')}.`,
    );
  }
  if (fields[index].dataType.kind !== 'timestamp') {
    throw new AnalysisError(
      `${what}: the column is ${typeName(fields[index].dataType)}, but an event-time column is a timestamp.`,
    );
  }
  return index;
}

/** The watermark delay of the input's event-time column, if it has one. */
function inputEventTime(input: LogicalPlan): number | undefined {
  return input.schema.fields.find((f) => f.metadata?.eventTimeDelayMicros !== undefined)?.metadata
    ?.eventTimeDelayMicros;
}

/** `schema` with column `index` marked as the event-time column, with the input's delay. */
function withEventTime(schema: StructType, index: number, input: LogicalPlan): StructType {
  const delay = inputEventTime(input)!;
  return {
    ...schema,
    fields: schema.fields.map((f, i) =>
      i === index ? { ...f, metadata: { ...f.metadata, eventTimeDelayMicros: delay } } : f,
    ),
  };
}

/** The input positions of the grouping keys, which must be plain columns. */
function keyColumns(
  plan: LogicalPlan,
  keys: readonly Expression[],
  processorName: string,
): number[] {
  const scope = planScope(plan);
  return keys.map((k) => {
    if (k.kind !== 'column' || k.path.length !== 1) {
      throw new AnalysisError(
        `transformWithState(${processorName}) groups by columns; '${expressionName(k)}' is not a top-level column. Add it with withColumn first.`,
      );
    }
    return scope.resolve(k).index;
  });
}

function initialStateKeys(
  input: LogicalPlan,
  keyIndices: readonly number[],
  initial: NonNullable<TransformWithStateSpec['initialState']>,
  processorName: string,
): number[] {
  const indices = keyColumns(initial.plan, initial.keys, processorName);
  const types = (plan: LogicalPlan, idx: readonly number[]) =>
    idx.map((i) => plan.schema.fields[i].dataType);
  const want = types(input, keyIndices);
  const got = types(initial.plan, indices);
  if (want.length !== got.length || want.some((t, i) => !sameType(t, got[i]))) {
    throw new AnalysisError(
      `transformWithState(${processorName}): the initial state is grouped by (${got.map(typeName).join(', ')}) but the input by (${want.map(typeName).join(', ')}); group both by keys of the same types.`,
    );
  }
  return indices;
}
