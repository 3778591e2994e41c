/**
 * Casts between types with Spark's default (non-ANSI) rules: text that does not parse as the target
 * type becomes NULL rather than failing the query, so one bad record cannot stop a stream.
 * Integral results outside the target's range are errors, since they cannot be represented.
 */
import { AnalysisError, ExecutionError } from '../errors.js';
import { type DataType, type StructType, typeName } from '../types/data-types.js';
import {
  formatDate,
  formatTimestamp,
  MICROS,
  parseDate,
  parseTimestamp,
} from '../types/timestamp-text.js';

/** A conversion of one non-null value; returns null when the value has no representation in the target type. */
export type CastFunction = (value: unknown) => unknown;

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const TRUE_STRINGS = new Set(['t', 'true', 'y', 'yes', '1']);
const FALSE_STRINGS = new Set(['f', 'false', 'n', 'no', '0']);
const INTEGRAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Returns the cast from `from` to `to`, or throws an AnalysisError naming both types when Spark would refuse it. */
export function castFunction(from: DataType, to: DataType): CastFunction {
  if (from.kind === 'null') return () => null;
  if (
    from.kind === to.kind &&
    from.kind !== 'struct' &&
    from.kind !== 'array' &&
    from.kind !== 'map'
  ) {
    return (v) => v;
  }
  switch (to.kind) {
    case 'string':
      return toStringCast(from);
    case 'boolean':
      return toBooleanCast(from);
    case 'int':
      return toIntegralCast(from, INT_MIN, INT_MAX, 'int');
    case 'long':
      return toIntegralCast(from, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'long');
    case 'double':
      return toDoubleCast(from);
    case 'timestamp':
      return toTimestampCast(from);
    case 'date':
      return toDateCast(from);
    case 'binary':
      if (from.kind === 'string') return (v) => utf8Encoder.encode(v as string);
      break;
    case 'array':
      if (from.kind === 'array') {
        const element = castFunction(from.elementType, to.elementType);
        return (v) => (v as unknown[]).map((x) => (x === null ? null : element(x)));
      }
      break;
    case 'map':
      if (from.kind === 'map') {
        const key = castFunction(from.keyType, to.keyType);
        const value = castFunction(from.valueType, to.valueType);
        return (v) =>
          new Map(
            [...(v as Map<unknown, unknown>)].map(([k, x]) => [
              key(k),
              x === null ? null : value(x),
            ]),
          );
      }
      break;
    case 'struct':
      if (from.kind === 'struct' && from.fields.length === to.fields.length) {
        return structCast(from, to);
      }
      break;
  }
  throw new AnalysisError(`Cannot cast ${typeName(from)} to ${typeName(to)}.`);
}

function toStringCast(from: DataType): CastFunction {
  switch (from.kind) {
    case 'double':
      return (v) => formatDouble(v as number);
    case 'timestamp':
      return (v) => formatTimestamp(v as number);
    case 'date':
      return (v) => formatDate(v as number);
    case 'binary':
      return (v) => utf8Decoder.decode(v as Uint8Array);
    case 'array': {
      const element = toStringCast(from.elementType);
      return (v) =>
        `[${(v as unknown[]).map((x) => (x === null ? 'null' : element(x))).join(', ')}]`;
    }
    case 'map': {
      const key = toStringCast(from.keyType);
      const value = toStringCast(from.valueType);
      return (v) =>
        `{${[...(v as Map<unknown, unknown>)]
          .map(([k, x]) => `${key(k)} -> ${x === null ? 'null' : value(x)}`)
          .join(', ')}}`;
    }
    case 'struct': {
      const fields = from.fields.map((f) => toStringCast(f.dataType));
      return (v) =>
        `{${(v as unknown[]).map((x, i) => (x === null ? 'null' : fields[i](x))).join(', ')}}`;
    }
    default:
      return (v) => String(v);
  }
}

/** Java's `Double.toString`, which Spark uses: `1.0`, `0.001`, `1.0E7`, `1.0E-4`, `NaN`, `Infinity`. */
function formatDouble(v: number): string {
  const magnitude = Math.abs(v);
  if (magnitude >= 1e-3 && magnitude < 1e7) return Number.isInteger(v) ? `${v}.0` : String(v);
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  if (!Number.isFinite(v)) return String(v);
  const [mantissa, exponent] = v.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

function toBooleanCast(from: DataType): CastFunction {
  switch (from.kind) {
    case 'string':
      return (v) => {
        const s = (v as string).trim().toLowerCase();
        return TRUE_STRINGS.has(s) ? true : FALSE_STRINGS.has(s) ? false : null;
      };
    case 'int':
    case 'long':
    case 'double':
      return (v) => v !== 0;
    default:
      throw new AnalysisError(`Cannot cast ${typeName(from)} to boolean.`);
  }
}

function toIntegralCast(from: DataType, min: number, max: number, target: string): CastFunction {
  const checked = (n: number): number => {
    if (n < min || n > max) {
      throw new ExecutionError(
        `Value ${n} is out of range for ${target} (${min}..${max}); cast to double instead.`,
      );
    }
    return n;
  };
  switch (from.kind) {
    case 'string':
      return (v) => {
        // Spark reads decimal digits with an optional fraction only: not '1e3', '0x1F' or 'Infinity'.
        const s = (v as string).trim();
        return INTEGRAL_TEXT.test(s) ? checked(Math.trunc(Number(s))) : null;
      };
    case 'boolean':
      return (v) => (v ? 1 : 0);
    case 'int':
    case 'long':
      return (v) => checked(v as number);
    case 'double':
      return (v) => (Number.isFinite(v) ? checked(Math.trunc(v as number)) : null);
    case 'timestamp':
      return (v) => checked(Math.floor((v as number) / MICROS.second));
    case 'date':
      return (v) => checked(v as number);
    default:
      throw new AnalysisError(`Cannot cast ${typeName(from)} to ${target}.`);
  }
}

function toDoubleCast(from: DataType): CastFunction {
  switch (from.kind) {
    case 'string':
      return (v) => {
        const s = (v as string).trim();
        if (s === '') return null;
        const n = Number(s);
        return Number.isNaN(n) && s !== 'NaN' ? null : n;
      };
    case 'boolean':
      return (v) => (v ? 1 : 0);
    case 'int':
    case 'long':
      return (v) => v;
    case 'timestamp':
      return (v) => (v as number) / MICROS.second;
    default:
      throw new AnalysisError(`Cannot cast ${typeName(from)} to double.`);
  }
}

function toTimestampCast(from: DataType): CastFunction {
  switch (from.kind) {
    case 'string':
      return (v) => parseTimestamp(v as string);
    case 'int':
    case 'long':
    case 'double':
      return (v) => (Number.isFinite(v) ? Math.round((v as number) * MICROS.second) : null);
    case 'date':
      return (v) => (v as number) * MICROS.day;
    default:
      throw new AnalysisError(`Cannot cast ${typeName(from)} to timestamp.`);
  }
}

function toDateCast(from: DataType): CastFunction {
  switch (from.kind) {
    case 'string':
      return (v) => parseDate(v as string);
    case 'timestamp':
      return (v) => Math.floor((v as number) / MICROS.day);
    default:
      throw new AnalysisError(`Cannot cast ${typeName(from)} to date.`);
  }
}

function structCast(from: StructType, to: StructType): CastFunction {
  const fields = from.fields.map((f, i) => castFunction(f.dataType, to.fields[i].dataType));
  return (v) => (v as unknown[]).map((x, i) => (x === null ? null : fields[i](x)));
}
