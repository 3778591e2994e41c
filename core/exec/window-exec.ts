/**
 * Window: computes window expressions over a table. For each expression, rows are grouped by its
 * partition keys and each partition is sorted by its order (a stable sort: ties keep input order);
 * the expression's values are then written beside the rows. Output rows keep the input's order,
 * each followed by its window columns. Needs all of its input, so it only runs on tables (streams
 * refuse it when they start).
 */
import {
  bindWindowExpression,
  type BoundWindowExpression,
} from '../expr/window-function-binder.js';
import { encodeKey } from '../expr/group-key.js';
import type { BatchClock } from '../expr/scope.js';
import type { Window } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import { collectRows, type PhysicalOperator, type RowConsumer } from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** Runs a Window node. */
export class WindowExec implements RowOperator {
  private readonly expressions: readonly BoundWindowExpression[];

  constructor(
    node: Window,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    const scope = { ...planScope(node.input), clock };
    this.expressions = node.windowExprs.map((e) => bindWindowExpression(e, scope));
  }

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const rows = collectRows(this.input, ctx);
    const columns = this.expressions.map((e) => windowColumn(e, rows));
    for (let i = 0; i < rows.length; i++) consume([...rows[i], ...columns.map((c) => c[i])]);
  }
}

/** The values of one window expression, in the order of `rows`. */
function windowColumn(e: BoundWindowExpression, rows: readonly Row[]): unknown[] {
  const partitions = new Map<string, number[]>();
  for (let i = 0; i < rows.length; i++) {
    const key = encodeKey(e.partitionKeys.map((k) => k(rows[i])));
    const members = partitions.get(key);
    if (members) members.push(i);
    else partitions.set(key, [i]);
  }
  const out = new Array<unknown>(rows.length);
  for (const members of partitions.values()) {
    members.sort((a, b) => e.compare(rows[a], rows[b]) || a - b);
    const values = e.evaluate(members.map((i) => rows[i]));
    members.forEach((rowIndex, k) => (out[rowIndex] = values[k]));
  }
  return out;
}
