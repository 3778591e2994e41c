/**
 * Which state of a stream-stream join the watermark can evict, read from the join's condition, as
 * Spark's StreamingJoinHelper reads it. Two ways:
 *
 * - **A watermarked join key**: an equality between a column of each side, one of which carries a
 *   watermark (an event time, or a window over one). A key whose event time (a window's end) is at
 *   or below the watermark W can get no new row on either side, so both sides evict it.
 * - **A time range**: conjuncts comparing a timestamp column of each side, shifted by intervals
 *   (`l.t BETWEEN r.t - INTERVAL 5 MINUTES AND r.t + INTERVAL 1 HOUR`). Rows later than W arrive no
 *   more on a watermarked side, so `l.t >= r.t + K` (or `>`) means a left row with `l.t <= W + K`
 *   can match no future right row: the left side evicts by `W + K` when the right column is
 *   watermarked. Symmetrically `l.t <= r.t + K` (or `<`) lets the right side evict rows with
 *   `r.t <= W - K` when the left column is watermarked. Of several bounds on one side the highest
 *   (the tightest) wins.
 *
 * A bound made with a month interval is not derived (a month has no fixed length), as in Spark.
 * Columns are read at the top level of each side's rows; other expressions bound nothing.
 */
import type { Expression } from '../expr/expression.js';
import type { Scope } from '../expr/scope.js';
import type { StructType } from '../types/data-types.js';
import { isCalendarInterval } from '../types/calendar-interval.js';
import { MICROS } from '../types/time-units.js';
import { joinScope } from './join-scope.js';
import type { Join } from './logical-plan.js';

/** A top-level event-time column of one side: a timestamp, or a window struct read by its end. */
export interface EventTimeColumn {
  /** Its position in the side's rows. */
  readonly index: number;
  /** True for a window struct, whose event time is its end. */
  readonly isWindow: boolean;
}

/** A watermarked equality key: the column it reads on each side. */
export interface WatermarkedJoinKey {
  readonly left: EventTimeColumn;
  readonly right: EventTimeColumn;
}

/** A side's rows whose `column` is at or below `W + offsetMicros` can match nothing more. */
export interface JoinRangeBound {
  readonly column: number;
  readonly offsetMicros: number;
}

/** What the watermark evicts from each side of a join; absent parts evict nothing. */
export interface JoinStateEviction {
  /** When present, both sides evict by it (it takes precedence, as in Spark). */
  readonly key?: WatermarkedJoinKey;
  readonly left?: JoinRangeBound;
  readonly right?: JoinRangeBound;
}

/** What the watermark evicts from each side of `node`. */
export function joinStateEviction(node: Join): JoinStateEviction {
  const width = node.left.schema.fields.length;
  if (node.usingColumns) {
    const key = usingColumnsKey(node, node.usingColumns);
    return key ? { key } : {};
  }
  const scope = joinScope(node.left, node.right);
  const conjuncts = node.condition ? splitConjuncts(node.condition) : [];
  const key = conjuncts.map((c) => watermarkedKey(c, scope, width)).find((k) => k !== undefined);
  if (key) return { key };
  let left: JoinRangeBound | undefined;
  let right: JoinRangeBound | undefined;
  for (const c of conjuncts) {
    const bound = rangeBound(c, scope, width);
    if (bound?.side === 'left' && (!left || bound.bound.offsetMicros > left.offsetMicros))
      left = bound.bound;
    if (bound?.side === 'right' && (!right || bound.bound.offsetMicros > right.offsetMicros))
      right = bound.bound;
  }
  return { ...(left ? { left } : {}), ...(right ? { right } : {}) };
}

/** A side's watermarked column (the first), by which its late rows are dropped; none if it has none. */
export function watermarkColumn(schema: StructType): EventTimeColumn | undefined {
  const index = schema.fields.findIndex((f) => f.metadata?.eventTimeDelayMicros !== undefined);
  if (index < 0) return undefined;
  return { index, isWindow: schema.fields[index].dataType.kind === 'struct' };
}

/** The event time of a value of an event-time column (null when it is null). */
export function eventTimeOf(value: unknown, isWindow: boolean): number | null {
  if (value === null) return null;
  return isWindow ? ((value as readonly number[])[1] ?? null) : (value as number);
}

function splitConjuncts(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'and'
    ? [...splitConjuncts(e.left), ...splitConjuncts(e.right)]
    : [e];
}

/** `a = b` (or `<=>`) between a column of each side, one of them watermarked. */
function watermarkedKey(
  c: Expression,
  scope: Scope,
  width: number,
): WatermarkedJoinKey | undefined {
  if (c.kind !== 'binary' || (c.op !== '=' && c.op !== '<=>')) return undefined;
  const a = topLevelColumn(c.left, scope);
  const b = topLevelColumn(c.right, scope);
  if (a === undefined || b === undefined) return undefined;
  const [l, r] = a < width ? [a, b] : [b, a];
  if (l >= width || r < width) return undefined;
  const fields = scope.schema.fields;
  const watermarked = [l, r].some((i) => fields[i].metadata?.eventTimeDelayMicros !== undefined);
  if (!watermarked || !isEventTimeType(fields[l].dataType.kind)) return undefined;
  const isWindow = fields[l].dataType.kind === 'struct';
  return { left: { index: l, isWindow }, right: { index: r - width, isWindow } };
}

/** The using-columns key with a watermark on either side, if any. */
function usingColumnsKey(node: Join, names: readonly string[]): WatermarkedJoinKey | undefined {
  for (const name of names) {
    const l = node.left.schema.fields.findIndex((f) => f.name === name);
    const r = node.right.schema.fields.findIndex((f) => f.name === name);
    const fields = [node.left.schema.fields[l], node.right.schema.fields[r]];
    if (fields.some((f) => f === undefined)) continue;
    if (!fields.some((f) => f.metadata?.eventTimeDelayMicros !== undefined)) continue;
    if (!isEventTimeType(fields[0].dataType.kind)) continue;
    const isWindow = fields[0].dataType.kind === 'struct';
    return { left: { index: l, isWindow }, right: { index: r, isWindow } };
  }
  return undefined;
}

function isEventTimeType(kind: string): boolean {
  return kind === 'timestamp' || kind === 'struct';
}

/** The index of a top-level column reference in the joined row, else undefined. */
function topLevelColumn(e: Expression, scope: Scope): number | undefined {
  const inner = e.kind === 'alias' ? e.child : e;
  if (inner.kind !== 'column') return undefined;
  const resolved = scope.resolve(inner);
  return resolved.nestedPath.length === 0 ? resolved.index : undefined;
}

/** `Σ coefficient × column + constant`, columns by index in the joined row. */
interface LinearTime {
  readonly terms: ReadonlyMap<number, number>;
  readonly constant: number;
}

/** The bound a comparison conjunct puts on one side, if it is a time range between the sides. */
function rangeBound(
  c: Expression,
  scope: Scope,
  width: number,
): { side: 'left' | 'right'; bound: JoinRangeBound } | undefined {
  if (c.kind !== 'binary' || !['<', '<=', '>', '>='].includes(c.op)) return undefined;
  const a = linearTime(c.left, scope);
  const b = linearTime(c.right, scope);
  if (!a || !b) return undefined;
  const difference = combine(a, b, -1);
  const columns = [...difference.terms].filter(([, k]) => k !== 0);
  if (columns.length !== 2) return undefined;
  const leftTerm = columns.find(([i]) => i < width);
  const rightTerm = columns.find(([i]) => i >= width);
  if (!leftTerm || !rightTerm || Math.abs(leftTerm[1]) !== 1 || leftTerm[1] + rightTerm[1] !== 0)
    return undefined;
  // Normalized to `l - r (op) K`, with the left column's coefficient +1.
  const flip = leftTerm[1] === -1;
  const greater = c.op.startsWith('>') !== flip;
  // `0 - x`, not `-x`: an offset is never a negative zero
  const k = flip ? difference.constant : 0 - difference.constant;
  const [l, r] = [leftTerm[0], rightTerm[0]];
  const watermarked = (i: number) =>
    scope.schema.fields[i].metadata?.eventTimeDelayMicros !== undefined;
  // l >= r + K bounds the left side's time from below; l <= r + K, the right side's (r >= l - K).
  if (greater)
    return watermarked(r) ? { side: 'left', bound: { column: l, offsetMicros: k } } : undefined;
  return watermarked(l)
    ? { side: 'right', bound: { column: r - width, offsetMicros: 0 - k } }
    : undefined;
}

/** `e` as a linear function of timestamp columns and interval constants, or undefined. */
function linearTime(e: Expression, scope: Scope): LinearTime | undefined {
  switch (e.kind) {
    case 'alias':
      return linearTime(e.child, scope);
    case 'column': {
      const resolved = scope.resolve(e);
      if (resolved.nestedPath.length > 0 || resolved.field.dataType.kind !== 'timestamp')
        return undefined;
      return { terms: new Map([[resolved.index, 1]]), constant: 0 };
    }
    case 'literal':
      if (!isCalendarInterval(e.value) || e.value.months !== 0) return undefined;
      return { terms: new Map(), constant: e.value.days * MICROS.day + e.value.micros };
    case 'binary': {
      if (e.op !== '+' && e.op !== '-') return undefined;
      const a = linearTime(e.left, scope);
      const b = linearTime(e.right, scope);
      return a && b ? combine(a, b, e.op === '+' ? 1 : -1) : undefined;
    }
    default:
      return undefined;
  }
}

/** `a + sign × b`. */
function combine(a: LinearTime, b: LinearTime, sign: 1 | -1): LinearTime {
  const terms = new Map(a.terms);
  for (const [i, k] of b.terms) terms.set(i, (terms.get(i) ?? 0) + sign * k);
  return { terms, constant: a.constant + sign * b.constant };
}
