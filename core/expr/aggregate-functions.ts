/**
 * Aggregate functions as accumulators: `init`, `update` per input value, `merge` of two partial
 * accumulators (a session window merges the sessions a row bridges), `result` at output.
 * Accumulators are plain values (numbers, arrays, Sets), so the streaming aggregation can keep them in
 * the state store between micro-batches and continue exactly where the previous batch stopped.
 */
import { AnalysisError } from '../errors.js';
import {
  ArrayOf,
  type DataType,
  DoubleType,
  isNumeric,
  LongType,
  typeName,
} from '../types/data-types.js';
import type { BoundExpression, Evaluator } from './bound-expression.js';
import type { AggregateCall, AggregateFunctionName } from './expression.js';
import { expressionName } from './expression-name.js';
import { comparatorFor } from './ordering.js';
import { bindExpression } from './binder.js';
import type { Scope } from './scope.js';
import { encodeKey } from './group-key.js';
import { genericKernel, kernelOf } from './kernels/generic-kernel.js';
import type { Kernel } from './kernels/kernel.js';
import {
  addMoment,
  type CentralMoments,
  emptyMoments,
  mergeMoments,
  type MomentStatistic,
  momentStatistic,
} from './central-moments.js';
import { bindParameterized, PARAMETERIZED } from './approximate-aggregates.js';

/** A bound aggregate: how to read its input per row and how to accumulate it. */
export interface BoundAggregate {
  readonly name: string;
  readonly fn: AggregateFunctionName;
  readonly distinct: boolean;
  readonly dataType: DataType;
  readonly nullable: boolean;
  /** The value the accumulator receives for one row. */
  readonly input: Evaluator;
  /** `input` over a column batch; absent for count(*), which reads no column. */
  readonly inputKernel?: Kernel;
  /** The type of `input`'s values (for count of several columns, a struct of them). */
  readonly inputType?: DataType;
  init(): unknown;
  /** Folds one row's input into the accumulator; returns the new accumulator (which may be the same object). */
  update(acc: unknown, value: unknown): unknown;
  /**
   * Merges two accumulators of disjoint rows into one, as if `later`'s rows had been folded after
   * `earlier`'s; returns the merged accumulator (which may be `earlier`, never `later`).
   */
  merge(earlier: unknown, later: unknown): unknown;
  result(acc: unknown): unknown;
}

/** Binds an aggregate call against the aggregation's input scope. */
export function bindAggregate(call: AggregateCall, scope: Scope): BoundAggregate {
  // An aggregate with parameters (rsd, percentage, accuracy) reads only its first argument per row.
  const parameterized = PARAMETERIZED.has(call.fn);
  const args = (parameterized ? call.args.slice(0, 1) : call.args).map((a) =>
    bindExpression(a, scope),
  );
  const aggregate = parameterized ? bindParameterized(call, args[0]) : bindAggregateOf(call, args);
  if (args.length === 0) return { ...aggregate, fn: call.fn, distinct: call.distinct };
  return {
    ...aggregate,
    fn: call.fn,
    distinct: call.distinct,
    inputKernel: args.length === 1 ? kernelOf(args[0]) : genericKernel(aggregate.input),
    inputType: args.length === 1 ? args[0].dataType : undefined,
  };
}

/** What each aggregate function adds to its bound arguments. */
export type AggregateRule = Omit<BoundAggregate, 'fn' | 'distinct' | 'inputKernel' | 'inputType'>;

function bindAggregateOf(call: AggregateCall, args: BoundExpression[]): AggregateRule {
  const name = expressionName(call);
  if (call.fn === 'count') return bindCount(name, args, call.distinct);
  if (call.distinct) {
    throw new AnalysisError(`DISTINCT is only supported with count(); got ${name}.`);
  }
  if (args.length !== 1)
    throw new AnalysisError(`${call.fn}() takes exactly one column; got ${name}.`);
  const arg = args[0];
  switch (call.fn) {
    case 'sum':
      return bindSum(name, arg);
    case 'avg':
      return bindAvg(name, arg);
    case 'min':
    case 'max':
      return bindExtreme(name, arg, call.fn);
    case 'first':
    case 'last':
      return bindFirstLast(name, arg, call.fn, call.ignoreNulls ?? false);
    case 'collect_list':
      return bindCollectList(name, arg);
    case 'collect_set':
      return bindCollectSet(name, arg);
    case 'stddev':
    case 'stddev_samp':
      return bindMoments(name, arg, 'stddev_samp');
    case 'variance':
    case 'var_samp':
      return bindMoments(name, arg, 'var_samp');
    case 'stddev_pop':
    case 'var_pop':
      return bindMoments(name, arg, call.fn);
  }
  throw new AnalysisError(`${name} is not an aggregate function.`);
}

function bindCount(name: string, args: BoundExpression[], distinct: boolean): AggregateRule {
  const base = {
    name,
    dataType: LongType,
    nullable: false,
    result: (acc: unknown) => acc,
    merge: (a: unknown, b: unknown) => (a as number) + (b as number),
  };
  if (args.length === 0) {
    return { ...base, input: () => 1, init: () => 0, update: (acc) => (acc as number) + 1 };
  }
  const evals = args.map((a) => a.eval);
  const anyNull = (row: unknown[]) => evals.some((e) => e(row) === null);
  const input: Evaluator =
    args.length === 1 ? evals[0] : (row) => (anyNull(row) ? null : evals.map((e) => e(row)));
  if (!distinct) {
    return {
      ...base,
      input,
      init: () => 0,
      update: (acc, v) => (v === null ? acc : (acc as number) + 1),
    };
  }
  return {
    ...base,
    input,
    init: () => new Set<string>(),
    update: (acc, v) => (v === null ? acc : (acc as Set<string>).add(encodeKey([v]))),
    merge: (a, b) => {
      for (const key of b as Set<string>) (a as Set<string>).add(key);
      return a;
    },
    result: (acc) => (acc as Set<string>).size,
  };
}

/** Checks that an aggregate's input is numeric (or untyped null), as Spark's implicit casts need. */
function requireNumeric(name: string, arg: BoundExpression): void {
  if (!isNumeric(arg.dataType) && arg.dataType.kind !== 'null') {
    throw new AnalysisError(
      `${name} needs a numeric column, got ${typeName(arg.dataType)}; cast it first.`,
    );
  }
}

function bindSum(name: string, arg: BoundExpression): AggregateRule {
  requireNumeric(name, arg);
  const dataType = arg.dataType.kind === 'double' ? DoubleType : LongType;
  return {
    name,
    dataType,
    nullable: true,
    input: arg.eval,
    init: () => null,
    update: (acc, v) => {
      if (v === null) return acc;
      const total = acc === null ? (v as number) : (acc as number) + (v as number);
      if (dataType === LongType && !Number.isSafeInteger(total)) throw sumOverflow(name);
      return total;
    },
    merge: (a, b) => {
      if (a === null || b === null) return a ?? b;
      const total = (a as number) + (b as number);
      if (dataType === LongType && !Number.isSafeInteger(total)) throw sumOverflow(name);
      return total;
    },
    result: (acc) => acc,
  };
}

/** The error of a long sum that left the safe integer range. */
export function sumOverflow(name: string): AnalysisError {
  return new AnalysisError(`${name} overflowed the long range; cast the column to double.`);
}

function bindAvg(name: string, arg: BoundExpression): AggregateRule {
  requireNumeric(name, arg);
  return {
    name,
    dataType: DoubleType,
    nullable: true,
    input: arg.eval,
    init: () => [0, 0],
    update: (acc, v) => {
      if (v === null) return acc;
      const a = acc as [number, number];
      a[0] += v as number;
      a[1] += 1;
      return a;
    },
    merge: (a, b) => {
      const [x, y] = [a as [number, number], b as [number, number]];
      x[0] += y[0];
      x[1] += y[1];
      return x;
    },
    result: (acc) => {
      const [total, n] = acc as [number, number];
      return n === 0 ? null : total / n;
    },
  };
}

function bindExtreme(name: string, arg: BoundExpression, fn: 'min' | 'max'): AggregateRule {
  const compare = comparatorFor(arg.dataType);
  const better = fn === 'min' ? (c: number) => c < 0 : (c: number) => c > 0;
  return {
    name,
    dataType: arg.dataType,
    nullable: true,
    input: arg.eval,
    init: () => null,
    update: (acc, v) => (v === null || (acc !== null && !better(compare(v, acc))) ? acc : v),
    merge: (a, b) => (b === null || (a !== null && !better(compare(b, a))) ? a : b),
    result: (acc) => acc,
  };
}

function bindFirstLast(
  name: string,
  arg: BoundExpression,
  fn: 'first' | 'last',
  ignoreNulls: boolean,
): AggregateRule {
  // The accumulator is [value, seen]: `seen` tells a first value of null from no value yet.
  return {
    name,
    dataType: arg.dataType,
    nullable: true,
    input: arg.eval,
    init: () => [null, false],
    update: (acc, v) => {
      const a = acc as [unknown, boolean];
      if (ignoreNulls && v === null) return a;
      if (fn === 'first' && a[1]) return a;
      a[0] = v;
      a[1] = true;
      return a;
    },
    // `seen` is set only by a value the function keeps, so the side that saw one decides.
    merge: (a, b) => {
      const [x, y] = [a as [unknown, boolean], b as [unknown, boolean]];
      return (fn === 'first' ? x[1] || !y[1] : !y[1]) ? x : [y[0], y[1]];
    },
    result: (acc) => (acc as [unknown, boolean])[0],
  };
}

function bindCollectList(name: string, arg: BoundExpression): AggregateRule {
  return {
    name,
    dataType: ArrayOf(arg.dataType, false),
    nullable: false,
    input: arg.eval,
    init: () => [],
    update: (acc, v) => {
      if (v !== null) (acc as unknown[]).push(v);
      return acc;
    },
    merge: (a, b) => {
      (a as unknown[]).push(...(b as unknown[]));
      return a;
    },
    result: (acc) => acc,
  };
}

/**
 * collect_set: the distinct non-null values, in first-seen order (Spark leaves the order
 * unspecified). The accumulator maps each value's key to the value, so equal values of different
 * identity (structs, arrays) count once.
 */
function bindCollectSet(name: string, arg: BoundExpression): AggregateRule {
  if (arg.dataType.kind === 'map') {
    throw new AnalysisError(
      `${name} cannot collect map values (Spark refuses them: maps have no equality); collect a key or a struct instead.`,
    );
  }
  return {
    name,
    dataType: ArrayOf(arg.dataType, false),
    nullable: false,
    input: arg.eval,
    init: () => new Map<string, unknown>(),
    update: (acc, v) => {
      if (v === null) return acc;
      const key = encodeKey([v]);
      const set = acc as Map<string, unknown>;
      if (!set.has(key)) set.set(key, v);
      return set;
    },
    merge: (a, b) => {
      const set = a as Map<string, unknown>;
      for (const [key, v] of b as Map<string, unknown>) if (!set.has(key)) set.set(key, v);
      return set;
    },
    result: (acc) => [...(acc as Map<string, unknown>).values()],
  };
}

/** The variance family: (n, mean, M2) moments of the values as doubles, read at output. */
function bindMoments(
  name: string,
  arg: BoundExpression,
  statistic: MomentStatistic,
): AggregateRule {
  requireNumeric(name, arg);
  return {
    name,
    dataType: DoubleType,
    nullable: true,
    input: arg.eval,
    init: emptyMoments,
    update: (acc, v) => (v === null ? acc : addMoment(acc as CentralMoments, v as number)),
    merge: (a, b) => mergeMoments(a as CentralMoments, b as CentralMoments),
    result: (acc) => momentStatistic(acc as CentralMoments, statistic),
  };
}
