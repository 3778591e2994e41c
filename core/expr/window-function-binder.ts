/**
 * Binding a window expression (`fn OVER (PARTITION BY ... ORDER BY ... frame)`): its partition
 * keys, its row order, its output type, and how it computes one value per row of a sorted
 * partition. The window operator (core/exec/window-exec.ts) groups and sorts; this decides values.
 *
 * Semantics are Spark's:
 * - row_number, rank, dense_rank, ntile, lag and lead need an ORDER BY and ignore the frame; rank
 *   leaves gaps after peers (equal order values), dense_rank does not; ntile(n) splits the partition
 *   into n groups as equal as possible, the first ones one row larger. `lag(x, k, default)` is x of
 *   the row k rows before (lead: after), `default` (null unless given) past the partition's edge.
 * - first_value, last_value and the aggregates (count, sum, avg, min, max, first, last,
 *   collect_list) read the rows of each row's frame; the default frame is RANGE BETWEEN UNBOUNDED
 *   PRECEDING AND CURRENT ROW with an ORDER BY (a running total, peers included), the whole
 *   partition without one. An empty frame gives the aggregate of no rows (count 0, sum null).
 */
import { AnalysisError } from '../errors.js';
import { type DataType, IntegerType, typeName } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { type BoundAggregate, bindAggregate } from './aggregate-functions.js';
import { coerce } from './binary-operators.js';
import { bindExpression } from './binder.js';
import type { Evaluator } from './bound-expression.js';
import { commonType } from './common-type.js';
import type { WindowExpression, WindowFrame, WindowFunctionCall } from './expression.js';
import { expressionName } from './expression-name.js';
import { comparatorFor } from './ordering.js';
import type { Scope } from './scope.js';
import { frameBounds, type SortedPartition } from './window-frame.js';

/** A window expression bound to its input: what the operator needs to compute it. */
export interface BoundWindowExpression {
  readonly dataType: DataType;
  readonly nullable: boolean;
  readonly partitionKeys: readonly Evaluator[];
  /** Orders the rows of a partition (a total order: ties compare 0). */
  readonly compare: (a: Row, b: Row) => number;
  /** One value per row of a partition sorted by `compare`. */
  evaluate(sorted: readonly Row[]): unknown[];
}

const WHOLE_PARTITION: WindowFrame = { type: 'rows', start: -Infinity, end: Infinity };
const RUNNING: WindowFrame = { type: 'range', start: -Infinity, end: 0 };

/** Binds `e` against the scope of the window operator's input. */
export function bindWindowExpression(e: WindowExpression, scope: Scope): BoundWindowExpression {
  const name = expressionName(e);
  const orders = e.spec.orderBy.map((o) => {
    const bound = bindExpression(o.expr, scope);
    return { ...o, bound, compare: comparatorFor(bound.dataType) };
  });
  const compare = (a: Row, b: Row): number => {
    for (const o of orders) {
      const x = o.bound.eval(a);
      const y = o.bound.eval(b);
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === o.nullsFirst ? -1 : 1;
      }
      const c = o.compare(x, y);
      if (c !== 0) return o.ascending ? c : -c;
    }
    return 0;
  };
  const frame = e.spec.frame ?? (orders.length > 0 ? RUNNING : WHOLE_PARTITION);
  checkFrame(
    name,
    frame,
    orders.map((o) => o.bound.dataType),
  );
  const rangeValue =
    frame.type === 'range' && orders.length === 1
      ? (row: Row) => {
          const v = orders[0].bound.eval(row) as number | null;
          return v === null ? null : orders[0].ascending ? v : -v;
        }
      : undefined;
  const partition = (sorted: readonly Row[]): SortedPartition => ({
    size: sorted.length,
    peers: (a, b) => compare(sorted[a], sorted[b]) === 0,
    ...(rangeValue ? { rangeValue: (i: number) => rangeValue(sorted[i]) } : {}),
  });
  const fn = e.fn;
  const computed =
    fn.kind === 'aggregate'
      ? aggregateOverFrames(name, bindAggregateForWindow(name, fn, scope), frame, partition)
      : bindWindowCall(name, fn, scope, orders.length > 0, frame, partition);
  return {
    ...computed,
    partitionKeys: e.spec.partitionBy.map((p) => bindExpression(p, scope).eval),
    compare,
  };
}

type Computed = Pick<BoundWindowExpression, 'dataType' | 'nullable' | 'evaluate'>;
type PartitionOf = (sorted: readonly Row[]) => SortedPartition;

function checkFrame(name: string, frame: WindowFrame, orderTypes: readonly DataType[]): void {
  if (frame.start > frame.end || frame.start === Infinity || frame.end === -Infinity) {
    throw new AnalysisError(
      `${name}: the frame's lower bound must not come after its upper bound (UNBOUNDED PRECEDING <= n PRECEDING <= CURRENT ROW <= n FOLLOWING <= UNBOUNDED FOLLOWING).`,
    );
  }
  const offsets = [frame.start, frame.end].filter((b) => b !== 0 && Number.isFinite(b));
  if (frame.type === 'rows' && offsets.some((b) => !Number.isInteger(b))) {
    throw new AnalysisError(`${name}: a ROWS frame counts rows, so its offsets must be integers.`);
  }
  if (frame.type === 'range' && offsets.length > 0) {
    const numeric = ['int', 'long', 'double', 'date'];
    if (orderTypes.length !== 1 || !numeric.includes(orderTypes[0].kind)) {
      throw new AnalysisError(
        `${name}: a RANGE frame with offsets needs exactly one ORDER BY key of a numeric or date type, got [${orderTypes.map(typeName).join(', ')}]; use a ROWS frame, or order by one number.`,
      );
    }
  }
}

function bindAggregateForWindow(
  name: string,
  fn: Extract<WindowExpression['fn'], { kind: 'aggregate' }>,
  scope: Scope,
): BoundAggregate {
  if (fn.distinct) {
    throw new AnalysisError(
      `${name}: DISTINCT aggregates are not supported over windows, as in Spark; aggregate with groupBy() and join the result back.`,
    );
  }
  return bindAggregate(fn, scope);
}

/** An aggregate over each row's frame: a running fold when frames all start at the partition's start. */
function aggregateOverFrames(
  name: string,
  aggregate: BoundAggregate,
  frame: WindowFrame,
  partitionOf: PartitionOf,
): Computed {
  const snapshot = (v: unknown) => (Array.isArray(v) ? v.slice() : v);
  return {
    dataType: aggregate.dataType,
    nullable: true,
    evaluate: (sorted) => {
      const { first, last } = frameBounds(frame, partitionOf(sorted));
      const out = new Array<unknown>(sorted.length);
      if (frame.start === -Infinity) {
        let acc = aggregate.init();
        let next = 0;
        for (let i = 0; i < sorted.length; i++) {
          for (; next <= last[i]; next++)
            acc = aggregate.update(acc, aggregate.input(sorted[next]));
          out[i] = snapshot(aggregate.result(acc));
        }
        return out;
      }
      for (let i = 0; i < sorted.length; i++) {
        let acc = aggregate.init();
        for (let j = first[i]; j <= last[i]; j++)
          acc = aggregate.update(acc, aggregate.input(sorted[j]));
        out[i] = aggregate.result(acc);
      }
      return out;
    },
  };
}

function bindWindowCall(
  name: string,
  fn: WindowFunctionCall,
  scope: Scope,
  ordered: boolean,
  frame: WindowFrame,
  partitionOf: PartitionOf,
): Computed {
  if (fn.name === 'first_value' || fn.name === 'last_value') {
    return valueOverFrames(fn, scope, frame, partitionOf);
  }
  if (!ordered) {
    throw new AnalysisError(
      `Window function ${name} requires the window to be ordered; add orderBy(...) to the window (ORDER BY in SQL).`,
    );
  }
  switch (fn.name) {
    case 'row_number':
      return ranking(name, fn, (sorted) => sorted.map((_, i) => i + 1));
    case 'rank':
    case 'dense_rank': {
      const dense = fn.name === 'dense_rank';
      return ranking(name, fn, (sorted) => ranks(partitionOf(sorted), dense));
    }
    case 'ntile':
      return bindNtile(name, fn);
    case 'lag':
    case 'lead':
      return bindOffset(name, fn, scope);
  }
}

function ranking(
  name: string,
  fn: WindowFunctionCall,
  evaluate: (sorted: readonly Row[]) => unknown[],
): Computed {
  if (fn.args.length > 0) throw new AnalysisError(`${name}: ${fn.name}() takes no argument.`);
  return { dataType: IntegerType, nullable: false, evaluate };
}

function ranks(partition: SortedPartition, dense: boolean): number[] {
  const out = new Array<number>(partition.size);
  let rank = 0;
  for (let i = 0; i < partition.size; i++) {
    const tied = i > 0 && partition.peers(i - 1, i);
    if (!tied) rank = dense ? rank + 1 : i + 1;
    out[i] = rank;
  }
  return out;
}

function bindNtile(name: string, fn: WindowFunctionCall): Computed {
  const [buckets] = fn.args;
  const n = buckets?.kind === 'literal' ? buckets.value : undefined;
  if (fn.args.length !== 1 || typeof n !== 'number' || !Number.isInteger(n) || n <= 0) {
    throw new AnalysisError(
      `${name}: ntile() needs one constant positive integer, the number of buckets.`,
    );
  }
  return {
    dataType: IntegerType,
    nullable: false,
    evaluate: (sorted) => {
      const size = Math.floor(sorted.length / n);
      const larger = sorted.length % n; // the first `larger` buckets hold one row more
      return sorted.map((_, i) => {
        const inLarger = i < larger * (size + 1);
        return inLarger
          ? Math.floor(i / (size + 1)) + 1
          : larger + Math.floor((i - larger * (size + 1)) / size) + 1;
      });
    },
  };
}

function bindOffset(name: string, fn: WindowFunctionCall, scope: Scope): Computed {
  const [input, offsetArg, defaultArg] = fn.args;
  if (!input || fn.args.length > 3) {
    throw new AnalysisError(
      `${name}: ${fn.name}() takes a column, an optional offset and an optional default.`,
    );
  }
  const offset =
    offsetArg === undefined ? 1 : offsetArg.kind === 'literal' ? offsetArg.value : undefined;
  if (typeof offset !== 'number' || !Number.isInteger(offset)) {
    throw new AnalysisError(`${name}: ${fn.name}()'s offset must be a constant integer.`);
  }
  const value = bindExpression(input, scope);
  const fallback = defaultArg ? bindExpression(defaultArg, scope) : undefined;
  const dataType = fallback
    ? commonType([value.dataType, fallback.dataType], `${fn.name}()`)
    : value.dataType;
  const read = coerce(value, dataType).eval;
  const otherwise = fallback ? coerce(fallback, dataType).eval : () => null;
  const step = fn.name === 'lag' ? -offset : offset;
  return {
    dataType,
    nullable: true,
    evaluate: (sorted) =>
      sorted.map((row, i) => {
        const j = i + step;
        return j >= 0 && j < sorted.length ? read(sorted[j]) : otherwise(row);
      }),
  };
}

function valueOverFrames(
  fn: WindowFunctionCall,
  scope: Scope,
  frame: WindowFrame,
  partitionOf: PartitionOf,
): Computed {
  const [input, ignoreArg] = fn.args;
  if (!input || fn.args.length > 2) {
    throw new AnalysisError(`${fn.name}() takes a column and an optional ignoreNulls.`);
  }
  const ignoreNulls =
    fn.ignoreNulls === true || (ignoreArg?.kind === 'literal' && ignoreArg.value === true);
  const value = bindExpression(input, scope);
  const fromEnd = fn.name === 'last_value';
  return {
    dataType: value.dataType,
    nullable: true,
    evaluate: (sorted) => {
      const { first, last } = frameBounds(frame, partitionOf(sorted));
      return sorted.map((_, i) => {
        for (let k = 0; k <= last[i] - first[i]; k++) {
          const v = value.eval(sorted[fromEnd ? last[i] - k : first[i] + k]);
          if (v !== null || !ignoreNulls) return v;
        }
        return null;
      });
    },
  };
}
