/**
 * Filter: keeps rows whose condition is true (false and null both drop the row, as in SQL).
 */
import { bindExpression } from '../expr/binder.js';
import type { Evaluator } from '../expr/bound-expression.js';
import { DropRow } from '../expr/drop-row.js';
import type { Filter } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { BatchClock } from '../expr/scope.js';
import { count, type ExecutionContext } from './execution-context.js';
import type { PhysicalOperator, RowConsumer } from './physical-operator.js';

/** Runs a Filter node. */
export class FilterExec implements PhysicalOperator {
  private readonly condition: Evaluator;

  constructor(
    node: Filter,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.condition = bindExpression(node.condition, { ...planScope(node.input), clock }).eval;
  }

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const condition = this.condition;
    this.input.produce(ctx, (row) => {
      let keep: unknown;
      try {
        keep = condition(row);
      } catch (e) {
        if (!(e instanceof DropRow)) throw e;
        count(ctx, e.reason);
        return;
      }
      if (keep === true) consume(row);
    });
  }
}
