/**
 * Literals from JS values: the type is inferred from the value, as Spark's `lit` does.
 */
import type { Literal } from '../expr/expression.js';
import {
  BinaryType,
  BooleanType,
  DoubleType,
  IntegerType,
  LongType,
  NullType,
  StringType,
  TimestampType,
} from '../types/data-types.js';
import { dateEpochMicros } from '../types/timestamp.js';

/** A literal expression for a JS value: int for 32-bit integers, long for larger ones, double otherwise. */
export function toLiteral(value: string | number | boolean | null | Date | Uint8Array): Literal {
  if (value === null || value === undefined)
    return { kind: 'literal', value: null, dataType: NullType };
  if (typeof value === 'string') return { kind: 'literal', value, dataType: StringType };
  if (typeof value === 'boolean') return { kind: 'literal', value, dataType: BooleanType };
  if (value instanceof Date) {
    return { kind: 'literal', value: dateEpochMicros(value), dataType: TimestampType };
  }
  if (value instanceof Uint8Array) return { kind: 'literal', value, dataType: BinaryType };
  if (Number.isInteger(value)) {
    const isInt = value >= -2147483648 && value <= 2147483647;
    return { kind: 'literal', value, dataType: isInt ? IntegerType : LongType };
  }
  return { kind: 'literal', value, dataType: DoubleType };
}
