/**
 * `+` and `-` where an operand is an interval, as Spark binds them: `timestamp ± interval` and
 * `interval + timestamp` give a timestamp (calendar-interval.ts says how months and days are added,
 * in UTC); `interval ± interval` gives an interval, field by field. A null operand gives null. Any
 * other pairing with an interval (a date, a number, a string) is refused: cast to a timestamp first.
 */
import { AnalysisError } from '../errors.js';
import {
  addIntervals,
  type CalendarInterval,
  IntervalType,
  negateInterval,
  timestampPlusInterval,
} from '../types/calendar-interval.js';
import { type DataType, TimestampType, typeName } from '../types/data-types.js';
import type { BoundExpression } from './bound-expression.js';
import { binaryKernel, type BinaryRule } from './kernels/binary-kernel.js';
import { kernelOf } from './kernels/generic-kernel.js';

/** True when `left op right` is interval arithmetic, which `bindIntervalArithmetic` binds. */
export function isIntervalArithmetic(
  op: string,
  left: BoundExpression,
  right: BoundExpression,
): boolean {
  return (
    (op === '+' || op === '-') &&
    (left.dataType.kind === 'interval' || right.dataType.kind === 'interval')
  );
}

/** Binds `left + right` or `left - right` where at least one operand is an interval. */
export function bindIntervalArithmetic(
  op: '+' | '-',
  left: BoundExpression,
  right: BoundExpression,
): BoundExpression {
  const l = left.dataType.kind;
  const r = right.dataType.kind;
  if (isTimeLike(l) && isIntervalLike(r)) {
    const sign = op === '-' ? negateInterval : (i: CalendarInterval) => i;
    return bound(left, right, TimestampType, (t, i) =>
      timestampPlusInterval(t as number, sign(i as CalendarInterval)),
    );
  }
  if (op === '+' && isIntervalLike(l) && isTimeLike(r)) {
    return bound(left, right, TimestampType, (i, t) =>
      timestampPlusInterval(t as number, i as CalendarInterval),
    );
  }
  if (isIntervalLike(l) && isIntervalLike(r)) {
    const sign = op === '-' ? negateInterval : (i: CalendarInterval) => i;
    return bound(left, right, IntervalType, (a, b) =>
      addIntervals(a as CalendarInterval, sign(b as CalendarInterval)),
    );
  }
  throw new AnalysisError(
    `Operator ${op} cannot combine ${typeName(left.dataType)} with ${typeName(right.dataType)}: ` +
      'an interval is added to or subtracted from a timestamp (or another interval); cast the other operand to timestamp first.',
  );
}

/** A timestamp, or an untyped null standing for one. */
function isTimeLike(kind: DataType['kind']): boolean {
  return kind === 'timestamp' || kind === 'null';
}

/** An interval, or an untyped null standing for one. */
function isIntervalLike(kind: DataType['kind']): boolean {
  return kind === 'interval' || kind === 'null';
}

/** The bound expression of a null-intolerant `compute`, per row and per batch alike. */
function bound(
  left: BoundExpression,
  right: BoundExpression,
  dataType: DataType,
  compute: (x: unknown, y: unknown) => unknown,
): BoundExpression {
  const rule: BinaryRule = {
    decided: (x) => x === null,
    decidedResult: () => null,
    combine: (x, y) => (y === null ? null : compute(x, y)),
  };
  const a = left.eval;
  const b = right.eval;
  return {
    dataType,
    nullable: true,
    eval: (row) => {
      const x = a(row);
      return rule.decided(x) ? rule.decidedResult(x) : rule.combine(x, b(row));
    },
    kernel: binaryKernel(kernelOf(left), kernelOf(right), dataType, rule),
  };
}
