/**
 * RecordingSink: the sink of a stream test. It keeps every batch it received, by batchId, so a test
 * can check the whole content and the last batch, and it is idempotent per batchId like every sink:
 * a batch delivered again after a crash between sink and commit is ignored. It lives as long as the
 * test, so its content spans every restart of the stream.
 */
import type { OutputMode, Sink } from '../sinks/sink.js';
import type { StructType } from '../types/data-types.js';
import { type Row, type RowObject, toRowObject } from '../types/row.js';

/** One batch as the sink received it. */
export interface RecordedBatch {
  readonly batchId: number;
  readonly rows: readonly RowObject[];
}

/** A sink that records its batches. */
export class RecordingSink implements Sink {
  readonly description = 'RecordingSink[stream test]';
  private readonly batches = new Map<number, RecordedBatch>();
  private outputMode: OutputMode = 'append';

  async addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    outputMode: OutputMode,
  ): Promise<void> {
    if (this.batches.has(batchId)) return;
    this.outputMode = outputMode;
    this.batches.set(batchId, { batchId, rows: rows.map((r) => toRowObject(r, schema)) });
  }

  /** Every batch received, in batchId order. */
  recordedBatches(): RecordedBatch[] {
    return [...this.batches.values()].sort((a, b) => a.batchId - b.batchId);
  }

  /** The batch with the highest batchId, if any arrived. */
  lastBatch(): RecordedBatch | undefined {
    const all = this.recordedBatches();
    return all[all.length - 1];
  }

  /**
   * The sink's content, as Spark's memory sink keeps it: in complete mode the last batch (each
   * replaces the result), in append and update modes the rows of every batch.
   */
  content(): RowObject[] {
    if (this.outputMode === 'complete') return [...(this.lastBatch()?.rows ?? [])];
    return this.recordedBatches().flatMap((b) => b.rows);
  }
}
