/**
 * Project: evaluates the select list per row; with an `explode`, one output row per element.
 * A row whose evaluation signals DropRow (DROPMALFORMED) is skipped and counted.
 */
import { bindExpression } from '../expr/binder.js';
import type { Evaluator } from '../expr/bound-expression.js';
import { DropRow } from '../expr/drop-row.js';
import { generatorOf, type Project } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { BatchClock } from '../expr/scope.js';
import type { Row } from '../types/row.js';
import { count, type ExecutionContext } from './execution-context.js';
import type { PhysicalOperator } from './physical-operator.js';

/** Runs a Project node. */
export class ProjectExec implements PhysicalOperator {
  private readonly evals: Evaluator[];
  private readonly generator?: { index: number; eval: Evaluator; outer: boolean; isMap: boolean };

  constructor(
    node: Project,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    const scope = { ...planScope(node.input), clock };
    const explode = generatorOf(node);
    this.evals = node.exprs.map((e, i) => (i === node.generatorIndex ? () => null : bindExpression(e, scope).eval));
    if (explode && node.generatorIndex !== undefined) {
      const bound = bindExpression(explode.child, scope);
      this.generator = {
        index: node.generatorIndex,
        eval: bound.eval,
        outer: explode.outer,
        isMap: bound.dataType.kind === 'map',
      };
    }
  }

  execute(ctx: ExecutionContext): Row[] {
    const rows = this.input.execute(ctx);
    return this.generator ? this.generate(rows, ctx) : this.project(rows, ctx);
  }

  private project(rows: Row[], ctx: ExecutionContext): Row[] {
    const evals = this.evals;
    const n = evals.length;
    const out: Row[] = [];
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      try {
        const result = new Array<unknown>(n);
        for (let i = 0; i < n; i++) result[i] = evals[i](row);
        out.push(result);
      } catch (e) {
        if (!(e instanceof DropRow)) throw e;
        count(ctx, e.reason);
      }
    }
    return out;
  }

  private generate(rows: Row[], ctx: ExecutionContext): Row[] {
    const g = this.generator!;
    const out: Row[] = [];
    for (const row of rows) {
      try {
        const base = this.evals.map((e) => e(row));
        for (const element of this.elements(g.eval(row), g.isMap, g.outer)) {
          out.push([...base.slice(0, g.index), ...element, ...base.slice(g.index + 1)]);
        }
      } catch (e) {
        if (!(e instanceof DropRow)) throw e;
        count(ctx, e.reason);
      }
    }
    return out;
  }

  private elements(collection: unknown, isMap: boolean, outer: boolean): unknown[][] {
    const empty = outer ? [isMap ? [null, null] : [null]] : [];
    if (collection === null) return empty;
    const items = isMap
      ? [...(collection as Map<unknown, unknown>)].map(([k, v]) => [k, v])
      : (collection as unknown[]).map((v) => [v]);
    return items.length === 0 ? empty : items;
  }
}
