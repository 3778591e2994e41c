/**
 * Join: hash join on the equality keys of the condition, with the rest of the condition as a residual
 * filter; inner, left, right, full outer, left semi and left anti.
 *
 * The right input is the build side: its rows are hashed by encoded key, then each left row probes the
 * table, so output follows the left input's order (unmatched right rows of right and full joins come
 * last). Building on the right also suits stream-static joins, whose static side is usually the right.
 * A key containing a null never matches (SQL `=`), except in a `<=>` key. A join without a condition has
 * no keys: every pair matches, which is a cross join for inner joins and Spark's condition-less outer,
 * semi and anti joins for the others.
 */
import type { Evaluator } from '../expr/bound-expression.js';
import type { BatchClock } from '../expr/scope.js';
import { encodeKey } from '../expr/group-key.js';
import type { Join } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import {
  conditionKeys,
  type JoinKeys,
  usingColumnPositions,
  type UsingColumnPositions,
  usingKeys,
} from './join-keys.js';
import {
  collectRows,
  type PhysicalOperator,
  produceRows,
  type RowConsumer,
} from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** Builds an output row from a left and a right row; the missing side of an outer join is null. */
export type RowCombiner = (left: Row | null, right: Row | null) => Row;

/** Runs a Join node. */
export class JoinExec implements RowOperator {
  private readonly keys: JoinKeys;
  private readonly combine: RowCombiner;
  private readonly joinType: Join['joinType'];

  constructor(
    node: Join,
    private readonly left: PhysicalOperator,
    private readonly right: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.joinType = node.joinType;
    ({ keys: this.keys, combine: this.combine } = joinKeysAndCombiner(node, clock));
  }

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const rightRows = collectRows(this.right, ctx);
    const table = this.build(rightRows);
    const rightMatched = new Uint8Array(rightRows.length);
    produceRows(this.left, ctx, (l) => {
      const matches = this.probe(l, table, rightRows);
      this.emitLeft(l, matches, rightRows, consume);
      for (const i of matches) rightMatched[i] = 1;
    });
    if (this.joinType === 'right' || this.joinType === 'full') {
      rightRows.forEach((r, i) => {
        if (!rightMatched[i]) consume(this.combine(null, r));
      });
    }
  }

  /** Right row positions by encoded key; rows whose key cannot match anything are left out. */
  private build(rows: readonly Row[]): Map<string, number[]> {
    const table = new Map<string, number[]>();
    rows.forEach((row, i) => {
      const key = hashKey(row, this.keys.right, this.keys.nullSafe);
      if (key === undefined) return;
      const bucket = table.get(key);
      if (bucket) bucket.push(i);
      else table.set(key, [i]);
    });
    return table;
  }

  /** Positions of the right rows that match `l` on the keys and the residual condition. */
  private probe(l: Row, table: Map<string, number[]>, rightRows: readonly Row[]): number[] {
    const key = hashKey(l, this.keys.left, this.keys.nullSafe);
    const candidates = key === undefined ? undefined : table.get(key);
    if (!candidates) return [];
    const residual = this.keys.residual;
    if (!residual) return candidates;
    return candidates.filter((i) => residual([...l, ...rightRows[i]]) === true);
  }

  /** The output rows a left row produces, given its matches. */
  private emitLeft(
    l: Row,
    matches: readonly number[],
    rightRows: readonly Row[],
    consume: RowConsumer,
  ): void {
    switch (this.joinType) {
      case 'left_semi':
        if (matches.length > 0) consume(l);
        return;
      case 'left_anti':
        if (matches.length === 0) consume(l);
        return;
      default:
        for (const i of matches) consume(this.combine(l, rightRows[i]));
        if (matches.length === 0 && (this.joinType === 'left' || this.joinType === 'full')) {
          consume(this.combine(l, null));
        }
    }
  }
}

/**
 * The keys a join looks rows up by and how it builds its output rows: from the condition, or from
 * the `usingColumns` (each kept once).
 */
export function joinKeysAndCombiner(
  node: Join,
  clock: BatchClock,
): { keys: JoinKeys; combine: RowCombiner } {
  const leftNulls = node.left.schema.fields.map(() => null);
  const rightNulls = node.right.schema.fields.map(() => null);
  const concat: RowCombiner = (l, r) => [...(l ?? leftNulls), ...(r ?? rightNulls)];
  if (!node.usingColumns) return { keys: conditionKeys(node, clock), combine: concat };
  const positions = usingColumnPositions(node, node.usingColumns);
  return { keys: usingKeys(positions), combine: usingCombiner(positions, node, concat) };
}

/** The encoded key of a row, or undefined when a null in a non-null-safe key rules out every match. */
export function hashKey(
  row: Row,
  keys: readonly Evaluator[],
  nullSafe: readonly boolean[],
): string | undefined {
  const values = new Array<unknown>(keys.length);
  for (let k = 0; k < keys.length; k++) {
    values[k] = keys[k](row);
    if (values[k] === null && !nullSafe[k]) return undefined;
  }
  return encodeKey(values);
}

/**
 * Output rows of a `usingColumns` join: each key once, then the other left columns, then the other
 * right columns. The key comes from the right row in a right join and from the left row otherwise,
 * falling back to the present side (Spark's coalesce for full joins).
 */
function usingCombiner(
  positions: UsingColumnPositions,
  node: Join,
  concat: RowCombiner,
): RowCombiner {
  const width = node.left.schema.fields.length;
  const keySet = new Set([...positions.left, ...positions.right.map((i) => i + width)]);
  const all = [...Array(width + node.right.schema.fields.length).keys()];
  const others = all.filter((i) => !keySet.has(i));
  const preferRight = node.joinType === 'right';
  return (l, r) => {
    const both = concat(l, r);
    const keys = positions.left.map((li, k) => {
      const fromRight = preferRight ? r !== null : l === null;
      return both[fromRight ? positions.right[k] + width : li];
    });
    return [...keys, ...others.map((i) => both[i])];
  };
}
