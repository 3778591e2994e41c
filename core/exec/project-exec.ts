/**
 * Project: evaluates the select list per row; with a generator, one output row per element of an
 * `explode`, or per window of a sliding `window()` (earliest first).
 * A row whose evaluation signals DropRow (DROPMALFORMED) is skipped and counted.
 */
import { bindExpression } from '../expr/binder.js';
import type { Evaluator } from '../expr/bound-expression.js';
import { DropRow } from '../expr/drop-row.js';
import type { ExplodeExpression, TimeWindowExpression } from '../expr/expression.js';
import type { Scope } from '../expr/scope.js';
import { windowsContaining } from '../expr/time-window.js';
import { generatorOf, type Project } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { BatchClock } from '../expr/scope.js';
import type { Row } from '../types/row.js';
import { count, type ExecutionContext } from './execution-context.js';
import type { PhysicalOperator, RowConsumer } from './physical-operator.js';

/** The bound generator of a select: where its columns go, and the values they take for a row. */
interface Generator {
  readonly index: number;
  readonly elements: (row: Row) => unknown[][];
}

/** Runs a Project node. */
export class ProjectExec implements PhysicalOperator {
  private readonly evals: Evaluator[];
  private readonly generator?: Generator;
  /** Set when the select is `s.*` of one struct column: the struct value is already the output row. */
  private readonly structColumn?: number;

  constructor(
    node: Project,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    const scope = { ...planScope(node.input), clock };
    this.structColumn = expandedStruct(node);
    const generator = generatorOf(node);
    this.evals = node.exprs.map((e, i) =>
      i === node.generatorIndex ? () => null : bindExpression(e, scope).eval,
    );
    if (generator && node.generatorIndex !== undefined) {
      this.generator = {
        index: node.generatorIndex,
        elements:
          generator.kind === 'explode'
            ? explodedElements(generator, scope)
            : windowElements(generator, scope),
      };
    }
  }

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const generator = this.generator;
    if (generator) {
      this.input.produce(ctx, (row) => this.generate(row, generator, ctx, consume));
      return;
    }
    const evals = this.evals;
    const n = evals.length;
    const struct = this.structColumn;
    if (struct !== undefined) {
      // Rows are never modified once made, so the struct's array can be the output row itself.
      const nulls = new Array<unknown>(n).fill(null);
      this.input.produce(ctx, (row) => consume((row[struct] as Row | null) ?? nulls.slice()));
      return;
    }
    this.input.produce(ctx, (row) => {
      const result = new Array<unknown>(n);
      try {
        for (let i = 0; i < n; i++) result[i] = evals[i](row);
      } catch (e) {
        if (!(e instanceof DropRow)) throw e;
        count(ctx, e.reason);
        return;
      }
      consume(result);
    });
  }

  private generate(row: Row, g: Generator, ctx: ExecutionContext, consume: RowConsumer): void {
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

/**
 * The input column a select expands when it is exactly `s.*` of one struct column `s` (every field,
 * in order, under its own name) — the usual shape after `from_json` — else undefined.
 */
function expandedStruct(node: Project): number | undefined {
  const first = node.exprs[0];
  if (node.generatorIndex !== undefined || first?.kind !== 'alias' || first.child.kind !== 'column')
    return undefined;
  const column = first.child.path[0];
  const index = node.input.schema.fields.findIndex((f) => f.name === column);
  const type = node.input.schema.fields[index]?.dataType;
  if (type?.kind !== 'struct' || type.fields.length !== node.exprs.length) return undefined;
  const matches = node.exprs.every((e, i) => {
    const name = type.fields[i].name;
    return (
      e.kind === 'alias' &&
      e.name === name &&
      e.child.kind === 'column' &&
      e.child.planId === undefined &&
      e.child.path.length === 2 &&
      e.child.path[0] === column &&
      e.child.path[1] === name
    );
  });
  const unique = node.input.schema.fields.filter((f) => f.name === column).length === 1;
  return matches && unique ? index : undefined;
}
