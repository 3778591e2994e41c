/**
 * MemorySink: keeps a query's output in memory, for tests and `session.table(name)`. Idempotent per
 * batchId: a batch delivered again after a crash is ignored. In complete mode each batch replaces
 * the content; in append and update modes rows accumulate (update mode rows are the changes).
 */
import type { StructType } from '../types/data-types.js';
import { type Row, toRowObject, type RowObject } from '../types/row.js';
import type { OutputMode, Sink } from './sink.js';

/** An in-memory sink. */
export class MemorySink implements Sink {
  private content: Row[] = [];
  private lastBatchId = -1;

  constructor(
    /** The schema of the query's output. */
    readonly schema: StructType,
    readonly name = 'memory',
  ) {}

  get description(): string {
    return `MemorySink[${this.name}]`;
  }

  async addBatch(
    batchId: number,
    rows: readonly Row[],
    _schema: StructType,
    outputMode: OutputMode,
  ): Promise<void> {
    if (batchId <= this.lastBatchId) return;
    this.content = outputMode === 'complete' ? [...rows] : [...this.content, ...rows];
    this.lastBatchId = batchId;
  }

  /** The rows written so far, as engine rows. */
  engineRows(): readonly Row[] {
    return this.content;
  }

  /** The rows written so far, as objects. */
  rows(): RowObject[] {
    return this.content.map((r) => toRowObject(r, this.schema));
  }

  /** The id of the last batch written (-1 before the first). */
  get latestBatchId(): number {
    return this.lastBatchId;
  }
}
