/**
 * A query's parallelism (docs/scale-out.md): how many shards it runs as, fixed when its checkpoint is
 * created. The query's own checkpoint (the unsharded layout, `query#<id>` or the checkpoint
 * directory) records it in its metadata: a query with parallelism 1 writes its metadata as it always
 * did (no parallelism, read as 1); the first shard of a query with more creates it there with its
 * count. A start with another count is refused before it writes anything, since each shard's state
 * holds only its share of the keys.
 */
import { randomUUID } from 'node:crypto';
import {
  CHECKPOINT_FORMAT_VERSION,
  type CheckpointStore,
  type QueryMetadata,
} from '../checkpoint/checkpoint-store.js';
import { MemoryObjectStore } from '../checkpoint/memory-object-store.js';
import { describeShard, type ShardIdentity } from '../checkpoint/shard-identity.js';
import { ParallelismChangedError, UnsupportedOperationError } from '../errors.js';
import { allNodes, type LogicalPlan, type StreamingRelation } from '../plan/logical-plan.js';
import type { OutputMode } from '../sinks/sink.js';

/** The parallelism `metadata` records: 1 when it records none. */
export function recordedParallelism(metadata: QueryMetadata): number {
  return metadata.parallelism ?? 1;
}

/** Throws ParallelismChangedError when `metadata` records another parallelism than `requested`. */
export function checkParallelism(
  metadata: QueryMetadata,
  requested: number,
  location: string,
): void {
  const recorded = recordedParallelism(metadata);
  if (recorded !== requested) throw new ParallelismChangedError(location, recorded, requested);
}

/**
 * Records `parallelism` in the query's checkpoint `query` unless its metadata exists, then checks
 * that the metadata there (this start's, or the first start's) records that parallelism.
 */
export async function claimParallelism(
  query: CheckpointStore,
  parallelism: number,
  plan: { readonly planFingerprint: string; readonly numStatePartitions: number },
): Promise<void> {
  let metadata = await query.getMetadata();
  if (!metadata) {
    const fresh: QueryMetadata = {
      formatVersion: CHECKPOINT_FORMAT_VERSION,
      queryId: randomUUID(),
      ...plan,
      parallelism,
    };
    const created = await query.createMetadata(fresh);
    metadata = created.kind === 'created' ? fresh : created.metadata;
  }
  checkParallelism(metadata, parallelism, query.location);
}

/**
 * Refuses, at start, a shard of a query with parallelism above 1 that shards could not run
 * correctly: a source that cannot read only its shard's share would be read whole by every shard,
 * and complete mode has each shard write the whole result of its share, which a sink that replaces
 * its contents each batch (Delta, files, memory) would make the only rows of the table. Checked
 * before the checkpoint is touched, on sources made for the look alone (a source does no I/O until
 * asked for offsets), so a refused start records no parallelism.
 */
export function checkShardable(
  shard: ShardIdentity,
  plan: LogicalPlan,
  outputMode: OutputMode,
): void {
  if (shard.shards === 1) return;
  const whole = allNodes(plan)
    .filter((n): n is StreamingRelation => n.kind === 'streamingRelation')
    .map((r) => r.source({ metadataStore: new MemoryObjectStore(), shard }))
    .find((s) => s.splitsAcrossShards !== true);
  if (whole) {
    throw new UnsupportedOperationError(
      `${describeShard(shard)}: source ${whole.description} cannot be split across shards; run the query with parallelism 1, or read a Kafka topic or files, which split by partition and by path.`,
    );
  }
  if (outputMode === 'complete') {
    throw new UnsupportedOperationError(
      `${describeShard(shard)}: output mode complete is not supported with parallelism ${shard.shards}: each shard holds only its share of the result. Use update or append mode, or parallelism 1.`,
    );
  }
}
