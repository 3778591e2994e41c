/**
 * Partial aggregation at a repartition stage: an aggregation cut in two on either side of the
 * repartition topic, as Spark plans a partial and a final aggregate on either side of an exchange.
 *
 * Stage 1 folds each micro-batch's rows alone (an aggregate `perBatch`, keeping no state) into one
 * partial row per group: count, sum, min and max as themselves, avg as a sum and a count. It ships
 * those rows instead of the input's, a few per group and batch instead of one per event. Stage 2
 * groups the partial rows by the same keys, merges them into its state (a count is the sum of the
 * partial counts) and computes the aggregate's own output columns from the merged values.
 *
 * Why the result is the unsplit query's:
 * - Every row of a partial row shares its group, so its group's event time (the window's end, or a
 *   watermarked key), by which the aggregate drops late rows and closes groups.
 * - A partial row carries its rows' largest event time, as the first column of stage 1's output
 *   and the one that keeps the watermark's delay: the repartition sink and source read event time
 *   from it, and stage 2's watermark follows it. The largest over the partial rows is the largest
 *   over the rows, and a group's event time is never below its rows' (a window ends after them), so
 *   the rows stage 2 holds back stay ahead of its watermark as before.
 * An aggregation with another function (first, collect_list, a distinct count, ...), a session
 * window, or more than one watermarked input column ships its rows instead.
 */
import { bindAggregate } from '../expr/aggregate-functions.js';
import type { AggregateCall, Expression } from '../expr/expression.js';
import { DoubleType, field, LongType, struct, type StructField } from '../types/data-types.js';
import { freshName } from './fresh-name.js';
import { type Aggregate, type LogicalPlan, newPlanId } from './logical-plan.js';
import { aggregate, project } from './plan-builder.js';
import { planScope } from './plan-scope.js';
import { sessionWindowKey } from './session-window-key.js';

/** The two halves of an aggregation split at a repartition stage. */
export interface PartialAggregation {
  /** Stage 1: the event time (when the input has one), the grouping keys, the partial values. */
  readonly stage1: LogicalPlan;
  /** The columns of stage 1's output that key the repartition records: the keys but windows. */
  readonly keyColumns: readonly string[];
  /** The aggregation over `input`, a relation of stage 1's rows, with the unsplit output schema. */
  stage2(input: LogicalPlan): LogicalPlan;
}

/** One aggregate function split in two: its partial values and its result over their merges. */
interface SplitFunction {
  readonly partials: readonly { readonly name: string; readonly call: AggregateCall }[];
  /** Stage 2's merge of each partial value, in `partials`' order. */
  readonly merges: readonly AggregateCall[];
  /** The function's result over the merged values (read as columns named as the partials). */
  readonly result: Expression;
}

/** Splits `operator` (a stream's aggregate) in two; undefined when it must ship its rows. */
export function partialAggregation(operator: Aggregate): PartialAggregation | undefined {
  if (sessionWindowKey(operator.groupBy)) return undefined;
  const watermarked = operator.input.schema.fields.flatMap((f, index) =>
    f.metadata?.eventTimeDelayMicros !== undefined ? [{ field: f, index }] : [],
  );
  if (watermarked.length > 1) return undefined;
  const keyCount = operator.groupBy.length;
  const outputs = operator.schema.fields;
  const keyNames = outputs.slice(0, keyCount).map((f) => f.name);
  if (new Set(keyNames.map((n) => n.toLowerCase())).size !== keyNames.length) return undefined;
  const taken = [...keyNames];
  const functions: SplitFunction[] = [];
  for (const e of operator.aggregates) {
    const split = splitFunction(unalias(e) as AggregateCall, taken);
    if (!split) return undefined;
    functions.push(split);
  }
  const eventTime = watermarked[0] && { ...watermarked[0], name: freshName('event_time', taken) };
  const partials = functions.flatMap((f) => f.partials);
  const folded = perBatchAggregate(operator, partials, eventTime);
  const stage1 = project(folded, [
    ...(eventTime ? [column(eventTime.name)] : []),
    ...keyNames.map(column),
    ...partials.map((p) => column(p.name)),
  ]);
  const keyColumns = keyNames.filter((_, i) => unalias(operator.groupBy[i]).kind !== 'window');
  return {
    stage1,
    keyColumns,
    stage2: (input) => {
      const merged = aggregate(
        input,
        keyNames.map(column),
        functions.flatMap((f) =>
          f.merges.map((call, i): Expression => alias(call, f.partials[i].name)),
        ),
      );
      return project(merged, [
        ...keyNames.map(column),
        ...functions.map((f, i) => alias(f.result, outputs[keyCount + i].name)),
      ]);
    },
  };
}

/**
 * `call` as partial values and a result over their merges, or undefined for a function whose
 * partial values are not those of another function (first, collect_list, a distinct count, ...).
 */
function splitFunction(call: AggregateCall, taken: string[]): SplitFunction | undefined {
  if (call.distinct) return undefined;
  const name = freshName('partial', taken);
  const merged = column(name);
  switch (call.fn) {
    case 'count':
      return {
        partials: [{ name, call }],
        merges: [aggregateCall('sum', merged)],
        // the sum of partial counts is never null, but only the coalesce tells the schema so
        result: {
          kind: 'call',
          name: 'coalesce',
          args: [merged, { kind: 'literal', value: 0, dataType: LongType }],
        },
      };
    case 'sum':
    case 'min':
    case 'max':
      return {
        partials: [{ name, call }],
        merges: [aggregateCall(call.fn, merged)],
        result: merged,
      };
    case 'avg': {
      const countName = freshName(`${name}_count`, taken);
      const value: Expression = { kind: 'cast', child: call.args[0], to: DoubleType };
      return {
        partials: [
          { name, call: aggregateCall('sum', value) },
          { name: countName, call: aggregateCall('count', call.args[0]) },
        ],
        merges: [aggregateCall('sum', merged), aggregateCall('sum', column(countName))],
        result: { kind: 'binary', op: '/', left: merged, right: column(countName) },
      };
    }
    default:
      return undefined;
  }
}

/**
 * Stage 1's fold: `operator`'s keys over its input with the partial values, and the rows' largest
 * event time, which keeps the watermark's delay (built here: the builder gives a max none).
 */
function perBatchAggregate(
  operator: Aggregate,
  partials: SplitFunction['partials'],
  eventTime: { field: StructField; index: number; name: string } | undefined,
): Aggregate {
  const scope = planScope(operator.input);
  const aggregates = partials.map((p): Expression => alias(p.call, p.name));
  const fields = partials.map((p) => {
    const bound = bindAggregate(p.call, scope);
    return field(p.name, bound.dataType, bound.nullable);
  });
  if (eventTime) {
    // by position: the input may hold another column of the same name
    const time: Expression = {
      kind: 'column',
      path: [eventTime.field.name],
      ordinal: eventTime.index,
    };
    aggregates.push(alias(aggregateCall('max', time), eventTime.name));
    fields.push(field(eventTime.name, eventTime.field.dataType, true, eventTime.field.metadata));
  }
  return {
    kind: 'aggregate',
    id: newPlanId(),
    input: operator.input,
    groupBy: operator.groupBy,
    aggregates,
    schema: struct([...operator.schema.fields.slice(0, operator.groupBy.length), ...fields]),
    isStreaming: operator.isStreaming,
    perBatch: true,
  };
}

function aggregateCall(fn: 'sum' | 'min' | 'max' | 'count', arg: Expression): AggregateCall {
  return { kind: 'aggregate', fn, args: [arg], distinct: false };
}

function column(name: string): Expression {
  return { kind: 'column', path: [name] };
}

function alias(child: Expression, name: string): Expression {
  return { kind: 'alias', child, name };
}

function unalias(e: Expression): Expression {
  return e.kind === 'alias' ? e.child : e;
}
