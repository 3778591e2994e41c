/**
 * The watermark of a query that runs as shards (docs/semantics.md, "The watermark of a sharded
 * query"). Each shard publishes its own watermark with each commit (its head's
 * `nextWatermarkMicros`) and the time it last read input (`lastInputAtMs`). The query's watermark is
 * the minimum over the shards that count:
 *   - a shard that has no watermark yet (it never saw a row with an event time: its partitions are
 *     empty so far) does not count, as Spark leaves out a watermark operator that saw no data;
 *   - a shard that read no input for longer than `idleTimeoutMs` before the shard that read input
 *     last is idle and does not count, so one quiet partition cannot hold the query back forever;
 *     it counts again with its next batch that reads input.
 * Idleness is measured between the shards' own batch times, not against the clock: when every shard
 * goes quiet, the watermark stays where it is, as a single query's does without new data.
 * Without any shard that counts, the query has no watermark yet.
 */
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { DEFAULT_SHARD_IDLE_TIMEOUT_MS } from '../checkpoint/shard-identity.js';

/** What one shard published with its last commit. */
export interface ShardWatermark {
  readonly shard: number;
  /** The watermark its next batch runs under (null: none yet). */
  readonly watermarkMicros: number | null;
  /** When it last read input (ms); undefined when it never did. */
  readonly lastInputAtMs: number | undefined;
}

/** The query watermark, and the shards left out of it as idle. */
export interface QueryWatermark {
  /** The minimum over the shards that count (null: none counts yet). */
  readonly watermarkMicros: number | null;
  /** Shards with a watermark that were left out because they read no input for too long. */
  readonly idleShards: readonly number[];
}

/** The query watermark over `shards` by the rule above. */
export function queryWatermark(
  shards: readonly ShardWatermark[],
  idleTimeoutMs: number = DEFAULT_SHARD_IDLE_TIMEOUT_MS,
): QueryWatermark {
  const withData = shards.filter((s) => s.watermarkMicros !== null);
  const latestInput = Math.max(...withData.map((s) => s.lastInputAtMs ?? -Infinity));
  const isIdle = (s: ShardWatermark) =>
    s.lastInputAtMs !== undefined && latestInput - s.lastInputAtMs > idleTimeoutMs;
  const counted = withData.filter((s) => !isIdle(s));
  return {
    watermarkMicros:
      counted.length === 0 ? null : Math.min(...counted.map((s) => s.watermarkMicros!)),
    idleShards: withData.filter(isIdle).map((s) => s.shard),
  };
}

/** What shard `shard`'s checkpoint published with its last commit (one read of its head). */
export async function readShardWatermark(
  shard: number,
  checkpoint: CheckpointStore,
): Promise<ShardWatermark> {
  const head = await checkpoint.latestCommit();
  return {
    shard,
    watermarkMicros: head?.nextWatermarkMicros ?? null,
    lastInputAtMs: head?.lastInputAtMs,
  };
}
