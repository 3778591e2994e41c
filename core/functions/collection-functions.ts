/**
 * Functions over arrays, maps and structs: size, array_contains, element_at, array_distinct,
 * map_keys, map_values, struct, named_struct.
 *
 * Sluice follows Spark's non-ANSI defaults here, as its casts do (one bad record must not stop a
 * stream): `size(null)` is -1, and `element_at` past either end of an array gives null. As in Spark:
 * `element_at` counts from 1, from the end when negative, and fails for index 0; on a map it gives
 * the value of a key, null when absent. `array_contains` is null when the array or the value is
 * null, or when the value is not found and the array holds a null. `array_distinct` keeps first
 * occurrences in order (one null at most). `struct(a, b)` names its fields after the columns
 * (`colN` for other expressions); `named_struct('x', a, ...)` takes constant names.
 *
 * These are the binders; the DataFrame API builds the calls in core/api/collection-functions.ts.
 */
import { AnalysisError, ExecutionError } from '../errors.js';
import { coerce } from '../expr/binary-operators.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import { commonType } from '../expr/common-type.js';
import type { Expression, FunctionCall } from '../expr/expression.js';
import type { FunctionTable } from '../expr/function-table.js';
import { valuesEqual } from '../expr/ordering.js';
import {
  ArrayOf,
  BooleanType,
  type DataType,
  field,
  IntegerType,
  struct,
  typeName,
} from '../types/data-types.js';
import { argumentAs, constantString, requireArity } from './function-arguments.js';
import { nullIntolerant } from './function-registry.js';

/** Binders of the collection functions. */
export const collectionFunctions: FunctionTable = {
  size: (args) => {
    requireArity('size', args, 1);
    // a NULL literal is a collection of no known type, whose size is null's: -1
    if (args[0].dataType.kind !== 'null') collectionArgument('size', args[0], ['array', 'map']);
    const value = args[0].eval;
    return {
      dataType: IntegerType,
      nullable: false,
      eval: (row) => {
        const v = value(row) as unknown[] | Map<unknown, unknown> | null;
        return v === null ? -1 : Array.isArray(v) ? v.length : v.size;
      },
    };
  },
  array_contains: bindArrayContains,
  element_at: bindElementAt,
  array_distinct: (args) => {
    requireArity('array_distinct', args, 1);
    const array = collectionArgument('array_distinct', args[0], ['array']);
    return {
      dataType: array,
      nullable: args[0].nullable,
      eval: nullIntolerant([args[0]], (a) => distinct(a as unknown[])),
    };
  },
  map_keys: (args) => {
    const map = mapArgument('map_keys', args);
    return {
      dataType: ArrayOf(map.keyType, false),
      nullable: args[0].nullable,
      eval: nullIntolerant([args[0]], (m) => [...(m as Map<unknown, unknown>).keys()]),
    };
  },
  map_values: (args) => {
    const map = mapArgument('map_values', args);
    return {
      dataType: ArrayOf(map.valueType, map.valueContainsNull),
      nullable: args[0].nullable,
      eval: nullIntolerant([args[0]], (m) => [...(m as Map<unknown, unknown>).values()]),
    };
  },
  struct: (args, call) => structOf(args, call.args.map(structFieldName)),
  named_struct: bindNamedStruct,
};

function collectionArgument(
  name: string,
  arg: BoundExpression,
  kinds: readonly ('array' | 'map')[],
): DataType {
  const t = arg.dataType;
  if (!(kinds as readonly string[]).includes(t.kind)) {
    throw new AnalysisError(
      `${name}() needs ${kinds.join(' or ')} as argument 1, got ${typeName(t)}.`,
    );
  }
  return t;
}

function mapArgument(name: string, args: readonly BoundExpression[]) {
  requireArity(name, args, 1);
  const t = collectionArgument(name, args[0], ['map']);
  if (t.kind !== 'map') throw new AnalysisError(`${name}() needs a map.`);
  return t;
}

function elementType(name: string, arg: BoundExpression): DataType {
  const t = collectionArgument(name, arg, ['array']);
  return t.kind === 'array' ? t.elementType : t;
}

function bindArrayContains(args: readonly BoundExpression[]): BoundExpression {
  requireArity('array_contains', args, 2);
  const element = elementType('array_contains', args[0]);
  const target = commonType([element, args[1].dataType], 'array_contains()');
  const array = args[0].eval;
  const value = coerce(args[1], target).eval;
  return {
    dataType: BooleanType,
    nullable: true,
    eval: (row) => {
      const a = array(row) as unknown[] | null;
      const v = value(row);
      if (a === null || v === null) return null;
      let sawNull = false;
      for (const x of a) {
        if (x === null) sawNull = true;
        else if (valuesEqual(x, v)) return true;
      }
      return sawNull ? null : false;
    },
  };
}

function bindElementAt(args: readonly BoundExpression[]): BoundExpression {
  requireArity('element_at', args, 2);
  const t = collectionArgument('element_at', args[0], ['array', 'map']);
  if (t.kind === 'map') {
    const key = coerce(args[1], t.keyType);
    return {
      dataType: t.valueType,
      nullable: true,
      eval: nullIntolerant([args[0], key], (m, k) => mapValue(m as Map<unknown, unknown>, k)),
    };
  }
  const index = argumentAs('element_at', args, 1, IntegerType);
  return {
    dataType: t.kind === 'array' ? t.elementType : t,
    nullable: true,
    eval: nullIntolerant([args[0], index], (a, i) => arrayElement(a as unknown[], i as number)),
  };
}

/** Spark's `ElementAt` on an array (non-ANSI): 1-based, negative from the end, null out of range. */
function arrayElement(a: unknown[], i: number): unknown {
  if (i === 0) {
    throw new ExecutionError(
      'element_at() was given index 0, but SQL array indices start at 1; use 1 for the first element or -1 for the last.',
    );
  }
  const at = i > 0 ? i - 1 : a.length + i;
  return at >= 0 && at < a.length ? a[at] : null;
}

/** A map's value for `key`: by identity first (strings, numbers), then by SQL equality. */
function mapValue(m: Map<unknown, unknown>, key: unknown): unknown {
  if (m.has(key)) return m.get(key);
  for (const [k, v] of m) if (valuesEqual(k, key)) return v;
  return null;
}

function distinct(a: readonly unknown[]): unknown[] {
  const kept: unknown[] = [];
  for (const x of a) {
    const seen = kept.some((k) => (k === null || x === null ? k === x : valuesEqual(k, x)));
    if (!seen) kept.push(x);
  }
  return kept;
}

/** Spark names a struct's fields after column references, and `colN` (1-based) otherwise. */
function structFieldName(e: Expression, i: number): string {
  if (e.kind === 'column') return e.path[e.path.length - 1];
  if (e.kind === 'alias') return e.name;
  return `col${i + 1}`;
}

function structOf(args: readonly BoundExpression[], names: readonly string[]): BoundExpression {
  const evals = args.map((a) => a.eval);
  return {
    dataType: struct(args.map((a, i) => field(names[i], a.dataType, a.nullable))),
    nullable: false,
    eval: (row) => evals.map((e) => e(row)),
  };
}

function bindNamedStruct(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  if (args.length === 0 || args.length % 2 !== 0) {
    throw new AnalysisError(
      `named_struct() takes pairs of a name and a value, got ${args.length} argument(s).`,
    );
  }
  const names: string[] = [];
  const values: BoundExpression[] = [];
  for (let i = 0; i < args.length; i += 2) {
    names.push(constantString('named_struct', call, i, 'field name'));
    values.push(args[i + 1]);
  }
  return structOf(values, names);
}
