/**
 * Arithmetic, comparison and boolean operators with Spark's type coercion and SQL null semantics:
 * any null operand gives null, except `<=>` (null-safe equality) and the three-valued AND / OR.
 */
import { AnalysisError } from '../errors.js';
import {
  BooleanType,
  type DataType,
  DoubleType,
  IntegerType,
  isNumeric,
  LongType,
  sameType,
  typeName,
} from '../types/data-types.js';
import type { BoundExpression } from './bound-expression.js';
import { castFunction } from './cast.js';
import { bindIntervalArithmetic, isIntervalArithmetic } from './interval-arithmetic.js';
import type { BinaryOperator } from './expression.js';
import { binaryKernel, type BinaryRule } from './kernels/binary-kernel.js';
import { kernelOf } from './kernels/generic-kernel.js';
import { unaryKernel } from './kernels/unary-kernel.js';
import { comparatorFor, valuesEqual } from './ordering.js';
import { rangeCheck } from './range-check.js';

/** Binds `left op right`. */
export function bindBinary(
  op: BinaryOperator,
  left: BoundExpression,
  right: BoundExpression,
): BoundExpression {
  switch (op) {
    case 'and':
    case 'or':
      requireBoolean(op, left);
      requireBoolean(op, right);
      return binaryExpression(
        left,
        right,
        BooleanType,
        left.nullable || right.nullable,
        op === 'and' ? AND : OR,
      );
    case '+':
    case '-':
      return isIntervalArithmetic(op, left, right)
        ? bindIntervalArithmetic(op, left, right)
        : bindArithmetic(op, left, right);
    case '*':
    case '%':
      return bindArithmetic(op, left, right);
    case '/':
      return bindDivide(left, right);
    default:
      return bindComparison(op, left, right);
  }
}

function requireBoolean(op: string, e: BoundExpression): void {
  if (e.dataType.kind !== 'boolean' && e.dataType.kind !== 'null') {
    throw new AnalysisError(
      `Operator ${op.toUpperCase()} needs boolean operands, got ${typeName(e.dataType)}.`,
    );
  }
}

/**
 * A binary expression computed by `rule`: per row (the right operand evaluated only when the left
 * one does not decide the result) and per batch, the same way.
 */
function binaryExpression(
  left: BoundExpression,
  right: BoundExpression,
  dataType: DataType,
  nullable: boolean,
  rule: BinaryRule,
): BoundExpression {
  const a = left.eval;
  const b = right.eval;
  return {
    dataType,
    nullable,
    eval: (row) => {
      const x = a(row);
      return rule.decided(x) ? rule.decidedResult(x) : rule.combine(x, b(row));
    },
    kernel: binaryKernel(kernelOf(left), kernelOf(right), dataType, rule),
  };
}

/** SQL's three-valued AND: false decides; otherwise null when either side is. */
const AND: BinaryRule = {
  decided: (x) => x === false,
  decidedResult: () => false,
  combine: (x, y) => (y === false ? false : x === null || y === null ? null : true),
};

/** SQL's three-valued OR: true decides; otherwise null when either side is. */
const OR: BinaryRule = {
  decided: (x) => x === true,
  decidedResult: () => true,
  combine: (x, y) => (y === true ? true : x === null || y === null ? null : false),
};

/** The rule of an operator that is null when either operand is null (`compute` sees neither null). */
function nullIntolerant(compute: (x: unknown, y: unknown) => unknown): BinaryRule {
  return {
    decided: (x) => x === null,
    decidedResult: () => null,
    combine: (x, y) => (y === null ? null : compute(x, y)),
  };
}

/** The wider of two numeric types: int < long < double. */
function widerNumeric(a: DataType, b: DataType): DataType {
  if (a.kind === 'double' || b.kind === 'double') return DoubleType;
  if (a.kind === 'long' || b.kind === 'long') return LongType;
  return IntegerType;
}

/** Strings and nulls in arithmetic are read as doubles, as Spark does. */
function asNumericOperand(op: string, e: BoundExpression): BoundExpression {
  if (isNumeric(e.dataType)) return e;
  if (e.dataType.kind === 'string' || e.dataType.kind === 'null') return coerce(e, DoubleType);
  throw new AnalysisError(
    `Operator ${op} needs numeric operands, got ${typeName(e.dataType)}; cast it first.`,
  );
}

function bindArithmetic(
  op: '+' | '-' | '*' | '%',
  l: BoundExpression,
  r: BoundExpression,
): BoundExpression {
  const left = asNumericOperand(op, l);
  const right = asNumericOperand(op, r);
  const dataType = widerNumeric(left.dataType, right.dataType);
  const check = overflowCheck(dataType, op);
  const compute = arithmetic(op);
  const modulo = op === '%';
  const rule = nullIntolerant((x, y) =>
    modulo && y === 0 ? null : check(compute(x as number, y as number)),
  );
  return binaryExpression(left, right, dataType, true, rule);
}

function arithmetic(op: '+' | '-' | '*' | '%'): (x: number, y: number) => number {
  switch (op) {
    case '+':
      return (x, y) => x + y;
    case '-':
      return (x, y) => x - y;
    case '*':
      return (x, y) => x * y;
    case '%':
      return (x, y) => x % y;
  }
}

function overflowCheck(t: DataType, op: string): (n: number) => number {
  return rangeCheck(
    t,
    (n) =>
      `Arithmetic overflow in '${op}': result ${n} is outside the ${typeName(t)} range; cast an operand to double.`,
  );
}

function bindDivide(l: BoundExpression, r: BoundExpression): BoundExpression {
  const left = coerce(asNumericOperand('/', l), DoubleType);
  const right = coerce(asNumericOperand('/', r), DoubleType);
  const rule = nullIntolerant((x, y) => (y === 0 ? null : (x as number) / (y as number)));
  return binaryExpression(left, right, DoubleType, true, rule);
}

/** The type both sides of a comparison are brought to, following Spark's implicit casts. */
export function comparisonType(op: string, l: DataType, r: DataType): DataType {
  if (l.kind === 'null') return r;
  if (r.kind === 'null') return l;
  if (isNumeric(l) && isNumeric(r)) return widerNumeric(l, r);
  if (sameType(l, r)) return l;
  if (l.kind === 'string' && r.kind !== 'string') return stringComparedWith(r);
  if (r.kind === 'string' && l.kind !== 'string') return stringComparedWith(l);
  throw new AnalysisError(
    `Cannot compare ${typeName(l)} with ${typeName(r)} using '${op}'; cast one side first.`,
  );
}

function stringComparedWith(t: DataType): DataType {
  return isNumeric(t) ? DoubleType : t;
}

function bindComparison(
  op: BinaryOperator,
  l: BoundExpression,
  r: BoundExpression,
): BoundExpression {
  const t = comparisonType(op, l.dataType, r.dataType);
  const left = coerce(l, t);
  const right = coerce(r, t);
  if (op === '<=>') return binaryExpression(left, right, BooleanType, false, NULL_SAFE_EQUAL);
  return binaryExpression(left, right, BooleanType, true, nullIntolerant(comparisonTest(op, t)));
}

/** `<=>`: both operands always evaluated; two nulls are equal. */
const NULL_SAFE_EQUAL: BinaryRule = {
  decided: () => false,
  decidedResult: () => null,
  combine: (x, y) => (x === null || y === null ? x === y : valuesEqual(x, y)),
};

function comparisonTest(op: BinaryOperator, t: DataType): (x: unknown, y: unknown) => boolean {
  if (op === '=') return valuesEqual;
  if (op === '!=') return (x, y) => !valuesEqual(x, y);
  const compare = comparatorFor(t);
  switch (op) {
    case '<':
      return (x, y) => compare(x, y) < 0;
    case '<=':
      return (x, y) => compare(x, y) <= 0;
    case '>':
      return (x, y) => compare(x, y) > 0;
    case '>=':
      return (x, y) => compare(x, y) >= 0;
    default:
      throw new AnalysisError(`Unknown comparison operator '${op}'.`);
  }
}

/** Casts a bound expression to `t` when its type differs. */
export function coerce(e: BoundExpression, t: DataType): BoundExpression {
  if (sameType(e.dataType, t)) return e;
  const cast = castFunction(e.dataType, t);
  const inner = e.eval;
  const convert = (v: unknown) => (v === null ? null : cast(v));
  return {
    dataType: t,
    nullable: true,
    eval: (row) => convert(inner(row)),
    kernel: unaryKernel(kernelOf(e), t, convert),
  };
}
