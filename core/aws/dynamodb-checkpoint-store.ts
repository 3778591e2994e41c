/**
 * The checkpoint in DynamoDB (docs/architecture.md section 3): one item collection per query, `pk =
 * query#<id>`, or per shard of a query with parallelism above 1, `pk = query#<id>#<stage>#<shard>`
 * (docs/scale-out.md), so that each shard's requests go to its own item collection.
 *
 *   sk = head            the last committed batch (its commit record), the lease (owner, expiry,
 *                        epoch) and the format version
 *   sk = metadata        query id, plan fingerprint, state partition count
 *   sk = offsets#<N>     the intent of batch N (write-ahead log), created once; given a TTL
 *                        attribute (`expiresAt`) when batch N+1 commits, since only the head's
 *                        intent is read again
 *   sk = commit#<N>      the commit log, with a TTL attribute (`expiresAt`); each commit holds its
 *                        batch's progress record, which the head's copy leaves out
 *   sk = failure#<T>#<owner>  a failed attempt at time T (for `sluice status`), with the commit
 *                        log's TTL
 *
 * Records are checksummed JSON (checkpoint-record.ts). The head's `batchId` attribute (which the
 * commit's condition reads) must be the batch of its record, and a head without a record must not
 * have commits beside it (the head item was deleted): either is a CheckpointError saying how to
 * recover, since the protocol would otherwise re-run batch 0 or lose the lease forever.
 *
 * Protocol:
 * - lease: one UpdateItem takes the lease when it is free, expired or already ours (the rule of
 *   lease-decision.ts, as its condition), increments the fencing epoch, and returns the head in the
 *   same request; when the lease is held, the failed condition returns the holder. A renewal is an
 *   UpdateItem of the expiry alone, on the condition that owner and epoch are still the holder's.
 * - intent: PutItem with attribute_not_exists; the loser gets the winner's item back with the failed
 *   condition (ReturnValuesOnConditionCheckFailure), so losing costs no second request.
 * - commit: one TransactWriteItems: Put commit#N (attribute_not_exists) + Update head to N, on the
 *   conditions head.batchId = N-1 and epoch = ours, + Update offsets#N-1 with its TTL. Its
 *   ClientRequestToken derives from (query, N, epoch), so a retried call of the same commit is
 *   harmless. Which conditions failed decides the outcome by the rule of commit-decision.ts:
 *   on the commit item, another attempt committed N (`conflict`); on the head alone, another
 *   invocation took the lease (`lease-lost`).
 * Items stay far below DynamoDB's 400 KB: an intent larger than `maxItemRecordBytes` is written to
 * the object store (write-once key) and the item references it.
 */
import { sortableId } from '../checkpoint/sortable-id.js';
import { createHash, randomUUID } from 'node:crypto';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type BatchFailure,
  CHECKPOINT_FORMAT_VERSION,
  type CheckpointStore,
  type CommitRecord,
  type CommitResult,
  type CreateMetadataResult,
  type Lease,
  type LeaseHolder,
  type LeaseResult,
  type OffsetIntent,
  type PutIntentResult,
  type QueryMetadata,
  type RenewLeaseResult,
} from '../checkpoint/checkpoint-store.js';
import type { ObjectStore } from '../checkpoint/object-store.js';
import {
  decodeCheckpointRecord,
  encodeCheckpointRecord,
  requireBatch,
} from '../checkpoint/checkpoint-record.js';
import { resolveStoredReference } from '../checkpoint/stored-reference.js';
import { validateQueryId } from '../checkpoint/checkpoint-identifiers.js';
import { type ShardIdentity, shardKeySegments, UNSHARDED } from '../checkpoint/shard-identity.js';
import { commitDecision } from '../checkpoint/commit-decision.js';
import { leaseDecision, leaseRenewalDecision } from '../checkpoint/lease-decision.js';
import { CheckpointError, ExecutionError, SluiceError } from '../errors.js';
import {
  awsFailure,
  cancelledTransactionItems,
  classifyAwsError,
  conditionFailedItem,
} from './aws-error.js';

/** Configuration of a DynamoDB checkpoint. */
export interface DynamoDbCheckpointOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly queryId: string;
  /** The shard of the query whose checkpoint this is. @default the unsharded query */
  readonly shard?: ShardIdentity;
  /** Where intents too large for an item go (e.g. the state bucket). */
  readonly largeRecords?: ObjectStore;
  /** Intents whose JSON exceeds this many bytes go to `largeRecords`. @default 64 KiB */
  readonly maxItemRecordBytes?: number;
  /** How long commit log items live before DynamoDB's TTL removes them. @default 30 days */
  readonly commitLogTtlSeconds?: number;
  /** How long an intent item lives after the next batch committed. @default 30 days */
  readonly intentLogTtlSeconds?: number;
  readonly clock?: () => number;
}

interface StoredItem {
  readonly record?: string;
  readonly recordKey?: string;
  readonly batchId?: number;
  readonly epoch?: number;
  readonly leaseOwner?: string;
  readonly leaseExpiresAt?: number;
}

/** A create-if-absent either wrote its item or found one there first. */
type CreateItemResult =
  { readonly kind: 'created' } | { readonly kind: 'exists'; readonly item: StoredItem };

const DEFAULT_MAX_ITEM_RECORD_BYTES = 64 * 1024;
const DEFAULT_LOG_TTL_SECONDS = 30 * 24 * 3600;
const MAX_COMMIT_ATTEMPTS = 5;

/** A query's checkpoint in a DynamoDB table (shared by many queries). */
export class DynamoDbCheckpointStore implements CheckpointStore {
  readonly location: string;
  private readonly db: DynamoDBDocumentClient;
  private readonly pk: string;
  /** The query id and the shard's key segments: what names this checkpoint among all others. */
  private readonly scope: string;
  private readonly clock: () => number;

  constructor(private readonly options: DynamoDbCheckpointOptions) {
    this.db = DynamoDBDocumentClient.from(options.client, {
      marshallOptions: { removeUndefinedValues: true },
    });
    const queryId = validateQueryId(options.queryId, "DynamoDbCheckpointStore option 'queryId'");
    this.scope = [queryId, ...shardKeySegments(options.shard ?? UNSHARDED)].join('#');
    this.pk = `query#${this.scope}`;
    this.location = `dynamodb://${options.tableName}/${this.pk}`;
    this.clock = options.clock ?? Date.now;
  }

  async getMetadata(): Promise<QueryMetadata | undefined> {
    return this.readRecord<QueryMetadata>('metadata');
  }

  async createMetadata(metadata: QueryMetadata): Promise<CreateMetadataResult> {
    const created = await this.createItem('metadata', { record: encodeCheckpointRecord(metadata) });
    if (created.kind === 'created') return created;
    return {
      kind: 'exists',
      metadata: await this.recordOf<QueryMetadata>(created.item, 'metadata'),
    };
  }

  acquireLease(owner: string, durationMs: number): Promise<LeaseResult> {
    return this.retryingHeadConflicts('take the lease', () =>
      this.tryAcquireLease(owner, durationMs),
    );
  }

  /** Runs an update of the head, again while a commit transaction on the head is in flight. */
  private async retryingHeadConflicts<T>(action: string, update: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await update();
      } catch (e) {
        // A damaged head or a broken invariant is not a failed request: its own message says what to do.
        if (e instanceof SluiceError) throw e;
        if (classifyAwsError(e) !== 'transaction-conflict' || attempt >= MAX_COMMIT_ATTEMPTS)
          throw this.failure(action, e);
        await sleep(20 * 2 ** attempt * Math.random());
      }
    }
  }

  private async tryAcquireLease(owner: string, durationMs: number): Promise<LeaseResult> {
    const now = this.clock();
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: this.key('head'),
          UpdateExpression:
            'SET leaseOwner = :owner, leaseExpiresAt = :expires, epoch = if_not_exists(epoch, :zero) + :one, formatVersion = :version',
          ConditionExpression:
            'attribute_not_exists(leaseOwner) OR leaseExpiresAt < :now OR leaseOwner = :owner',
          ExpressionAttributeValues: {
            ':owner': owner,
            ':expires': now + durationMs,
            ':now': now,
            ':zero': 0,
            ':one': 1,
            ':version': CHECKPOINT_FORMAT_VERSION,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const head = result.Attributes as StoredItem;
      const lease = { owner, epoch: head.epoch!, expiresAtMs: head.leaseExpiresAt! };
      return { kind: 'acquired', lease, head: await this.headCommit(head) };
    } catch (e) {
      if (classifyAwsError(e) !== 'condition-failed') throw e;
      return this.heldLease(conditionFailedItem(e), owner, now, e);
    }
  }

  /** The holder of a lease DynamoDB refused, from the head its failed condition returned. */
  private heldLease(
    item: Record<string, AttributeValue> | undefined,
    owner: string,
    now: number,
    cause: unknown,
  ): LeaseResult {
    const head = item ? storedItem(item) : undefined;
    const holder =
      head?.leaseOwner === undefined
        ? undefined
        : { owner: head.leaseOwner, expiresAtMs: head.leaseExpiresAt ?? Infinity };
    const decision = leaseDecision(holder, owner, now);
    if (decision.kind === 'held') return decision;
    throw new ExecutionError(
      `Internal error: DynamoDB refused the lease of ${this.location} to ${owner}, but the head it returned (${holder ? `held by ${holder.owner} until ${holder.expiresAtMs}` : 'no holder'}) leaves the lease free at ${now}.`,
      { cause },
    );
  }

  /**
   * Extends the lease on the condition that the head still records its owner and epoch, so a stale
   * holder can never renew a lease another invocation took; the epoch is unchanged, so the holder's
   * commit stays fenced by it. A head refusing the renewal returns its lease, checked against the
   * rule of lease-decision.ts. A commit transaction in flight on the head is waited out as when
   * taking the lease.
   */
  renewLease(lease: Lease, durationMs: number): Promise<RenewLeaseResult> {
    return this.retryingHeadConflicts('renew the lease', () =>
      this.tryRenewLease(lease, durationMs),
    );
  }

  private async tryRenewLease(lease: Lease, durationMs: number): Promise<RenewLeaseResult> {
    const expiresAtMs = this.clock() + durationMs;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: this.key('head'),
          UpdateExpression: 'SET leaseExpiresAt = :expires',
          ConditionExpression: 'epoch = :epoch AND leaseOwner = :owner',
          ExpressionAttributeValues: {
            ':expires': expiresAtMs,
            ':epoch': lease.epoch,
            ':owner': lease.owner,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'renewed', lease: { ...lease, expiresAtMs } };
    } catch (e) {
      if (classifyAwsError(e) !== 'condition-failed') throw e;
      const item = conditionFailedItem(e);
      const head = item ? storedItem(item) : undefined;
      const recorded = head && { owner: head.leaseOwner, epoch: head.epoch };
      if (leaseRenewalDecision(recorded, lease) === 'lost') return { kind: 'lost' };
      throw new ExecutionError(
        `Internal error: DynamoDB refused to renew the lease of ${this.location} (epoch ${lease.epoch}, ${lease.owner}), yet the head it returned still records that lease.`,
        { cause: e },
      );
    }
  }

  /** Gives the lease up (if still ours), so the next invocation need not wait for it to expire. */
  async releaseLease(lease: Lease): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.options.tableName,
          Key: this.key('head'),
          UpdateExpression: 'REMOVE leaseOwner, leaseExpiresAt',
          ConditionExpression: 'epoch = :epoch AND leaseOwner = :owner',
          ExpressionAttributeValues: { ':epoch': lease.epoch, ':owner': lease.owner },
        }),
      );
    } catch (e) {
      if (classifyAwsError(e) !== 'condition-failed') throw this.failure('release the lease', e);
    }
  }

  async latestCommit(): Promise<CommitRecord | undefined> {
    return this.headCommit(await this.getItem('head'));
  }

  /** The lease's holder as the head records it (it may have expired), without taking it. */
  async readLease(): Promise<LeaseHolder | undefined> {
    const head = await this.getItem('head');
    if (head?.leaseOwner === undefined || head.leaseExpiresAt === undefined) return undefined;
    return { owner: head.leaseOwner, expiresAtMs: head.leaseExpiresAt };
  }

  /** The commit the head item holds, checked against the head's batchId and the commit log. */
  private async headCommit(head: StoredItem | undefined): Promise<CommitRecord | undefined> {
    const name = `${this.location} item head`;
    if (head?.record === undefined) {
      await this.requireNoCommits(name);
      return undefined;
    }
    const commit = decodeCheckpointRecord<CommitRecord>(head.record, name);
    if (head.batchId !== commit.batchId) {
      throw new CheckpointError(
        `${name} has batchId ${String(head.batchId)} but its record is the commit of batch ${commit.batchId}, so no commit could ever match it. ` +
          `Set the head's batchId to ${commit.batchId} if its record is the latest commit (compare with the commit# items), or start the query under a new queryId.`,
      );
    }
    return commit;
  }

  /** A head without a commit is a new query's, unless commits exist: then the head item was lost. */
  private async requireNoCommits(name: string): Promise<void> {
    let latest: StoredItem | undefined;
    try {
      const result = await this.db.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :commit)',
          ExpressionAttributeValues: { ':pk': this.pk, ':commit': 'commit#' },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      );
      latest = result.Items?.[0] as StoredItem | undefined;
    } catch (e) {
      throw this.failure('read the commit log', e);
    }
    if (latest === undefined) return;
    throw new CheckpointError(
      `${name} is missing or has no commit, but ${commitKey(latest.batchId!)} exists: the head item was deleted, and running on would re-run batch 0. ` +
        `Recover by writing the head back from the latest commit item (set the head's batchId and record attributes to that item's), or start the query under a new queryId.`,
    );
  }

  getCommit(batchId: number): Promise<CommitRecord | undefined> {
    return this.readRecord<CommitRecord>(commitKey(batchId), batchId);
  }

  async getIntent(batchId: number): Promise<OffsetIntent | undefined> {
    return this.readRecord<OffsetIntent>(intentKey(batchId), batchId);
  }

  async putIntent(intent: OffsetIntent): Promise<PutIntentResult> {
    const sk = intentKey(intent.batchId);
    const created = await this.createItem(sk, await this.intentAttributes(intent));
    if (created.kind === 'created') return created;
    return {
      kind: 'exists',
      intent: await this.recordOf<OffsetIntent>(created.item, sk, intent.batchId),
    };
  }

  /** The intent inline, or (when larger than an item should hold) a reference to it in S3. */
  private async intentAttributes(intent: OffsetIntent): Promise<Record<string, unknown>> {
    const record = encodeCheckpointRecord(intent);
    const limit = this.options.maxItemRecordBytes ?? DEFAULT_MAX_ITEM_RECORD_BYTES;
    if (Buffer.byteLength(record) <= limit || !this.options.largeRecords)
      return { batchId: intent.batchId, record };
    const recordKey = `checkpoint/${this.options.queryId}/offsets/${sortableId(intent.batchId)}-${randomUUID()}.json`;
    await this.options.largeRecords.put(recordKey, Buffer.from(record));
    return { batchId: intent.batchId, recordKey };
  }

  async commit(commit: CommitRecord, lease: Lease): Promise<CommitResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.send(this.commitTransaction(commit, lease));
        return commitDecision({ commitExists: false, leaseHeld: true });
      } catch (e) {
        const items = cancelledTransactionItems(e);
        if (items[0] === 'condition-failed') return commitDecision({ commitExists: true });
        if (items[1] === 'condition-failed')
          return commitDecision({ commitExists: false, leaseHeld: false });
        // Another transaction touched the same items at the same time: whoever won decides.
        if (
          items.includes('transaction-conflict') ||
          classifyAwsError(e) === 'transaction-conflict'
        ) {
          if (await this.getItem(commitKey(commit.batchId)))
            return commitDecision({ commitExists: true });
          if (attempt < MAX_COMMIT_ATTEMPTS) {
            await sleep(20 * 2 ** attempt * Math.random());
            continue;
          }
        }
        throw this.failure(`commit batch ${commit.batchId}`, e);
      }
    }
  }

  /**
   * Put commit#N (create-once) and move the head from N-1 to N, fenced by the lease epoch; the
   * intent of N-1, no longer the head's, gets its TTL. The head's copy of the commit leaves out the
   * batch's progress: every batch reads the head, while only history reads progress (from commit#N).
   */
  private commitTransaction(commit: CommitRecord, lease: Lease): TransactWriteCommand {
    const record = encodeCheckpointRecord(commit);
    const headRecord = encodeCheckpointRecord({ ...commit, progress: undefined });
    const nowSeconds = Math.floor(this.clock() / 1000);
    const expireIntent =
      commit.batchId === 0
        ? []
        : [
            {
              Update: {
                TableName: this.options.tableName,
                Key: this.key(intentKey(commit.batchId - 1)),
                UpdateExpression: 'SET expiresAt = :expiresAt',
                ExpressionAttributeValues: {
                  ':expiresAt':
                    nowSeconds + (this.options.intentLogTtlSeconds ?? DEFAULT_LOG_TTL_SECONDS),
                },
              },
            },
          ];
    return new TransactWriteCommand({
      ClientRequestToken: commitToken(this.scope, commit.batchId, lease.epoch),
      TransactItems: [
        {
          Put: {
            TableName: this.options.tableName,
            Item: {
              ...this.key(commitKey(commit.batchId)),
              batchId: commit.batchId,
              record,
              expiresAt: nowSeconds + (this.options.commitLogTtlSeconds ?? DEFAULT_LOG_TTL_SECONDS),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: this.options.tableName,
            Key: this.key('head'),
            UpdateExpression: 'SET batchId = :batchId, #record = :record',
            ConditionExpression:
              '(batchId = :previous OR (attribute_not_exists(batchId) AND :previous = :none)) AND epoch = :epoch AND leaseOwner = :owner',
            ExpressionAttributeNames: { '#record': 'record' },
            ExpressionAttributeValues: {
              ':batchId': commit.batchId,
              ':record': headRecord,
              ':previous': commit.batchId - 1,
              ':none': -1,
              ':epoch': lease.epoch,
              ':owner': lease.owner,
            },
          },
        },
        ...expireIntent,
      ],
    });
  }

  /** Creates item `sk` unless it exists; a loser gets the existing item in the same request. */
  private async createItem(
    sk: string,
    attributes: Record<string, unknown>,
  ): Promise<CreateItemResult> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.options.tableName,
          Item: { ...this.key(sk), formatVersion: CHECKPOINT_FORMAT_VERSION, ...attributes },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'created' };
    } catch (e) {
      if (classifyAwsError(e) !== 'condition-failed') throw this.failure(`write ${sk}`, e);
      const existing = conditionFailedItem(e);
      if (!existing) {
        throw new ExecutionError(
          `Internal error: creating ${this.location} item ${sk} failed its condition, yet DynamoDB returned no existing item.`,
          { cause: e },
        );
      }
      return { kind: 'exists', item: storedItem(existing) };
    }
  }

  /** The record of item `sk`; `batchId` is the batch it must hold, when it is a batch's record. */
  async recordFailure(failure: BatchFailure): Promise<void> {
    const nowSeconds = Math.floor(this.clock() / 1000);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.options.tableName,
          Item: {
            ...this.key(`failure#${sortableId(failure.atMs)}#${failure.owner}`),
            record: encodeCheckpointRecord(failure),
            expiresAt: nowSeconds + (this.options.commitLogTtlSeconds ?? DEFAULT_LOG_TTL_SECONDS),
          },
        }),
      );
    } catch (e) {
      throw this.failure(`record the failure of batch ${failure.batchId}`, e);
    }
  }

  async recentFailures(limit: number): Promise<BatchFailure[]> {
    let items: (StoredItem & { readonly sk: string })[];
    try {
      const result = await this.db.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :failure)',
          ExpressionAttributeValues: { ':pk': this.pk, ':failure': 'failure#' },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      items = (result.Items ?? []) as typeof items;
    } catch (e) {
      throw this.failure('read the recent failures', e);
    }
    return items.map((item) =>
      decodeCheckpointRecord<BatchFailure>(item.record ?? '', `${this.location} item ${item.sk}`),
    );
  }

  private async readRecord<T>(sk: string, batchId?: number): Promise<T | undefined> {
    const item = await this.getItem(sk);
    return item ? this.recordOf<T>(item, sk, batchId) : undefined;
  }

  /** The record item `sk` holds, inline or in the object store; checked as `readRecord` says. */
  private async recordOf<T>(item: StoredItem, sk: string, batchId?: number): Promise<T> {
    const name = `${this.location} item ${sk}`;
    if (batchId !== undefined)
      requireBatch(`${name} (its batchId attribute)`, item.batchId, batchId);
    if (item.record !== undefined) return decodeCheckpointRecord<T>(item.record, name, batchId);
    if (item.recordKey && this.options.largeRecords) {
      const recordKey = resolveStoredReference(item.recordKey, {
        root: `Checkpoint objects ${this.options.largeRecords.location}`,
        entry: `${this.location} item ${sk}`,
        encoding: 'key',
      });
      const bytes = await this.options.largeRecords.get(recordKey);
      if (!bytes) {
        throw new CheckpointError(
          `${this.location} ${sk} references ${item.recordKey}, which is missing from ${this.options.largeRecords.location}.`,
        );
      }
      const text = Buffer.from(bytes).toString('utf8');
      return decodeCheckpointRecord<T>(text, `${name} (${item.recordKey})`, batchId);
    }
    throw new CheckpointError(
      `${this.location} item ${sk} has no record; the checkpoint is damaged.`,
    );
  }

  private async getItem(sk: string): Promise<StoredItem | undefined> {
    try {
      const result = await this.db.send(
        new GetCommand({
          TableName: this.options.tableName,
          Key: this.key(sk),
          ConsistentRead: true,
        }),
      );
      return result.Item as StoredItem | undefined;
    } catch (e) {
      throw this.failure(`read ${sk}`, e);
    }
  }

  private key(sk: string): { pk: string; sk: string } {
    return { pk: this.pk, sk };
  }

  private failure(action: string, e: unknown): Error {
    return awsFailure(`Could not ${action} in ${this.location}`, e);
  }
}

/**
 * A checkpoint item from raw attribute values (as a failed condition returns it): the attributes
 * the store reads, each of the type it writes; anything else is left out, as a read leaves it unused.
 */
function storedItem(attributes: Record<string, AttributeValue>): StoredItem {
  const text = (name: string) => attributes[name]?.S;
  const number = (name: string) => {
    const n = attributes[name]?.N;
    return n === undefined ? undefined : Number(n);
  };
  return {
    record: text('record'),
    recordKey: text('recordKey'),
    batchId: number('batchId'),
    epoch: number('epoch'),
    leaseOwner: text('leaseOwner'),
    leaseExpiresAt: number('leaseExpiresAt'),
  };
}

function intentKey(batchId: number): string {
  return `offsets#${sortableId(batchId)}`;
}

function commitKey(batchId: number): string {
  return `commit#${sortableId(batchId)}`;
}

/**
 * At most 36 characters, the same for every retry of one commit and different for any other: the
 * scope tells shards apart, as DynamoDB remembers a token account-wide for ten minutes.
 */
function commitToken(scope: string, batchId: number, epoch: number): string {
  return createHash('sha256').update(`${scope}|${batchId}|${epoch}`).digest('hex').slice(0, 36);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
