/**
 * The row adapter: runs an operator that is not columnar yet (join, sort, limit, union,
 * generators) in a columnar plan. The row operator reads its inputs as rows
 * (`produceRows`) and pushes rows; the adapter gathers them into one batch of `values` columns,
 * which remembers its rows, so a row operator above reads them back at no cost.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator, RowConsumer } from './physical-operator.js';

/** An operator that pushes rows, one at a time. */
export interface RowOperator {
  /** Pushes every output row of this run to `consume`, in order. */
  produce(ctx: ExecutionContext, consume: RowConsumer): void;
}

/** Runs a row operator whose output rows have `schema`, as a batch operator. */
export class RowAdapterExec implements PhysicalOperator {
  constructor(
    private readonly schema: StructType,
    /** The adapted operator. */
    readonly operator: RowOperator,
  ) {}

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const rows: Row[] = [];
    this.operator.produce(ctx, (row) => rows.push(row));
    if (rows.length > 0) consume(rowsToValuesBatch(this.schema, rows));
  }
}
