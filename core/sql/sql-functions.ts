/**
 * Function calls in SQL: a name (case-insensitive, as in Spark) and its arguments to the
 * expression the DataFrame API builds for the same call, so `count(*)`, `window(ts, '10 minutes')`
 * or `from_json(value, 'a INT')` in SQL are the plans `count()`, `window(col('ts'), '10 minutes')`
 * and `from_json(col('value'), 'a INT')` are.
 *
 * Aggregates, `window`, `session_window`, `explode` and `from_json` are built here; every other name is a call of the
 * built-in function of that name, whose binder checks its arguments. An unknown name fails while
 * parsing, at its position, with the closest known name when there is one.
 */
import { Column } from '../api/column.js';
import type { FunctionLookup } from '../api/sql-front-end.js';
import { session_window, window } from '../api/functions.js';
import { WINDOW_FUNCTION_NAMES } from '../api/window-expression.js';
import { from_json } from '../api/json-functions.js';
import { toLiteral } from '../api/literal.js';
import { DEFAULT_ACCURACY } from '../expr/approximate-aggregates.js';
import { AnalysisError } from '../errors.js';
import type { AggregateFunctionName, Expression } from '../expr/expression.js';
import { closestName } from '../expr/closest-name.js';
import { builtinFunctions } from '../functions/builtin-functions.js';
import type { Token } from './sql-lexer.js';

/** A call as the parser read it. */
export interface SqlCall {
  /** The name as written. */
  readonly name: string;
  readonly args: readonly Expression[];
  /** `count(*)`. */
  readonly star: boolean;
  /** `count(DISTINCT x)`. */
  readonly distinct: boolean;
  /** The name's token, for error positions. */
  readonly token: Token;
}

/** Turns text arguments (a string, or an INTERVAL literal's text) into plain values. */
export type ConstantText = (e: Expression, what: string) => string;

type CallBuilder = (call: SqlCall, text: ConstantText) => Expression;

const AGGREGATES: Readonly<Record<string, AggregateFunctionName>> = {
  count: 'count',
  sum: 'sum',
  avg: 'avg',
  mean: 'avg',
  min: 'min',
  max: 'max',
  first: 'first',
  last: 'last',
  collect_list: 'collect_list',
  collect_set: 'collect_set',
  approx_count_distinct: 'approx_count_distinct',
  percentile_approx: 'percentile_approx',
  approx_percentile: 'percentile_approx',
  stddev: 'stddev',
  std: 'stddev',
  stddev_samp: 'stddev_samp',
  stddev_pop: 'stddev_pop',
  variance: 'variance',
  var_samp: 'var_samp',
  var_pop: 'var_pop',
};

/** Spark's other names for built-in scalar functions: the call is the function's. */
const ALIASES: Readonly<Record<string, string>> = {
  substr: 'substring',
  lcase: 'lower',
  ucase: 'upper',
  char_length: 'length',
  character_length: 'length',
  len: 'length',
  position: 'locate',
  regexp: 'rlike',
  regexp_like: 'rlike',
  power: 'pow',
  ceiling: 'ceil',
  day: 'dayofmonth',
  datepart: 'date_part',
};

/** Aggregates with constant parameters after the column: how many arguments each takes. */
const PARAMETER_ARITY: Partial<Record<AggregateFunctionName, readonly [number, number]>> = {
  approx_count_distinct: [1, 2],
  percentile_approx: [2, 3],
};

const SPECIAL: Readonly<Record<string, CallBuilder>> = {
  window: (call, text) => {
    arity(call, 2, 4);
    const [time, ...durations] = call.args;
    const [duration, slide, start] = durations.map((d, i) =>
      text(d, ['window duration', 'window slide', 'window startTime'][i]),
    );
    return window(new Column(time), duration, slide, start).expr;
  },
  session_window: (call, text) => {
    arity(call, 2, 2);
    const [time, gap] = call.args;
    // a constant gap is static; any other expression gives each row's gap (Spark's dynamic gap)
    const constant = gap.kind === 'literal' && typeof gap.value === 'string';
    const duration = constant ? text(gap, 'session_window gap') : new Column(gap);
    return session_window(new Column(time), duration).expr;
  },
  from_json: (call, text) => {
    arity(call, 2, 2);
    return from_json(new Column(call.args[0]), text(call.args[1], 'from_json schema')).expr;
  },
  explode: (call) => {
    arity(call, 1, 1);
    return { kind: 'explode', child: call.args[0], outer: false };
  },
  explode_outer: (call) => {
    arity(call, 1, 1);
    return { kind: 'explode', child: call.args[0], outer: true };
  },
  now: (call) => {
    arity(call, 0, 0);
    return { kind: 'call', name: 'current_timestamp', args: [] };
  },
  current_timestamp: (call) => {
    arity(call, 0, 0);
    return { kind: 'call', name: 'current_timestamp', args: [] };
  },
  current_date: (call) => {
    arity(call, 0, 0);
    return { kind: 'call', name: 'current_date', args: [] };
  },
};

/**
 * Built-ins the engine calls but SQL does not name: `get_field` is what `s.field` and
 * `Column.getField` build when the struct is computed.
 */
const INTERNAL: ReadonlySet<string> = new Set(['get_field']);

function isBuiltinCall(name: string): boolean {
  return Object.hasOwn(builtinFunctions, name) && !INTERNAL.has(name);
}

/**
 * Every function name SQL resolves (lower case): aggregates, the calls built here, the built-in
 * scalar functions, and the window functions OVER takes. The function reference
 * (docs/functions.md) is checked against it.
 */
export function sqlFunctionNames(): string[] {
  const names = [
    ...Object.keys(AGGREGATES),
    ...Object.keys(SPECIAL),
    ...Object.keys(builtinFunctions).filter(isBuiltinCall),
    ...Object.keys(ALIASES),
    ...WINDOW_FUNCTION_NAMES,
  ];
  return [...new Set(names)];
}

/**
 * The expression a SQL call stands for; an AnalysisError naming the call when there is none. A
 * user-defined function of the session shadows a built-in of the same name, as in Spark.
 */
export function sqlCallExpression(
  call: SqlCall,
  text: ConstantText,
  functions: FunctionLookup,
): Expression {
  const written = call.name.toLowerCase();
  const userCall = call.star || call.distinct ? undefined : functions.call(written, call.args);
  if (userCall) return userCall;
  const name = Object.hasOwn(ALIASES, written) ? ALIASES[written] : written;
  const aggregate = Object.hasOwn(AGGREGATES, name) ? AGGREGATES[name] : undefined;
  if (aggregate) return aggregateCall(aggregate, call);
  if ((WINDOW_FUNCTION_NAMES as readonly string[]).includes(name)) {
    fail(call, `${call.name}() is a window function`, 'Give it a window: OVER (ORDER BY ...).');
  }
  const special = Object.hasOwn(SPECIAL, name);
  if (!special && !isBuiltinCall(name)) {
    const suggestion = closestName(name, [...sqlFunctionNames(), ...functions.names()]);
    fail(call, `Unknown function '${call.name}'`, suggestion && `Did you mean \`${suggestion}\`?`);
  }
  if (call.star || call.distinct) {
    fail(call, `${call.name}(${call.star ? '*' : 'DISTINCT ...'}) is not an aggregate`);
  }
  return special ? SPECIAL[name](call, text) : { kind: 'call', name, args: call.args };
}

function aggregateCall(fn: AggregateFunctionName, call: SqlCall): Expression {
  if (call.star) {
    if (fn !== 'count')
      fail(call, `${call.name}(*) is not a function`, 'Only count(*) takes a star.');
    return { kind: 'aggregate', fn, args: [], distinct: false };
  }
  if (fn === 'first' || fn === 'last') {
    arity(call, 1, 2);
    const [value, ignoreNulls] = call.args;
    if (ignoreNulls && (ignoreNulls.kind !== 'literal' || typeof ignoreNulls.value !== 'boolean')) {
      fail(call, `${call.name}()'s second argument (ignoreNulls) is not true or false`);
    }
    const ignore = ignoreNulls?.kind === 'literal' && ignoreNulls.value === true;
    return {
      kind: 'aggregate',
      fn,
      args: [value],
      distinct: call.distinct,
      ...(ignore ? { ignoreNulls: true } : {}),
    };
  }
  if (fn !== 'count') arity(call, ...(PARAMETER_ARITY[fn] ?? [1, 1]));
  else if (call.args.length === 0)
    fail(call, 'count() has no argument', 'Write count(*) or count(column).');
  // Spark names percentile_approx with its accuracy even when the default is taken
  const args =
    fn === 'percentile_approx' && call.args.length === 2
      ? [...call.args, toLiteral(DEFAULT_ACCURACY)]
      : call.args;
  return { kind: 'aggregate', fn, args, distinct: call.distinct };
}

function arity(call: SqlCall, min: number, max: number): void {
  if (call.args.length >= min && call.args.length <= max) return;
  const expected = min === max ? `${min}` : `${min} to ${max}`;
  fail(call, `${call.name}() takes ${expected} argument(s), got ${call.args.length}`);
}

/** An AnalysisError at the call's name: the problem, where, and the remedy when there is one. */
function fail(call: SqlCall, problem: string, remedy?: string): never {
  const { line, column } = call.token;
  const where = `${problem} at line ${line}, column ${column}.`;
  throw new AnalysisError(remedy ? `${where} ${remedy}` : where);
}
