/**
 * Total order and equality over engine values of one type, as SQL's comparison and ORDER BY use them.
 * Nulls are handled by callers (SQL comparison with a null is null; sorting places nulls explicitly).
 */
import { AnalysisError } from '../errors.js';
import { isCalendarInterval } from '../types/calendar-interval.js';
import type { DataType } from '../types/data-types.js';

/** A comparator for non-null values of one type: negative, zero or positive. */
export type Comparator = (a: unknown, b: unknown) => number;

/** Returns the comparator for values of type `t`. */
export function comparatorFor(t: DataType): Comparator {
  switch (t.kind) {
    case 'int':
    case 'long':
    case 'double':
    case 'timestamp':
    case 'date':
      return compareNumbers;
    case 'string':
      return compareStrings;
    case 'boolean':
      return (a, b) => Number(a) - Number(b);
    case 'binary':
      return (a, b) => compareSequences(a as Uint8Array, b as Uint8Array, compareNumbers);
    case 'array': {
      const element = nullsFirst(comparatorFor(t.elementType));
      return (a, b) => compareSequences(a as unknown[], b as unknown[], element);
    }
    case 'struct': {
      const fields = t.fields.map((f) => nullsFirst(comparatorFor(f.dataType)));
      return (a, b) => {
        const x = a as unknown[];
        const y = b as unknown[];
        for (let i = 0; i < fields.length; i++) {
          const c = fields[i](x[i], y[i]);
          if (c !== 0) return c;
        }
        return 0;
      };
    }
    case 'interval':
      throw new AnalysisError(
        'Intervals have no order (a month has no fixed number of days), as in Spark: compare or sort by a timestamp the interval is added to instead.',
      );
    case 'map':
    case 'null':
      return () => 0;
  }
}

/** Deep SQL equality of two non-null values of one type (NaN equals NaN, as in Spark). */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((v, i) => v === b[i]);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => nullableEqual(v, b[i]));
  }
  if (isCalendarInterval(a) && isCalendarInterval(b)) {
    return a.months === b.months && a.days === b.days && a.micros === b.micros;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !nullableEqual(v, b.get(k))) return false;
    return true;
  }
  return false;
}

function nullableEqual(a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  return valuesEqual(a, b);
}

/** Spark orders NaN above every other double. */
function compareNumbers(a: unknown, b: unknown): number {
  const x = a as number;
  const y = b as number;
  if (x < y) return -1;
  if (x > y) return 1;
  if (x === y) return 0;
  return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
}

function compareStrings(a: unknown, b: unknown): number {
  const x = a as string;
  const y = b as string;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareSequences<T>(
  a: ArrayLike<T>,
  b: ArrayLike<T>,
  element: (x: T, y: T) => number,
): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = element(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function nullsFirst(c: Comparator): Comparator {
  return (a, b) => {
    if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
    if (b === null || b === undefined) return 1;
    return c(a, b);
  };
}
