/**
 * `sluice status`: what a query's checkpoint says about it (core/streaming/checkpoint-status.ts),
 * for a local checkpoint directory or a deployed query's DynamoDB checkpoint: the last committed
 * batch, the watermark, the lease holder, a batch planned but not committed, the source lag and
 * the last batch's progress, and the recent failed attempts. For a query that runs as shards (its checkpoint records a parallelism
 * above 1), one row per shard (last batch, watermark, lease holder, lag) and the query watermark.
 */
import type { Command } from 'commander';
import {
  checkpointStatus,
  type CheckpointStatus,
  progressLine,
  shardedQueryStatus,
  type ShardedQueryStatus,
} from '../core/index.js';
import {
  type LocationOptions,
  openCheckpointStore,
  withLocationOptions,
} from './checkpoint-location.js';
import { nonNegativeInteger } from './integer-option.js';
import { textTable } from './text-table.js';

/** Adds `status` to the program. */
export function addStatusCommand(program: Command): void {
  withLocationOptions(
    program
      .command('status')
      .description(
        "show a query's last committed batch, watermark, lease, lag, last progress and recent failures",
      ),
  )
    .option('--json', 'print the status as JSON')
    .option(
      '--idle-timeout-ms <ms>',
      'a shard that read no input this long before the latest one is left out of the query watermark',
      nonNegativeInteger,
    )
    .action(async (options: LocationOptions & { json?: boolean; idleTimeoutMs?: number }) => {
      const query = await openCheckpointStore(options);
      const sharded = await shardedQueryStatus(query, {
        shardCheckpoint: (shard) => openCheckpointStore(options, shard),
        ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      });
      const status = sharded ?? (await checkpointStatus(query));
      const text = sharded ? shardedText(sharded) : statusText(status as CheckpointStatus);
      process.stdout.write(options.json ? `${JSON.stringify(status, null, 2)}\n` : text);
    });
}

/** A sharded query's status: the query watermark, then one row per shard. */
function shardedText(s: ShardedQueryStatus): string {
  const idle =
    s.idleShards.length === 0 ? '' : ` (idle, left out: shards ${s.idleShards.join(', ')})`;
  const table = textTable(s.shards, [
    { name: 'shard', type: 'BIGINT', value: (r) => r.shard },
    { name: 'last batch', type: 'BIGINT', value: (r) => r.status?.lastCommittedBatch },
    { name: 'watermark', type: 'STRING', value: (r) => r.status?.nextWatermark },
    {
      name: 'lease holder',
      type: 'STRING',
      value: (r) => (r.status ? leaseText(r.status) : 'not started'),
    },
    {
      name: 'lag',
      type: 'BIGINT',
      value: (r) =>
        r.status && r.status.sourceLag.length > 0
          ? r.status.sourceLag.reduce((n, l) => n + l.lag, 0)
          : undefined,
    },
    {
      name: 'last failure',
      type: 'STRING',
      value: (r) => {
        const f = r.status?.recentFailures[0];
        return f && `batch ${f.batchId} at ${new Date(f.atMs).toISOString()}: ${f.error}`;
      },
    },
  ]);
  return `parallelism: ${s.parallelism}\nquery watermark: ${s.queryWatermark ?? 'none'}${idle}\n${table}`;
}

/** The status as lines of `name: value`. */
function statusText(s: CheckpointStatus): string {
  const lines = [
    `checkpoint: ${s.location}`,
    `query id: ${s.queryId}`,
    `last committed batch: ${s.lastCommittedBatch ?? 'none yet'}`,
    `watermark: ${s.nextWatermark ?? 'none'}`,
    `lease: ${leaseText(s)}`,
    `uncommitted batch: ${
      s.uncommittedBatch
        ? `${s.uncommittedBatch.batchId}, planned at ${s.uncommittedBatch.plannedAt} (running, or failed and to be re-run from its intent)`
        : 'none'
    }`,
    `source lag: ${
      s.sourceLag.length === 0
        ? 'unknown'
        : s.sourceLag.map((l) => `${l.description} ${l.lag} offsets behind`).join('; ')
    }`,
    `last progress: ${s.lastProgress ? progressLine(s.lastProgress) : 'none recorded'}`,
    `recent failures:${s.recentFailures.length === 0 ? ' none recorded' : ''}`,
    ...s.recentFailures.map(
      (f) =>
        `  batch ${f.batchId} at ${new Date(f.atMs).toISOString()}, in step ${f.step} (run ${f.owner}): ${f.error}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

function leaseText(s: CheckpointStatus): string {
  if (!s.lease) return 'not held (or advisory: a local checkpoint records no holder)';
  const until = new Date(s.lease.expiresAtMs).toISOString();
  return `${s.lease.owner} ${s.lease.expired ? `(expired at ${until})` : `until ${until}`}`;
}
