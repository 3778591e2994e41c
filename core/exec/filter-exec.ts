/**
 * Filter: keeps rows whose condition is true (false and null both drop the row, as in SQL). The
 * condition's kernel runs over each batch; the rows it keeps are gathered into a new batch, and a
 * batch whose rows all pass goes on as it is.
 */
import { gatherBatch } from '../columnar/column-gather.js';
import { readerOf } from '../columnar/column-reader.js';
import { bindExpression } from '../expr/binder.js';
import { kernelOf } from '../expr/kernels/generic-kernel.js';
import { type Kernel, KernelInput } from '../expr/kernels/kernel.js';
import { evaluateColumns } from '../expr/kernels/row-order-failure.js';
import type { Evaluator } from '../expr/bound-expression.js';
import type { BatchClock } from '../expr/scope.js';
import type { Filter } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import { countDrops } from './dropped-rows.js';
import type { ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';

/** Runs a Filter node. */
export class FilterExec implements PhysicalOperator {
  private readonly condition: Kernel;
  /** The condition row by row, to report a failure as it would (row-order-failure.ts). */
  private readonly evaluator: Evaluator;

  constructor(
    node: Filter,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    const bound = bindExpression(node.condition, { ...planScope(node.input), clock });
    this.condition = kernelOf(bound);
    this.evaluator = bound.eval;
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    this.input.produceBatches(ctx, (batch) => {
      const input = new KernelInput(batch);
      const [condition] = evaluateColumns(input, [this.condition], [this.evaluator]);
      const keep = readerOf(condition);
      countDrops(ctx, input);
      const n = batch.numRows;
      const kept = new Int32Array(n);
      let k = 0;
      for (let i = 0; i < n; i++) if (keep(i) === true && !input.isDropped(i)) kept[k++] = i;
      if (k === n) consume(batch);
      else if (k > 0) consume(gatherBatch(batch, kept.subarray(0, k)));
    });
  }
}
