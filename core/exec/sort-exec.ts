/**
 * Sort: a stable sort by the order keys, with explicit null placement per key.
 */
import { bindExpression } from '../expr/binder.js';
import { comparatorFor } from '../expr/ordering.js';
import type { Sort } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { BatchClock } from '../expr/scope.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import { collectRows, type PhysicalOperator, type RowConsumer } from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** Runs a Sort node. */
export class SortExec implements RowOperator {
  private readonly compare: (a: Row, b: Row) => number;

  constructor(
    node: Sort,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    const scope = { ...planScope(node.input), clock };
    const keys = node.orders.map((o) => {
      const bound = bindExpression(o.expr, scope);
      return {
        eval: bound.eval,
        compare: comparatorFor(bound.dataType),
        sign: o.ascending ? 1 : -1,
        nullsFirst: o.nullsFirst,
      };
    });
    this.compare = (a, b) => {
      for (const k of keys) {
        const x = k.eval(a);
        const y = k.eval(b);
        if (x === null || y === null) {
          if (x === y) continue;
          return (x === null) === k.nullsFirst ? -1 : 1;
        }
        const c = k.compare(x, y);
        if (c !== 0) return c * k.sign;
      }
      return 0;
    };
  }

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    for (const row of collectRows(this.input, ctx).sort(this.compare)) consume(row);
  }
}
