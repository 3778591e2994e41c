/**
 * Math functions: abs, round, floor, ceil, sqrt, pow. A null argument gives null.
 *
 * Type rules follow Spark: abs and round keep their argument's type, floor and ceil give a long,
 * sqrt and pow a double; strings are read as doubles. Integral results outside their type's
 * range are errors, as for arithmetic operators.
 *
 * These are the binders; the DataFrame API builds the calls in core/api/math-functions.ts.
 */
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import { rangeCheck } from '../expr/range-check.js';
import { type DataType, DoubleType, LongType, typeName } from '../types/data-types.js';
import {
  argumentAs,
  constantInteger,
  numericArgument,
  requireArity,
} from './function-arguments.js';
import type { FunctionTable } from '../expr/function-table.js';
import { nullIntolerant } from './function-registry.js';

/** Binders of the math functions. */
export const mathFunctions: FunctionTable = {
  abs: (args) => {
    requireArity('abs', args, 1);
    const x = numericArgument('abs', args, 0);
    const inRange = overflowCheck('abs', x.dataType);
    return sameType(x, (v) => inRange(Math.abs(v)));
  },
  round: bindRound,
  floor: (args) => bindToLong('floor', args, Math.floor),
  ceil: (args) => bindToLong('ceil', args, Math.ceil),
  sqrt: (args) => {
    requireArity('sqrt', args, 1);
    const x = argumentAs('sqrt', args, 0, DoubleType);
    return {
      dataType: DoubleType,
      nullable: x.nullable,
      eval: nullIntolerant([x], (v) => Math.sqrt(v as number)),
    };
  },
  pow: (args) => {
    requireArity('pow', args, 2);
    const operands = [
      argumentAs('pow', args, 0, DoubleType),
      argumentAs('pow', args, 1, DoubleType),
    ];
    return {
      dataType: DoubleType,
      nullable: operands.some((o) => o.nullable),
      eval: nullIntolerant(operands, (b, e) => Math.pow(b as number, e as number)),
    };
  },
};

function sameType(x: BoundExpression, fn: (v: number) => number): BoundExpression {
  return {
    dataType: x.dataType,
    nullable: x.nullable,
    eval: nullIntolerant([x], (v) => fn(v as number)),
  };
}

function bindRound(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('round', args, 1, 2);
  const x = numericArgument('round', args, 0);
  const scale = args.length === 2 ? constantInteger('round', call, 1, 'scale') : 0;
  if (x.dataType.kind !== 'double' && scale >= 0) return x;
  const inRange = overflowCheck('round', x.dataType);
  return sameType(x, (v) => inRange(roundHalfUp(v, scale)));
}

/**
 * Rounds half away from zero on the shortest decimal text of `v`, as Spark's
 * `BigDecimal(v).setScale(scale, HALF_UP)` does: binary rounding (`toFixed`) would turn 2.675,
 * stored as 2.67499999..., into 2.67.
 */
function roundHalfUp(v: number, scale: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const [mantissa, exponent] = Math.abs(v).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const kept = Number(exponent) + 1 + scale; // how many leading digits survive
  if (kept >= digits.length) return v;
  if (kept < 0) return 0;
  const carry = digits[kept] >= '5' ? 1n : 0n;
  const rounded = Number(`${BigInt(digits.slice(0, kept) || '0') + carry}e${-scale}`);
  // BigDecimal has no negative zero: round(-0.4) is 0.0.
  return v < 0 && rounded !== 0 ? -rounded : rounded;
}

function bindToLong(
  name: string,
  args: readonly BoundExpression[],
  fn: (v: number) => number,
): BoundExpression {
  requireArity(name, args, 1);
  const x = numericArgument(name, args, 0);
  const inRange = overflowCheck(name, LongType);
  return {
    dataType: LongType,
    nullable: true,
    // NaN and infinities have no long value; Spark's cast gives null for them too.
    eval: nullIntolerant([x], (v) => (Number.isFinite(v) ? inRange(fn(v as number)) : null)),
  };
}

/** Fails on integral results outside `t`'s range; doubles pass unchecked. */
function overflowCheck(name: string, t: DataType): (n: number) => number {
  return rangeCheck(
    t,
    (n) =>
      `${name}() overflowed: ${n} is outside the ${typeName(t)} range; cast the argument to double first.`,
  );
}
