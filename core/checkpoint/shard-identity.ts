/**
 * Which shard of a query an execution is (docs/scale-out.md). A query with parallelism N runs as N
 * shards, each reading its share of the source's partitions, with its own head, lease, intents,
 * state and progress. A query split into stages (a repartition between them) numbers its stages
 * from 0; a query without stages is stage 0.
 *
 * The unsharded query (stage 0, one shard) keeps the checkpoint layout it always had, so checkpoints
 * written before shards existed still read; every other shard lives under its own key segment.
 */
import { InvalidOptionError } from '../errors.js';

/** One shard of one stage of a query. */
export interface ShardIdentity {
  /** The stage, from 0 (a query without stages is stage 0). */
  readonly stage: number;
  /** This shard, from 0 to `shards - 1`. */
  readonly shard: number;
  /** How many shards the stage runs as: its parallelism. */
  readonly shards: number;
}

/**
 * How long a shard may read no input before it stops holding back the watermark of the shards
 * after it: the query watermark over a stage's shards (core/streaming/query-watermark.ts), and stage
 * 2's ceiling over stage 1's (core/kafka/repartition-admission.ts).
 */
export const DEFAULT_SHARD_IDLE_TIMEOUT_MS = 5 * 60_000;

/** The one shard of a query that is not split. */
export const UNSHARDED: ShardIdentity = { stage: 0, shard: 0, shards: 1 };

/**
 * `identity`, checked: whole numbers, at least one shard, `shard` below `shards`. `setting` names
 * where it came from (`SLUICE_SHARD`, `parallelism`), for the message of the InvalidOptionError.
 */
export function validateShardIdentity(identity: ShardIdentity, setting: string): ShardIdentity {
  const { stage, shard, shards } = identity;
  const whole = (n: number) => Number.isInteger(n) && n >= 0;
  if (!whole(stage) || !whole(shard) || !whole(shards) || shards < 1 || shard >= shards) {
    throw new InvalidOptionError(
      `${setting}: shard ${shard} of ${shards} (stage ${stage}) is invalid: parallelism must be a whole number of at least 1, and the shard a whole number from 0 to parallelism - 1.`,
    );
  }
  return identity;
}

/** True for the shard whose checkpoint has the layout of a query without shards. */
export function isUnsharded(identity: ShardIdentity): boolean {
  return identity.stage === 0 && identity.shards === 1;
}

/**
 * The key segments of a shard's checkpoint below its query's, e.g. `['0', '3']` for shard 3 of
 * stage 0: none for the unsharded query. Each backend joins them its own way (`query#<id>#0#3` on
 * DynamoDB, `<prefix>/<id>/stages/0/shards/3` on S3 and on disk).
 */
export function shardKeySegments(identity: ShardIdentity): readonly string[] {
  return isUnsharded(identity) ? [] : [String(identity.stage), String(identity.shard)];
}

/** The object-store path of a shard's state below its query's, without '/' at either end ('' unsharded). */
export function shardStatePath(identity: ShardIdentity): string {
  return isUnsharded(identity) ? '' : `stages/${identity.stage}/shards/${identity.shard}`;
}

/** Every shard of the stage `identity` belongs to, in shard order. */
export function shardsOfStage(identity: ShardIdentity): ShardIdentity[] {
  return Array.from({ length: identity.shards }, (_, shard) => ({ ...identity, shard }));
}

/** `shard 3/4` (and the stage when there is more than the first), for messages and tables. */
export function describeShard(identity: ShardIdentity): string {
  const stage = identity.stage === 0 ? '' : `stage ${identity.stage} `;
  return `${stage}shard ${identity.shard}/${identity.shards}`;
}
