/**
 * The generic kernel: an expression without a kernel of its own (a function call, CASE WHEN,
 * from_json) runs its row evaluator on each selected row of the batch's rows, which the batch
 * builds once for all such expressions of an operator. A row whose evaluation signals DropRow is
 * recorded as dropped in the input and never evaluated again.
 */
import { ValuesBuilder } from '../../columnar/column-builder.js';
import type { BoundExpression, Evaluator } from '../bound-expression.js';
import { DropRow } from '../drop-row.js';
import type { Kernel } from './kernel.js';

/** The kernel of `bound`: its own, or its row evaluator run over the batch's rows. */
export function kernelOf(bound: BoundExpression): Kernel {
  return bound.kernel ?? genericKernel(bound.eval);
}

/** Runs the row evaluator `evaluate` over the selected rows; results stay engine values. */
export function genericKernel(evaluate: Evaluator): Kernel {
  return (input, active) => {
    const n = input.batch.numRows;
    const rows = input.rows();
    const out = new ValuesBuilder();
    const live = input.live(active);
    for (let i = 0; i < n; i++) {
      if (live !== null && live[i] === 0) {
        out.appendNull();
        continue;
      }
      try {
        out.append(evaluate(rows[i]));
      } catch (e) {
        if (!(e instanceof DropRow)) throw e;
        input.drop(i, e.reason);
        out.appendNull();
      }
    }
    return out.finish();
  };
}
