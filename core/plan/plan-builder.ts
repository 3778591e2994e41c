/**
 * Builds logical plan nodes and computes their output schemas. Every check that can fail without
 * data (unknown columns, wrong types, misplaced aggregates) fails here, at the DataFrame call that
 * caused it.
 */
import { AnalysisError } from '../errors.js';
import { bindAggregate } from '../expr/aggregate-functions.js';
import { bindExpression } from '../expr/binder.js';
import { commonType } from '../expr/common-type.js';
import type { Expression, TimeWindowExpression, WindowExpression } from '../expr/expression.js';
import { containsExpression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import { schemaScope, type Scope } from '../expr/scope.js';
import { builtinFunctions } from '../functions/builtin-functions.js';
import { isTumbling, windowStructType } from '../expr/time-window.js';
import {
  type DataType,
  field,
  isNumeric,
  sameType,
  struct,
  type StructField,
  type StructType,
  typeName,
} from '../types/data-types.js';
import { joinScope } from './join-scope.js';
import { extractWindowExpressions, windowColumnName } from './window-expressions.js';
import { bindWindowExpression } from '../expr/window-function-binder.js';
import { withoutNullWindowTimes } from './null-window-time-filter.js';
import {
  EXPANDED_WINDOW_COLUMN,
  readingExpandedWindow,
  slidingWindowToExpand,
} from './sliding-window-rows.js';
import { planScope } from './plan-scope.js';
import { sessionWindowField, sessionWindowKey } from './session-window-key.js';
import {
  type JoinType,
  type LogicalPlan,
  newPlanId,
  type RelationScan,
  type SortOrder,
} from './logical-plan.js';

/** A `select`: expands stars, checks every expression, allows one explode. */
export function project(input: LogicalPlan, exprs: readonly Expression[]): LogicalPlan {
  const expanded = exprs.flatMap((e) => expandStar(e, input.schema));
  const windowed = extractWindowExpressions(expanded, input.schema.fields.length);
  if (windowed) return project(window(input, windowed.windowExprs), windowed.exprs);
  const scope = planScope(input);
  const toExpand = slidingWindowToExpand(expanded);
  if (toExpand) {
    const passThrough = input.schema.fields.map((_, i) => columnAt(input.schema, i));
    const windowRows = project(input, [
      ...passThrough,
      { kind: 'alias', name: EXPANDED_WINDOW_COLUMN, child: toExpand },
    ]);
    return project(windowRows, readingExpandedWindow(expanded, toExpand));
  }
  const fields: StructField[] = [];
  let generatorIndex: number | undefined;
  expanded.forEach((e, i) => {
    const inner = e.kind === 'alias' ? e.child : e;
    if (inner.kind === 'explode' || (inner.kind === 'window' && !isTumbling(inner))) {
      if (generatorIndex !== undefined) {
        throw new AnalysisError(
          'Only one explode() is allowed per select; split it into two selects.',
        );
      }
      generatorIndex = i;
      fields.push(
        ...(inner.kind === 'explode'
          ? generatorFields(inner.child, scope, e.kind === 'alias' ? e.name : undefined)
          : [slidingWindowField(e, inner, scope)]),
      );
      return;
    }
    rejectNested(inner, 'select');
    const bound = bindExpression(e, scope);
    fields.push(field(expressionName(e), bound.dataType, bound.nullable, bound.metadata));
  });
  return {
    kind: 'project',
    id: newPlanId(),
    input: withoutNullWindowTimes(input, expanded),
    exprs: expanded,
    generatorIndex,
    schema: struct(fields),
    isStreaming: input.isStreaming,
  };
}

function generatorFields(child: Expression, scope: Scope, alias?: string): StructField[] {
  const t = bindExpression(child, scope).dataType;
  if (t.kind === 'array') return [field(alias ?? 'col', t.elementType, true)];
  if (t.kind === 'map') return [field('key', t.keyType, false), field('value', t.valueType, true)];
  throw new AnalysisError(`explode() needs an array or map column, got ${typeName(t)}.`);
}

/**
 * The output field of a sliding window (named for `e`, the window or its alias): it is a
 * generator, so it cannot be bound as one value per row.
 */
function slidingWindowField(
  e: Expression,
  window: TimeWindowExpression,
  scope: Scope,
): StructField {
  const time = bindExpression(window.timeColumn, scope);
  if (time.dataType.kind !== 'timestamp') {
    throw new AnalysisError(`window() needs a timestamp column, got ${typeName(time.dataType)}.`);
  }
  return field(expressionName(e), windowStructType(time.metadata), true, time.metadata);
}

function expandStar(e: Expression, schema: StructType): Expression[] {
  if (e.kind !== 'column' || e.path[e.path.length - 1] !== '*') return [e];
  if (e.path.length === 1) {
    return schema.fields.map((_, i) => columnAt(schema, i));
  }
  const parent: Expression = { kind: 'column', path: e.path.slice(0, -1) };
  const t = bindExpression(parent, schemaScope(schema, builtinFunctions)).dataType;
  if (t.kind !== 'struct') {
    throw new AnalysisError(`Cannot expand '${e.path.join('.')}': ${typeName(t)} is not a struct.`);
  }
  return t.fields.map((f) => ({
    kind: 'alias',
    name: f.name,
    child: { kind: 'column', path: [...e.path.slice(0, -1), f.name] },
  }));
}

/** A reference to the i-th column that stays unambiguous when names repeat (after a join). */
function columnAt(schema: StructType, i: number): Expression {
  const name = schema.fields[i].name;
  const repeated = schema.fields.filter((f) => f.name === name).length > 1;
  return repeated ? { kind: 'column', path: [name], ordinal: i } : { kind: 'column', path: [name] };
}

function rejectNested(e: Expression, where: string): void {
  if (containsExpression(e, (x) => x.kind === 'aggregate')) {
    throw new AnalysisError(
      `Aggregate functions are not allowed in ${where}(); use groupBy().agg() (or agg() for the whole table).`,
    );
  }
  if (containsExpression(e, (x) => x.kind === 'explode')) {
    throw new AnalysisError(
      `explode() must be a top-level expression of select(), not nested in ${where}.`,
    );
  }
}

/**
 * A Window node: the input's columns, then one column per window expression (named
 * `_we0`, `_we1`, ...; the select above it gives them their names).
 */
export function window(input: LogicalPlan, windowExprs: readonly WindowExpression[]): LogicalPlan {
  const scope = planScope(input);
  const fields = windowExprs.map((e, i) => {
    const bound = bindWindowExpression(e, scope);
    return field(windowColumnName(i), bound.dataType, bound.nullable);
  });
  return {
    kind: 'window',
    id: newPlanId(),
    input,
    windowExprs,
    schema: struct([...input.schema.fields, ...fields]),
    isStreaming: input.isStreaming,
  };
}

/** A bounded table of rows the program holds in memory (no file location), read by `scan`. */
export function inMemoryRelation(
  description: string,
  schema: StructType,
  scan: RelationScan,
): LogicalPlan {
  return { kind: 'relation', id: newPlanId(), description, scan, schema, isStreaming: false };
}

/** A `filter`: the condition must be boolean. */
export function filter(input: LogicalPlan, condition: Expression): LogicalPlan {
  rejectNested(condition, 'filter');
  const bound = bindExpression(condition, planScope(input));
  if (bound.dataType.kind !== 'boolean') {
    throw new AnalysisError(
      `filter() needs a boolean condition, got ${typeName(bound.dataType)} from '${expressionName(condition)}'.`,
    );
  }
  return {
    kind: 'filter',
    id: newPlanId(),
    input: withoutNullWindowTimes(input, [condition]),
    condition,
    schema: input.schema,
    isStreaming: input.isStreaming,
  };
}

/** `groupBy(keys).agg(aggregates)`. */
export function aggregate(
  input: LogicalPlan,
  groupBy: readonly Expression[],
  aggregates: readonly Expression[],
): LogicalPlan {
  const scope = planScope(input);
  const session = sessionWindowKey(groupBy);
  const keyFields = groupBy.map((e, i) => {
    rejectNested(e, 'groupBy');
    const inner = e.kind === 'alias' ? e.child : e;
    if (inner.kind === 'window' && !isTumbling(inner)) return slidingWindowField(e, inner, scope);
    if (session?.index === i) return sessionWindowField(e, session.window, scope);
    const bound = bindExpression(e, scope);
    return field(expressionName(e), bound.dataType, bound.nullable, bound.metadata);
  });
  const aggFields = aggregates.map((e) => {
    const inner = e.kind === 'alias' ? e.child : e;
    if (inner.kind !== 'aggregate') {
      throw new AnalysisError(
        `agg() takes aggregate functions (count, sum, avg, ...); '${expressionName(e)}' is not one.`,
      );
    }
    const bound = bindAggregate(inner, scope);
    return field(expressionName(e), bound.dataType, bound.nullable);
  });
  return {
    kind: 'aggregate',
    id: newPlanId(),
    input: withoutNullWindowTimes(input, [...groupBy, ...aggregates]),
    groupBy,
    aggregates,
    schema: struct([...keyFields, ...aggFields]),
    isStreaming: input.isStreaming,
  };
}

/** `withWatermark(column, delay)`: the column must be a timestamp. */
export function watermark(
  input: LogicalPlan,
  columnName: string,
  delayMicros: number,
): LogicalPlan {
  const scope = schemaScope(input.schema, builtinFunctions);
  const { index, field: f, nestedPath } = scope.resolve({ kind: 'column', path: [columnName] });
  if (nestedPath.length > 0 || f.dataType.kind !== 'timestamp') {
    throw new AnalysisError(
      `withWatermark needs a top-level timestamp column; '${columnName}' is ${typeName(f.dataType)}. Convert it with to_timestamp first.`,
    );
  }
  const fields = input.schema.fields.map((x, i) =>
    i === index ? field(x.name, x.dataType, x.nullable, { eventTimeDelayMicros: delayMicros }) : x,
  );
  return {
    kind: 'watermark',
    id: newPlanId(),
    input,
    columnIndex: index,
    delayMicros,
    schema: struct(fields),
    isStreaming: input.isStreaming,
  };
}

/**
 * `union`: same number of columns, by position. Columns whose types differ are widened as Spark's
 * union coercion does: numbers to the widest (int, bigint, double), a date with a timestamp to the
 * timestamp, NULL to the other side's type; the inputs are cast to the widened types.
 */
export function union(inputs: readonly LogicalPlan[]): LogicalPlan {
  const [firstInput, ...rest] = inputs;
  for (const other of rest) {
    const a = firstInput.schema.fields.length;
    const b = other.schema.fields.length;
    if (a !== b) {
      throw new AnalysisError(
        `union needs the same number of columns on both sides: ${a} vs ${b}.`,
      );
    }
  }
  const types = firstInput.schema.fields.map((_, i) => unionColumnType(inputs, i));
  const widened = inputs.map((p) => castColumns(p, types));
  const fields = firstInput.schema.fields.map((f, i) =>
    field(
      f.name,
      types[i],
      widened.some((p) => p.schema.fields[i].nullable),
      f.metadata,
    ),
  );
  return {
    kind: 'union',
    id: newPlanId(),
    inputs: widened,
    schema: struct(fields),
    isStreaming: inputs.some((p) => p.isStreaming),
  };
}

/** The type of union column `i`: the inputs' common type, when they widen to one. */
function unionColumnType(inputs: readonly LogicalPlan[], i: number): DataType {
  const name = inputs[0].schema.fields[i].name;
  const types = inputs.map((p) => p.schema.fields[i].dataType);
  const known = types.filter((t) => t.kind !== 'null');
  if (known.every((t) => sameType(t, known[0]))) return known[0] ?? types[0];
  const widenable = known.every(isNumeric) || known.every(isDatetime);
  if (!widenable) {
    const other = known.find((t) => !sameType(t, known[0])) as DataType;
    throw new AnalysisError(
      `union column ${i + 1} ('${name}') is ${typeName(known[0])} on one side and ${typeName(other)} on the other; cast one side to the other's type.`,
    );
  }
  return commonType(known, `union column ${i + 1} ('${name}')`);
}

/** `input` with its columns cast to `types` where they differ (the input itself when none do). */
function castColumns(input: LogicalPlan, types: readonly DataType[]): LogicalPlan {
  const fields = input.schema.fields;
  if (fields.every((f, i) => sameType(f.dataType, types[i]))) return input;
  return project(
    input,
    fields.map((f, i): Expression => {
      const column: Expression = { kind: 'column', path: [f.name], ordinal: i };
      if (sameType(f.dataType, types[i])) return column;
      return { kind: 'alias', child: { kind: 'cast', child: column, to: types[i] }, name: f.name };
    }),
  );
}

function isDatetime(t: DataType): boolean {
  return t.kind === 'date' || t.kind === 'timestamp';
}

/** A join; `on` is either a condition or the names of columns both sides share. */
export function join(
  left: LogicalPlan,
  right: LogicalPlan,
  joinType: JoinType,
  on: Expression | readonly string[] | undefined,
): LogicalPlan {
  const base = {
    kind: 'join' as const,
    id: newPlanId(),
    left,
    right,
    joinType,
    isStreaming: left.isStreaming || right.isStreaming,
  };
  if (Array.isArray(on)) {
    const usingColumns = on as readonly string[];
    return {
      ...base,
      usingColumns,
      schema: usingJoinSchema(left.schema, right.schema, usingColumns, joinType),
    };
  }
  const condition = on as Expression | undefined;
  if (condition) {
    const bound = bindExpression(condition, joinScope(left, right));
    if (bound.dataType.kind !== 'boolean') {
      throw new AnalysisError(`join condition must be boolean, got ${typeName(bound.dataType)}.`);
    }
  }
  return { ...base, condition, schema: conditionJoinSchema(left.schema, right.schema, joinType) };
}

function nullableIf(fields: readonly StructField[], nullable: boolean): StructField[] {
  return fields.map((f) => (nullable ? field(f.name, f.dataType, true, f.metadata) : f));
}

function conditionJoinSchema(l: StructType, r: StructType, t: JoinType): StructType {
  if (t === 'left_semi' || t === 'left_anti') return l;
  return struct([
    ...nullableIf(l.fields, t === 'right' || t === 'full'),
    ...nullableIf(r.fields, t === 'left' || t === 'full'),
  ]);
}

function usingJoinSchema(
  l: StructType,
  r: StructType,
  using: readonly string[],
  t: JoinType,
): StructType {
  const scopeL = schemaScope(l, builtinFunctions);
  const scopeR = schemaScope(r, builtinFunctions);
  const keys = using.map((name) => {
    const a = scopeL.resolve({ kind: 'column', path: [name] });
    const b = scopeR.resolve({ kind: 'column', path: [name] });
    if (!sameType(a.field.dataType, b.field.dataType)) {
      throw new AnalysisError(
        `join column '${name}' is ${typeName(a.field.dataType)} on the left and ${typeName(b.field.dataType)} on the right.`,
      );
    }
    return { left: a.index, right: b.index };
  });
  if (t === 'left_semi' || t === 'left_anti') return l;
  const keyFields = keys.map((k) => {
    const f = l.fields[k.left];
    return field(
      f.name,
      f.dataType,
      t === 'full' || (t === 'right' ? r.fields[k.right].nullable : f.nullable),
    );
  });
  const leftKeys = new Set(keys.map((k) => k.left));
  const rightKeys = new Set(keys.map((k) => k.right));
  return struct([
    ...keyFields,
    ...nullableIf(
      l.fields.filter((_, i) => !leftKeys.has(i)),
      t === 'right' || t === 'full',
    ),
    ...nullableIf(
      r.fields.filter((_, i) => !rightKeys.has(i)),
      t === 'left' || t === 'full',
    ),
  ]);
}

/** `orderBy`. */
export function sort(input: LogicalPlan, orders: readonly SortOrder[]): LogicalPlan {
  const scope = planScope(input);
  for (const o of orders) {
    rejectNested(o.expr, 'orderBy');
    bindExpression(o.expr, scope);
  }
  return {
    kind: 'sort',
    id: newPlanId(),
    input,
    orders,
    schema: input.schema,
    isStreaming: input.isStreaming,
  };
}

/** `limit(n)`. */
export function limit(input: LogicalPlan, n: number): LogicalPlan {
  if (!Number.isInteger(n) || n < 0) {
    throw new AnalysisError(`limit(n) needs a non-negative integer, got ${n}.`);
  }
  return {
    kind: 'limit',
    id: newPlanId(),
    input,
    n,
    schema: input.schema,
    isStreaming: input.isStreaming,
  };
}

/**
 * `dropDuplicates(columns)` / `dropDuplicatesWithinWatermark(columns)`; every column when none are
 * named (`distinct()`). A name matches every column called so (case-insensitively when no column
 * has its exact case), as Spark's dropDuplicates does after a join; an unknown name fails here.
 */
export function deduplicate(
  input: LogicalPlan,
  columns: readonly string[] | undefined,
  withinWatermark: boolean,
): LogicalPlan {
  const operation = withinWatermark ? 'dropDuplicatesWithinWatermark' : 'dropDuplicates';
  const fields = input.schema.fields;
  const keyIndexes =
    columns === undefined
      ? fields.map((_, i) => i)
      : [...new Set(columns.flatMap((name) => columnsNamed(input.schema, name, operation)))];
  return {
    kind: 'deduplicate',
    id: newPlanId(),
    input,
    keyIndexes,
    withinWatermark,
    schema: input.schema,
    isStreaming: input.isStreaming,
  };
}

/** The positions of the columns called `name`: exact matches, else case-insensitive ones. */
function columnsNamed(schema: StructType, name: string, operation: string): number[] {
  const positions = (match: (f: StructField) => boolean) =>
    schema.fields.flatMap((f, i) => (match(f) ? [i] : []));
  const exact = positions((f) => f.name === name);
  const found =
    exact.length > 0 ? exact : positions((f) => f.name.toLowerCase() === name.toLowerCase());
  if (found.length === 0) {
    throw new AnalysisError(
      `${operation}: cannot resolve column '${name}' among (${schema.fields.map((f) => f.name).join(', ')}); name one of those columns.`,
    );
  }
  return found;
}
