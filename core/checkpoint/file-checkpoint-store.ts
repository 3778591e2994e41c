/**
 * A CheckpointStore kept as files in an ObjectStore (the local-directory backend):
 * `metadata.json`, `offsets/<batchId>.json` (intents) and `commits/<batchId>.json`, batch ids
 * zero-padded so that listing order is batch order, and `failures/<time>-<owner>.json`, the recent
 * failed attempts. Every create is atomic and create-if-absent.
 */
import { CheckpointError } from '../errors.js';
import { sortableId } from './sortable-id.js';
import { decodeCheckpointRecord, encodeCheckpointRecord } from './checkpoint-record.js';
import { commitDecision } from './commit-decision.js';
import { leaseDecision } from './lease-decision.js';
import {
  type BatchFailure,
  type CheckpointStore,
  type CommitRecord,
  type CommitResult,
  type CreateMetadataResult,
  type Lease,
  type LeaseResult,
  type OffsetIntent,
  type PutIntentResult,
  type QueryMetadata,
  RECENT_FAILURES_KEPT,
} from './checkpoint-store.js';
import type { CreateResult, ObjectStore } from './object-store.js';

const METADATA_KEY = 'metadata.json';
const FAILURES = 'failures/';

/** The checkpoint of one query in an object store. */
export class FileCheckpointStore implements CheckpointStore {
  readonly location: string;

  constructor(private readonly store: ObjectStore) {
    this.location = store.location;
  }

  getMetadata(): Promise<QueryMetadata | undefined> {
    return this.read<QueryMetadata>(METADATA_KEY);
  }

  async createMetadata(metadata: QueryMetadata): Promise<CreateMetadataResult> {
    if ((await this.create(METADATA_KEY, metadata)) === 'created') return { kind: 'created' };
    return { kind: 'exists', metadata: await this.readExisting<QueryMetadata>(METADATA_KEY) };
  }

  async latestCommit(): Promise<CommitRecord | undefined> {
    const keys = await this.store.list('commits/');
    const last = keys[keys.length - 1];
    return last === undefined ? undefined : this.read<CommitRecord>(last, batchOfKey(last));
  }

  getIntent(batchId: number): Promise<OffsetIntent | undefined> {
    return this.read<OffsetIntent>(batchKey('offsets', batchId), batchId);
  }

  async putIntent(intent: OffsetIntent): Promise<PutIntentResult> {
    const key = batchKey('offsets', intent.batchId);
    if ((await this.create(key, intent)) === 'created') return { kind: 'created' };
    return { kind: 'exists', intent: await this.readExisting<OffsetIntent>(key, intent.batchId) };
  }

  /**
   * The local backend has one writer per checkpoint, so the lease is advisory: no holder is recorded,
   * and by the lease rule (lease-decision.ts) it is always free. A second writer is still caught, by
   * the commit's create-if-absent.
   */
  async acquireLease(owner: string, durationMs: number): Promise<LeaseResult> {
    const now = Date.now();
    const decision = leaseDecision(undefined, owner, now);
    if (decision.kind === 'held') return decision;
    return {
      kind: 'acquired',
      lease: { owner, epoch: 0, expiresAtMs: now + durationMs },
      head: await this.latestCommit(),
    };
  }

  async releaseLease(_lease: Lease): Promise<void> {}

  getCommit(batchId: number): Promise<CommitRecord | undefined> {
    return this.read<CommitRecord>(batchKey('commits', batchId), batchId);
  }

  /** Creates commits/N if absent; the advisory lease always holds (see commit-decision.ts). */
  async commit(commit: CommitRecord, _lease: Lease): Promise<CommitResult> {
    const created = await this.create(batchKey('commits', commit.batchId), commit);
    return commitDecision(
      created === 'exists' ? { commitExists: true } : { commitExists: false, leaseHeld: true },
    );
  }

  async forgetBatchesBefore(batchId: number): Promise<number> {
    const keys = [...(await this.store.list('offsets/')), ...(await this.store.list('commits/'))];
    const forgotten = keys.filter((k) => batchOfKey(k) < batchId);
    for (const key of forgotten) await this.store.delete(key);
    return forgotten.length;
  }

  async recordFailure(failure: BatchFailure): Promise<void> {
    const key = `${FAILURES}${sortableId(failure.atMs)}-${failure.owner}.json`;
    await this.store.put(key, Buffer.from(encodeCheckpointRecord(failure)));
    const keys = await this.store.list(FAILURES);
    for (const old of keys.slice(0, -RECENT_FAILURES_KEPT)) await this.store.delete(old);
  }

  async recentFailures(limit: number): Promise<BatchFailure[]> {
    const keys = (await this.store.list(FAILURES)).slice(-limit).reverse();
    const failures = await Promise.all(keys.map((k) => this.read<BatchFailure>(k)));
    return failures.filter((f) => f !== undefined);
  }

  private create(key: string, record: object): Promise<CreateResult> {
    return this.store.putIfAbsent(key, Buffer.from(encodeCheckpointRecord(record)));
  }

  /**
   * The record a losing create found at `key`. Files are never deleted while a batch may still
   * need them, so one that vanished between the create and this read is a damaged checkpoint.
   */
  private async readExisting<T>(key: string, batchId?: number): Promise<T> {
    const record = await this.read<T>(key, batchId);
    if (record === undefined) {
      throw new CheckpointError(
        `Checkpoint file ${this.location}/${key} was reported as existing but cannot be read; another process may be deleting the checkpoint. Stop the other writers and restart the query.`,
      );
    }
    return record;
  }

  /** The record at `key`; `batchId` is the batch it must hold, when it is a batch's record. */
  private async read<T>(key: string, batchId?: number): Promise<T | undefined> {
    const bytes = await this.store.get(key);
    if (bytes === undefined) return undefined;
    const name = `Checkpoint file ${this.location}/${key}`;
    return decodeCheckpointRecord<T>(Buffer.from(bytes).toString('utf8'), name, batchId);
  }
}

/** `offsets/00000000000000000042.json`: zero-padded so keys sort in batch order. */
function batchKey(kind: 'offsets' | 'commits', batchId: number): string {
  return `${kind}/${sortableId(batchId)}.json`;
}

/** The batch id in a batch key: `commits/00000000000000000042.json` is batch 42. */
function batchOfKey(key: string): number {
  return Number(key.slice(key.indexOf('/') + 1, -'.json'.length));
}
