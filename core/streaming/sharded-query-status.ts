/**
 * What the checkpoints of a query that runs as shards say about it (for `sluice status`): every
 * shard's status (core/streaming/checkpoint-status.ts) and the query watermark over them by the rule
 * of query-watermark.ts, read without taking any lease.
 */
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { type ShardIdentity, shardsOfStage } from '../checkpoint/shard-identity.js';
import { CheckpointError } from '../errors.js';
import { checkpointStatus, type CheckpointStatus } from './checkpoint-status.js';
import { eventTimeText } from './progress.js';
import { recordedParallelism } from './query-parallelism.js';
import { DEFAULT_SHARD_IDLE_TIMEOUT_MS } from '../checkpoint/shard-identity.js';
import { queryWatermark, readShardWatermark } from './query-watermark.js';

/** A sharded query's status. */
export interface ShardedQueryStatus {
  readonly parallelism: number;
  /** The query watermark (ISO 8601), when a shard counts toward it. */
  readonly queryWatermark?: string;
  /** Shards left out of the query watermark as idle. */
  readonly idleShards: readonly number[];
  /** Every shard, in shard order, with its status (undefined: it has not started yet). */
  readonly shards: readonly {
    readonly shard: number;
    readonly status: CheckpointStatus | undefined;
  }[];
}

/** How to read a sharded query's status. */
export interface ShardedStatusOptions {
  /** The checkpoint of the shard `identity` of the query. */
  readonly shardCheckpoint: (identity: ShardIdentity) => CheckpointStore | Promise<CheckpointStore>;
  readonly nowMs?: number;
  /** @default DEFAULT_SHARD_IDLE_TIMEOUT_MS */
  readonly idleTimeoutMs?: number;
}

/**
 * The status of the query whose own checkpoint is `query`, shard by shard, or undefined when the
 * query runs unsharded (its parallelism is 1: `query` is its only checkpoint).
 */
export async function shardedQueryStatus(
  query: CheckpointStore,
  options: ShardedStatusOptions,
): Promise<ShardedQueryStatus | undefined> {
  const metadata = await query.getMetadata();
  if (!metadata) {
    throw new CheckpointError(
      `${query.location} holds no checkpoint: check the location (or the table and query id); a query creates its checkpoint when it first starts.`,
    );
  }
  const parallelism = recordedParallelism(metadata);
  if (parallelism === 1) return undefined;
  const identities = shardsOfStage({ stage: 0, shard: 0, shards: parallelism });
  const shards = await Promise.all(
    identities.map(async (identity) => {
      const checkpoint = await options.shardCheckpoint(identity);
      const started = (await checkpoint.getMetadata()) !== undefined;
      const [status, watermark] = await Promise.all([
        started ? checkpointStatus(checkpoint, options.nowMs) : undefined,
        readShardWatermark(identity.shard, checkpoint),
      ]);
      return { status: { shard: identity.shard, status }, watermark };
    }),
  );
  const overall = queryWatermark(
    shards.map((s) => s.watermark),
    options.idleTimeoutMs ?? DEFAULT_SHARD_IDLE_TIMEOUT_MS,
  );
  return {
    parallelism,
    ...(overall.watermarkMicros === null
      ? {}
      : { queryWatermark: eventTimeText(overall.watermarkMicros) }),
    idleShards: overall.idleShards,
    shards: shards.map((s) => s.status),
  };
}
