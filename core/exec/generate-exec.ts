/**
 * Generate: a select with a generator, one output row per element of an `explode`, or per window
 * of a sliding `window()` (earliest first). A row operator (behind the row adapter): the number of
 * output rows per input row varies. A row whose evaluation signals DropRow (DROPMALFORMED) is
 * skipped and counted.
 */
import { ExecutionError } from '../errors.js';
import { bindExpression } from '../expr/binder.js';
import type { Evaluator } from '../expr/bound-expression.js';
import { DropRow } from '../expr/drop-row.js';
import type { ExplodeExpression, TimeWindowExpression } from '../expr/expression.js';
import type { BatchClock, Scope } from '../expr/scope.js';
import { windowsContaining } from '../expr/time-window.js';
import { generatorOf, type Project } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { Row } from '../types/row.js';
import { count, type ExecutionContext } from './execution-context.js';
import { type PhysicalOperator, produceRows, type RowConsumer } from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** The bound generator of a select: where its columns go, and the values they take for a row. */
interface Generator {
  readonly index: number;
  readonly elements: (row: Row) => unknown[][];
}

/** Runs a Project node whose select list has a generator. */
export class GenerateExec implements RowOperator {
  private readonly evals: Evaluator[];
  private readonly generator: Generator;

  constructor(
    node: Project,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    const scope = { ...planScope(node.input), clock };
    const generator = generatorOf(node);
    const index = node.generatorIndex;
    if (!generator || index === undefined) {
      throw new ExecutionError(
        'Internal error: a select without a generator was planned as a generator.',
      );
    }
    this.evals = node.exprs.map((e, i) =>
      i === index ? () => null : bindExpression(e, scope).eval,
    );
    this.generator = {
      index,
      elements:
        generator.kind === 'explode'
          ? explodedElements(generator, scope)
          : windowElements(generator, scope),
    };
  }

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    produceRows(this.input, ctx, (row) => this.generate(row, ctx, consume));
  }

  private generate(row: Row, ctx: ExecutionContext, consume: RowConsumer): void {
    const g = this.generator;
    let base: unknown[];
    let elements: unknown[][];
    try {
      base = this.evals.map((e) => e(row));
      elements = g.elements(row);
    } catch (e) {
      if (!(e instanceof DropRow)) throw e;
      count(ctx, e.reason);
      return;
    }
    for (const element of elements)
      consume([...base.slice(0, g.index), ...element, ...base.slice(g.index + 1)]);
  }
}

/** An `explode`'s output columns per element (key and value for a map); `outer` keeps empty rows. */
function explodedElements(e: ExplodeExpression, scope: Scope): (row: Row) => unknown[][] {
  const bound = bindExpression(e.child, scope);
  const isMap = bound.dataType.kind === 'map';
  const empty = e.outer ? [isMap ? [null, null] : [null]] : [];
  return (row) => {
    const collection = bound.eval(row);
    if (collection === null) return empty;
    const items = isMap
      ? [...(collection as Map<unknown, unknown>)].map(([k, v]) => [k, v])
      : (collection as unknown[]).map((v) => [v]);
    return items.length === 0 ? empty : items;
  };
}

/** A sliding window's one column per window containing the row's time (none for a null time). */
function windowElements(w: TimeWindowExpression, scope: Scope): (row: Row) => unknown[][] {
  const time = bindExpression(w.timeColumn, scope).eval;
  return (row) => {
    const t = time(row) as number | null;
    return t === null ? [] : windowsContaining(t, w).map((window) => [window]);
  };
}
