/**
 * The checkpoint: the query's write-ahead log of offsets and its commit log, after Spark's offset and
 * commit logs. Batch N is planned by writing its intent (offsets#N) with a create-if-absent; it
 * becomes real only when commit#N is created. Records carry a format version and are validated on read.
 */
import type { Offset } from '../sources/source.js';
import type { ObjectStore } from './object-store.js';
import type { ShardIdentity } from './shard-identity.js';

/** Format version of every checkpoint record this code writes. */
export const CHECKPOINT_FORMAT_VERSION = 1;

/** Written once when a query first starts on a checkpoint; later starts must match it. */
export interface QueryMetadata {
  readonly formatVersion: number;
  readonly queryId: string;
  /** Describes the stateful operators and their keys; a restart with a different one is refused. */
  readonly planFingerprint: string;
  readonly numStatePartitions: number;
  /**
   * How many shards the query runs as (docs/scale-out.md); a restart with another count is refused.
   * Absent: 1, as in every checkpoint of an unsharded query (which keeps its layout exactly).
   */
  readonly parallelism?: number;
}

/** The intent of batch N: exactly what it reads and under which clock and watermark, forever. */
export interface OffsetIntent {
  readonly formatVersion: number;
  readonly batchId: number;
  /** Per source, the offset the batch starts after (null: from the beginning). */
  readonly start: readonly (Offset | null)[];
  /** Per source, the offset the batch reads up to, inclusive. */
  readonly end: readonly (Offset | null)[];
  /** The batch's processing time; a re-run uses the same. */
  readonly batchTimestampMs: number;
  /** The watermark in force for this batch (null before the first). */
  readonly watermarkMicros: number | null;
}

/** The commit of batch N: its state version and what the next batch needs. */
export interface CommitRecord {
  readonly formatVersion: number;
  readonly batchId: number;
  /**
   * Key of the state manifest of this version (null when the query has no state, or when the commit
   * carries the manifest in `inlineState`).
   */
  readonly stateManifest: string | null;
  /**
   * The state manifest, with each partition's changes since its last state file, carried by the
   * commit instead of by objects (gzip-compressed JSON in base64; core/state/inline-state.ts).
   * Absent when the manifest is an object, as in records written before state travelled inline.
   */
  readonly inlineState?: string;
  /**
   * The batch whose manifest `stateManifest` is, when an earlier one: a batch that changed no state
   * writes none and its version is the one it started from. Absent, the manifest is this batch's.
   */
  readonly stateVersion?: number;
  /** Max event time seen so far per watermark operator (by id). */
  readonly eventTimeMax: Readonly<Record<string, number>>;
  /** The watermark batch N+1 runs under. */
  readonly nextWatermarkMicros: number | null;
  /**
   * Per stateful operator with timers (by id), when it must next act without new data: once the
   * watermark reaches `dueAtWatermarkMicros` or the processing time `dueAtProcessingTimeMs`
   * (StatefulOperator.nextTimer). Absent when no operator has a timer, as in records written
   * before timers existed.
   */
  readonly operatorTimers?: Readonly<
    Record<
      string,
      { readonly dueAtWatermarkMicros?: number; readonly dueAtProcessingTimeMs?: number }
    >
  >;
  /**
   * The batch's progress record (Spark's StreamingQueryProgress, core/streaming/progress.ts), as it
   * stood when the commit was written: its commit time is not in it. Stored in the commit so that
   * history costs no request of its own; opaque here. Absent in records written before it existed.
   * A backend may leave it out of copies of the commit it reads on every batch (DynamoDB's head).
   */
  readonly progress?: Readonly<Record<string, unknown>>;
  /**
   * The processing time (ms) of the last batch up to this one that read input: how the query
   * watermark tells an idle shard (query-watermark.ts). Written by shards of a query with parallelism
   * above 1 only; absent in an unsharded query's records, as before shards existed.
   */
  readonly lastInputAtMs?: number;
}

/** The batch whose state manifest a commit names: its own, unless it changed no state. */
export function stateVersionOf(commit: CommitRecord): number {
  return commit.stateVersion ?? commit.batchId;
}

/**
 * How creating the query metadata ended: `created`, or `exists` with the metadata that was there
 * first (another start created it), read by the store so the caller needs no second request.
 */
export type CreateMetadataResult =
  { readonly kind: 'created' } | { readonly kind: 'exists'; readonly metadata: QueryMetadata };

/**
 * How writing the intent of batch N ended: `created`, or `exists` with the intent an earlier attempt
 * wrote, which is the truth for N. The store reads it as part of the losing create (DynamoDB returns
 * the item with the failed condition), so a caller that lost never issues a second read.
 */
export type PutIntentResult =
  { readonly kind: 'created' } | { readonly kind: 'exists'; readonly intent: OffsetIntent };

/** The right to run the next batch of a query, until `expiresAtMs`; `epoch` fences stale holders. */
export interface Lease {
  readonly owner: string;
  readonly epoch: number;
  readonly expiresAtMs: number;
}

/** Who holds (or last held) a query's lease, and until when. */
export interface LeaseHolder {
  readonly owner: string;
  readonly expiresAtMs: number;
}

/** Taking the lease either succeeds (and reads the head in the same request) or finds another holder. */
export type LeaseResult =
  | { readonly kind: 'acquired'; readonly lease: Lease; readonly head: CommitRecord | undefined }
  | { readonly kind: 'held'; readonly owner: string; readonly expiresAtMs: number };

/**
 * How renewing a lease ended: `renewed` (same epoch, a later expiry), or `lost` when another
 * invocation took the lease since (or it was released): the holder must stop without committing.
 */
export type RenewLeaseResult =
  { readonly kind: 'renewed'; readonly lease: Lease } | { readonly kind: 'lost' };

/**
 * How a commit ended: `committed`; `conflict` when batch N is already committed (another attempt
 * won); `lease-lost` when another invocation took the lease since this one took it.
 */
export type CommitResult = 'committed' | 'conflict' | 'lease-lost';

/**
 * A batch attempt that failed with an error, as the checkpoint keeps it for `sluice status`. A crash
 * or a timeout leaves no record: it shows as a batch planned and not committed.
 */
export interface BatchFailure {
  readonly formatVersion: number;
  readonly batchId: number;
  /** When the attempt failed (ms since epoch). */
  readonly atMs: number;
  /** The run that attempted the batch (the lease owner). */
  readonly owner: string;
  /** The protocol step the error came from (lease, plan, load, run, persist, sink, commit). */
  readonly step: string;
  /** The error's name and message. */
  readonly error: string;
}

/** How many failures a checkpoint keeps: enough to see a pattern, never a growing log. */
export const RECENT_FAILURES_KEPT = 20;

/** Where a query's checkpoint lives. */
export interface CheckpointStore {
  /** A description for messages (directory, table). */
  readonly location: string;
  getMetadata(): Promise<QueryMetadata | undefined>;
  /** Creates the query metadata unless it exists (then the existing metadata is returned). */
  createMetadata(metadata: QueryMetadata): Promise<CreateMetadataResult>;
  /** Takes the lease if it is free, expired or already `owner`'s, and returns the head with it. */
  acquireLease(owner: string, durationMs: number): Promise<LeaseResult>;
  /**
   * Extends `lease` to `durationMs` from now, keeping its epoch, unless another invocation took it
   * since (lease-decision.ts). A store that records no holder (the local one, one writer per
   * checkpoint) has no such method: its lease never lapses.
   */
  renewLease?(lease: Lease, durationMs: number): Promise<RenewLeaseResult>;
  /**
   * Reads who holds the lease, without taking it, for tools such as `sluice status`. A store whose
   * lease is advisory (the local backend records no holder) has no such method.
   */
  readLease?(): Promise<LeaseHolder | undefined>;
  /** Gives the lease up if it is still `lease`, so the next invocation need not wait for it to expire. */
  releaseLease(lease: Lease): Promise<void>;
  /** The commit of the highest committed batch, or undefined before the first. */
  latestCommit(): Promise<CommitRecord | undefined>;
  /** The commit of one batch, if it exists (and has not expired from the commit log). */
  getCommit(batchId: number): Promise<CommitRecord | undefined>;
  getIntent(batchId: number): Promise<OffsetIntent | undefined>;
  /** Creates the intent of a batch unless one exists (then the existing one is returned: it is the truth). */
  putIntent(intent: OffsetIntent): Promise<PutIntentResult>;
  /** Makes batch N real: atomically records its commit and moves the head, if `lease` still holds. */
  commit(commit: CommitRecord, lease: Lease): Promise<CommitResult>;
  /**
   * Deletes the intents and commits of batches before `batchId`, returning how many it deleted. A
   * store whose log expires by itself (DynamoDB's TTL) has no such method.
   */
  forgetBatchesBefore?(batchId: number): Promise<number>;
  /** Records a failed attempt; the store keeps the RECENT_FAILURES_KEPT most recent. */
  recordFailure(failure: BatchFailure): Promise<void>;
  /** The most recent failed attempts, newest first, at most `limit`. */
  recentFailures(limit: number): Promise<BatchFailure[]>;
}

/** Where a query (or one shard of it) keeps its checkpoint and its state files. */
export interface CheckpointBackend {
  readonly checkpoint: CheckpointStore;
  readonly stateObjects: ObjectStore;
  /** Which shard of the query `checkpoint` belongs to. @default the unsharded query */
  readonly shard?: ShardIdentity;
  /**
   * The checkpoint of the query as a whole, whose metadata records its parallelism, when
   * `checkpoint` is one shard's. @default `checkpoint` (the unsharded query's is the query's)
   */
  readonly queryCheckpoint?: CheckpointStore;
}
