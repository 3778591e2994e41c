/**
 * The streaming source interface, after Spark's Source: a source is a replayable log addressed by
 * offsets. A micro-batch reads exactly the range its intent names, (start, end], and reading the same
 * range again must return the same rows: that is what makes a re-run batch compute the same result.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import type { ShardIdentity } from '../checkpoint/shard-identity.js';
import type { ColumnBatch } from '../columnar/column-batch.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';

/** A position in a source; any JSON value the source chooses. Compared by its JSON form. */
export type Offset = unknown;

/** What a source is given when a query starts. */
export interface SourceContext {
  /** The query's id, fixed when its checkpoint was created (a source may name things after it). */
  readonly queryId?: string;
  /**
   * An object store private to the source inside the query's checkpoint (a local directory or S3,
   * whichever holds the checkpoint), for what the source must remember across restarts, such as the
   * offsets it started from.
   */
  readonly metadataStore?: ObjectStore;
  /**
   * The shard of the query this execution is (core/checkpoint/shard-identity.ts): a source that
   * splits (`splitsAcrossShards`) reads only its share of the partitions or files. Absent: the one
   * shard of an unsharded query, which reads everything.
   */
  readonly shard?: ShardIdentity;
}

/**
 * What the engine knows when it plans a batch: the times a source's admission control may depend on
 * (minOffsetsPerTrigger with maxTriggerDelay). Both come from the checkpoint's intents, not from the
 * source's memory, so the decision is the same in every invocation and every container.
 */
export interface PlanningContext {
  /** The processing time of the batch being planned, as its intent records it (ms since the epoch). */
  readonly batchTimestampMs: number;
  /** The processing time of the last committed batch, or undefined before the first. */
  readonly previousBatchTimestampMs?: number;
  /**
   * True for the batch of a `once` trigger: the source admits everything available, ignoring its
   * admission limits (maxFilesPerTrigger, maxOffsetsPerTrigger, minOffsetsPerTrigger, ...), as
   * Spark's Trigger.Once does.
   */
  readonly readAllAvailable?: boolean;
}

/** A streaming source. */
export interface Source {
  /** The schema of the rows it produces. */
  readonly schema: StructType;
  /** A short description for progress reports (e.g. `MemoryStream[events]`, `FileSource[/data/in]`). */
  readonly description: string;
  /**
   * True when the source reads only the share of `SourceContext.shard` (Kafka partitions, files by
   * path hash), so a query over it may run as several shards; a query whose sources do not split is
   * refused a parallelism above 1.
   */
  readonly splitsAcrossShards?: boolean;
  /**
   * The offset up to which the next batch should read, starting after `start` (undefined: from the
   * beginning), with the source's admission limits applied (maxFilesPerTrigger, ...). Returns `start`
   * itself (or undefined before any data) when nothing new is available, or when its admission
   * control holds the batch back.
   */
  latestOffset(start: Offset | undefined, context: PlanningContext): Promise<Offset | undefined>;
  /**
   * Called once when an `availableNow` query starts, with the offset the query resumes from: the
   * source fixes what is available now as the end of the run, and `latestOffset` never goes beyond
   * it, still applying the admission limits (Spark's `prepareForTriggerAvailableNow`). Optional:
   * the engine reads a source without it up to the offset it reports at the start, in one batch.
   */
  prepareForAvailableNow?(start: Offset | undefined): Promise<void>;
  /**
   * The latest offset the source saw when it last planned a batch, ignoring admission limits
   * (Spark's `reportLatestOffset`); reported in progress next to the batch's end. Optional.
   */
  reportLatestOffset?(): Offset | undefined;
  /** The rows in (start, end]. Deterministic: the same range always gives the same rows. */
  getBatch(start: Offset | undefined, end: Offset): Promise<Row[]>;
  /**
   * The rows in (start, end] as one column batch of the source's schema, for a source that holds
   * its data by column: the engine reads a batch this way when the source offers it, and so makes
   * no array per row. Optional; the same rows as `getBatch`.
   */
  getColumnBatch?(start: Offset | undefined, end: Offset): Promise<ColumnBatch>;
  /**
   * How much input (rows, files, ...) is available after `end`, ignoring admission limits; lets a
   * backfill (`availableNow`) show how far it has come. Optional.
   */
  backlog?(end: Offset | undefined): Promise<number>;
  /**
   * Figures about the batch that just ran over (start, end], reported in its progress (e.g. the Kafka
   * source's `lostOffsets`). Called after that batch; `getBatch` was not called when the range is
   * empty. Optional.
   */
  metrics?(start: Offset | undefined, end: Offset): Readonly<Record<string, number>>;
  /**
   * Problems the source met with the batch over (start, end] that did not fail it (e.g. a
   * best-effort copy of its offsets to a consumer group that failed), reported in its progress.
   * Optional.
   */
  warnings?(start: Offset | undefined, end: Offset): readonly string[];
  /**
   * The event time (microseconds) the whole input has reached at `end`, beyond what the rows the
   * source delivered say: for a source that stands for several writers, the least event time all of
   * them have announced (stage 2's repartition source, from stage 1's markers). The engine counts it
   * toward the maximum event time of every watermark above this source, as if it had read a row at
   * that time, so the watermark follows the whole input and not only the keys this source happened
   * to deliver. Undefined when the source vouches for nothing. Optional.
   */
  eventTimeReached?(end: Offset): number | undefined;
  /**
   * The largest event time (microseconds) the batch ending at `end` may count toward the maximum
   * of every watermark above this source, its rows' and `eventTimeReached` included: for a source
   * that has read rows it holds back for a later batch (stage 2's repartition source), the least of
   * them plus the watermark's delay, less one, so that the watermark does not pass them and they
   * are not late when delivered. Undefined when the source bounds nothing. Optional.
   */
  eventTimeLimit?(end: Offset): number | undefined;
  /**
   * Called after the batch ending at `end` committed; the source may forget data up to it. A failure
   * here fails the query although the batch is committed: a source whose commit is best-effort
   * reports its failures through `warnings` instead.
   */
  commit?(end: Offset): Promise<void>;
  /** Releases connections and files. */
  stop?(): Promise<void>;
}

/** Creates a source when a query starts. */
export type SourceFactory = (context: SourceContext) => Source;

/** True when two offsets denote the same position. */
export function sameOffset(a: Offset | undefined, b: Offset | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
