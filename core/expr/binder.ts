/**
 * Binding: resolves an expression against a scope and compiles it into a closure over positional
 * rows, and, where it has one, a kernel over column batches computing the same values. All name
 * lookups and type checks happen here, once, so evaluation does no work per row beyond the
 * computation itself.
 */
import { AnalysisError } from '../errors.js';
import {
  BooleanType,
  type DataType,
  DateType,
  type StructType,
  TimestampType,
  typeName,
} from '../types/data-types.js';
import { bindBinary, coerce } from './binary-operators.js';
import type { BoundExpression, Evaluator } from './bound-expression.js';
import { castFunction } from './cast.js';
import { commonType } from './common-type.js';
import type { CaseWhenExpression, ColumnRef, Expression } from './expression.js';
import { expressionName } from './expression-name.js';
import { columnKernel } from './kernels/column-kernel.js';
import { kernelOf } from './kernels/generic-kernel.js';
import { literalKernel } from './kernels/literal-kernel.js';
import { unaryKernel } from './kernels/unary-kernel.js';
import { windowKernel } from './kernels/window-kernel.js';
import type { Scope } from './scope.js';
import { structFieldIndex } from './struct-field.js';
import { isTumbling, lastWindowStart, windowStructType } from './time-window.js';

/** Binds a scalar expression (no aggregates, no generators) against `scope`. */
export function bindExpression(e: Expression, scope: Scope): BoundExpression {
  switch (e.kind) {
    case 'column':
      return bindColumn(e, scope);
    case 'literal':
      return {
        dataType: e.dataType,
        nullable: e.value === null,
        eval: () => e.value,
        kernel: literalKernel(e.value),
      };
    case 'alias':
      return bindExpression(e.child, scope);
    case 'binary':
      return bindBinary(e.op, bindExpression(e.left, scope), bindExpression(e.right, scope));
    case 'not': {
      const child = requireBoolean(bindExpression(e.child, scope), 'NOT');
      const inner = child.eval;
      const not = (v: unknown) => (v === null ? null : !v);
      return {
        dataType: BooleanType,
        nullable: child.nullable,
        eval: (row) => not(inner(row)),
        kernel: unaryKernel(kernelOf(child), BooleanType, not),
      };
    }
    case 'isNull': {
      const child = bindExpression(e.child, scope);
      const inner = child.eval;
      const test = e.negated ? (v: unknown) => v !== null : (v: unknown) => v === null;
      return {
        dataType: BooleanType,
        nullable: false,
        eval: (row) => test(inner(row)),
        kernel: unaryKernel(kernelOf(child), BooleanType, test),
      };
    }
    case 'cast': {
      const child = bindExpression(e.child, scope);
      const cast = { ...coerceWith(child, e.to), metadata: child.metadata };
      const decodesUtf8 = child.dataType.kind === 'binary' && e.to.kind === 'string';
      return decodesUtf8 ? { ...cast, utf8Bytes: kernelOf(child) } : cast;
    }
    case 'caseWhen':
      return bindCaseWhen(e, scope);
    case 'call':
      return bindCall(e, scope);
    case 'window':
      return bindTumblingWindow(e, scope);
    case 'sessionWindow':
      throw new AnalysisError(
        'session_window() is only allowed as a grouping key of groupBy().agg(), as in Spark; group by it, then refer to the session_window column of the result.',
      );
    case 'aggregate':
      throw new AnalysisError(
        `Aggregate function ${expressionName(e)} is only allowed in groupBy().agg(); it cannot appear here.`,
      );
    case 'explode':
      throw new AnalysisError(
        `Generator ${expressionName(e)} is only allowed as a top-level expression in select().`,
      );
    case 'windowFunction':
      throw new AnalysisError(
        `Window expression ${expressionName(e)} is only allowed in select() (or withColumn); compute it there, then refer to its column.`,
      );
  }
}

function bindColumn(ref: ColumnRef, scope: Scope): BoundExpression {
  const { index, field, nestedPath } = scope.resolve(ref);
  let dataType: DataType = field.dataType;
  let nullable = field.nullable;
  let evaluator: Evaluator = (row) => row[index];
  const fieldPath: number[] = [];
  for (const name of nestedPath) {
    if (dataType.kind !== 'struct') {
      throw new AnalysisError(
        `Cannot access field '${name}' of '${ref.path.join('.')}': ${typeName(dataType)} is not a struct.`,
      );
    }
    const struct: StructType = dataType;
    const i = structFieldIndex(struct, name);
    if (i < 0) {
      throw new AnalysisError(
        `No field '${name}' in '${ref.path.join('.')}'; it has: ${struct.fields.map((f) => f.name).join(', ')}.`,
      );
    }
    fieldPath.push(i);
    const parent = evaluator;
    evaluator = (row) => {
      const s = parent(row) as unknown[] | null;
      return s === null ? null : s[i];
    };
    nullable = nullable || struct.fields[i].nullable;
    dataType = struct.fields[i].dataType;
  }
  const metadata = nestedPath.length === 0 ? field.metadata : undefined;
  return { dataType, nullable, eval: evaluator, kernel: columnKernel(index, fieldPath), metadata };
}

function requireBoolean(e: BoundExpression, what: string): BoundExpression {
  if (e.dataType.kind !== 'boolean' && e.dataType.kind !== 'null') {
    throw new AnalysisError(`${what} needs a boolean expression, got ${typeName(e.dataType)}.`);
  }
  return e;
}

function coerceWith(e: BoundExpression, to: DataType): BoundExpression {
  castFunction(e.dataType, to); // fails at bind time for casts Spark refuses
  return coerce(e, to);
}

function bindCaseWhen(e: CaseWhenExpression, scope: Scope): BoundExpression {
  const conditions = e.branches.map(
    (b) => requireBoolean(bindExpression(b.when, scope), 'WHEN').eval,
  );
  const values = e.branches.map((b) => bindExpression(b.then, scope));
  const otherwise = e.otherwise ? bindExpression(e.otherwise, scope) : undefined;
  const all = otherwise ? [...values, otherwise] : values;
  const resultType = commonType(
    all.map((v) => v.dataType),
    'CASE WHEN',
  );
  const results = values.map((v) => coerce(v, resultType).eval);
  const fallback: Evaluator = otherwise ? coerce(otherwise, resultType).eval : () => null;
  return {
    dataType: resultType,
    nullable: !otherwise || all.some((v) => v.nullable),
    eval: (row) => {
      for (let i = 0; i < conditions.length; i++)
        if (conditions[i](row) === true) return results[i](row);
      return fallback(row);
    },
  };
}

function bindCall(e: Extract<Expression, { kind: 'call' }>, scope: Scope): BoundExpression {
  if (e.name === 'current_timestamp') return bindCurrentTimestamp(scope);
  if (e.name === 'current_date') return coerce(bindCurrentTimestamp(scope), DateType);
  // Own properties only: a call named 'constructor' must not find Object.prototype's.
  const named = Object.hasOwn(scope.functions, e.name) ? scope.functions[e.name] : undefined;
  const binder = e.binder ?? named;
  if (!binder) throw new AnalysisError(`Unknown function '${e.name}'.`);
  return binder(
    e.args.map((a) => bindExpression(a, scope)),
    e,
    scope,
  );
}

/**
 * The processing time of the running batch (recorded in its intent, so a re-run sees the same value);
 * `current_date()` is its (UTC) date.
 * While a plan is only analysed there is no batch yet, and the value is never read.
 */
function bindCurrentTimestamp(scope: Scope): BoundExpression {
  const clock = scope.clock;
  return {
    dataType: TimestampType,
    nullable: false,
    eval: clock ? () => clock.batchTimestampMicros : () => null,
    kernel: clock
      ? (input, active) => literalKernel(clock.batchTimestampMicros)(input, active)
      : literalKernel(null),
  };
}

function bindTumblingWindow(
  e: Extract<Expression, { kind: 'window' }>,
  scope: Scope,
): BoundExpression {
  if (!isTumbling(e)) {
    throw new AnalysisError(
      `A sliding window (slide ${e.slideMicros}µs, duration ${e.durationMicros}µs) gives several windows per row; use it in groupBy() or select() (one row per window), then refer to that column.`,
    );
  }
  const time = bindExpression(e.timeColumn, scope);
  if (time.dataType.kind !== 'timestamp') {
    throw new AnalysisError(`window() needs a timestamp column, got ${typeName(time.dataType)}.`);
  }
  const t = time.eval;
  return {
    dataType: windowStructType(time.metadata),
    nullable: true,
    metadata: time.metadata,
    eval: (row) => {
      const v = t(row) as number | null;
      if (v === null) return null;
      const start = lastWindowStart(v, e);
      return [start, start + e.durationMicros];
    },
    kernel: windowKernel(kernelOf(time), e),
  };
}
