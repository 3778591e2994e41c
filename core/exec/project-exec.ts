/**
 * Project: evaluates the select list over each batch, one kernel per expression. A select that is
 * exactly `s.*` of one struct column (the usual shape after `from_json`) takes the struct's field
 * columns as they are. A row whose evaluation signals DropRow (DROPMALFORMED) is left out of the
 * output and counted; the expressions after the one that dropped it are not evaluated for it.
 * Selects with a generator run as GenerateExec.
 */
import type { Column, ColumnBatch } from '../columnar/column-batch.js';
import { ExecutionError } from '../errors.js';
import { gatherBatch } from '../columnar/column-gather.js';
import { maskColumn } from '../columnar/column-mask.js';
import { bindExpression } from '../expr/binder.js';
import { kernelOf } from '../expr/kernels/generic-kernel.js';
import { type Kernel, KernelInput } from '../expr/kernels/kernel.js';
import { evaluateColumns } from '../expr/kernels/row-order-failure.js';
import type { Evaluator } from '../expr/bound-expression.js';
import type { BatchClock } from '../expr/scope.js';
import type { Project } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { StructType } from '../types/data-types.js';
import { countDrops } from './dropped-rows.js';
import type { ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';

/** Runs a Project node without a generator. */
export class ProjectExec implements PhysicalOperator {
  private readonly kernels: readonly Kernel[];
  /** The same expressions row by row, to report a failure as they would (row-order-failure.ts). */
  private readonly evaluators: readonly Evaluator[];
  private readonly schema: StructType;
  /** Set when the select is `s.*` of one struct column: its field columns are the output. */
  private readonly structColumn?: number;

  constructor(
    node: Project,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    const scope = { ...planScope(node.input), clock };
    this.schema = node.schema;
    this.structColumn = expandedStruct(node);
    const bound = node.exprs.map((e) => bindExpression(e, scope));
    this.kernels = bound.map(kernelOf);
    this.evaluators = bound.map((b) => b.eval);
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    this.input.produceBatches(ctx, (batch) => {
      const out = this.project(batch, ctx);
      if (out.numRows > 0) consume(out);
    });
  }

  private project(batch: ColumnBatch, ctx: ExecutionContext): ColumnBatch {
    if (this.structColumn !== undefined) {
      const columns = fieldColumns(batch.columns[this.structColumn], this.schema.fields.length);
      return { schema: this.schema, numRows: batch.numRows, columns };
    }
    const input = new KernelInput(batch);
    const columns = evaluateColumns(input, this.kernels, this.evaluators);
    const out: ColumnBatch = { schema: this.schema, numRows: batch.numRows, columns };
    if (!input.hasDrops) return out;
    countDrops(ctx, input);
    return gatherBatch(out, input.keptPositions());
  }
}

/** The field columns of a struct column with `width` fields; every field is null where the struct is. */
function fieldColumns(struct: Column, width: number): Column[] {
  if (struct.kind === 'struct') return struct.children.map((c) => maskColumn(c, struct.validity));
  if (struct.kind !== 'values') {
    throw new ExecutionError(`Internal error: s.* was taken of a ${struct.kind} column.`);
  }
  const n = struct.length;
  const fields = Array.from({ length: width }, () => new Array<unknown>(n));
  for (let i = 0; i < n; i++) {
    const s = struct.values[i] as readonly unknown[] | null | undefined;
    for (let f = 0; f < width; f++) fields[f][i] = s === null || s === undefined ? null : s[f];
  }
  return fields.map((values) => ({ kind: 'values', length: n, values }));
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
