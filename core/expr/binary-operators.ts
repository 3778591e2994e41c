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
import type { BoundExpression, Evaluator } from './bound-expression.js';
import { castFunction } from './cast.js';
import type { BinaryOperator } from './expression.js';
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
      return {
        dataType: BooleanType,
        nullable: left.nullable || right.nullable,
        eval: op === 'and' ? and(left.eval, right.eval) : or(left.eval, right.eval),
      };
    case '+':
    case '-':
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

function and(l: Evaluator, r: Evaluator): Evaluator {
  return (row) => {
    const a = l(row);
    if (a === false) return false;
    const b = r(row);
    if (b === false) return false;
    return a === null || b === null ? null : true;
  };
}

function or(l: Evaluator, r: Evaluator): Evaluator {
  return (row) => {
    const a = l(row);
    if (a === true) return true;
    const b = r(row);
    if (b === true) return true;
    return a === null || b === null ? null : false;
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
  const a = left.eval;
  const b = right.eval;
  const modulo = op === '%';
  return {
    dataType,
    nullable: true,
    eval: (row) => {
      const x = a(row);
      if (x === null) return null;
      const y = b(row);
      if (y === null) return null;
      if (modulo && y === 0) return null;
      return check(compute(x as number, y as number));
    },
  };
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
  const a = coerce(asNumericOperand('/', l), DoubleType).eval;
  const b = coerce(asNumericOperand('/', r), DoubleType).eval;
  return {
    dataType: DoubleType,
    nullable: true,
    eval: (row) => {
      const x = a(row);
      if (x === null) return null;
      const y = b(row);
      return y === null || y === 0 ? null : (x as number) / (y as number);
    },
  };
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
  const a = coerce(l, t).eval;
  const b = coerce(r, t).eval;
  if (op === '<=>') {
    return {
      dataType: BooleanType,
      nullable: false,
      eval: (row) => {
        const x = a(row);
        const y = b(row);
        return x === null || y === null ? x === y : valuesEqual(x, y);
      },
    };
  }
  const test = comparisonTest(op, t);
  return {
    dataType: BooleanType,
    nullable: true,
    eval: (row) => {
      const x = a(row);
      if (x === null) return null;
      const y = b(row);
      return y === null ? null : test(x, y);
    },
  };
}

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
  return {
    dataType: t,
    nullable: true,
    eval: (row) => {
      const v = inner(row);
      return v === null ? null : cast(v);
    },
  };
}
