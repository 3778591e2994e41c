/**
 * `sluice status`: what a query's checkpoint says about it (core/streaming/checkpoint-status.ts),
 * for a local checkpoint directory or a deployed query's DynamoDB checkpoint: the last committed
 * batch, the watermark, the lease holder, a batch planned but not committed, the source lag and
 * the last batch's progress.
 */
import type { Command } from 'commander';
import { checkpointStatus, type CheckpointStatus, progressLine } from '../core/index.js';
import {
  type LocationOptions,
  openCheckpointStore,
  withLocationOptions,
} from './checkpoint-location.js';

/** Adds `status` to the program. */
export function addStatusCommand(program: Command): void {
  withLocationOptions(
    program
      .command('status')
      .description("show a query's last committed batch, watermark, lease, lag and last progress"),
  )
    .option('--json', 'print the status as JSON')
    .action(async (options: LocationOptions & { json?: boolean }) => {
      const status = await checkpointStatus(await openCheckpointStore(options));
      process.stdout.write(
        options.json ? `${JSON.stringify(status, null, 2)}\n` : statusText(status),
      );
    });
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
  ];
  return `${lines.join('\n')}\n`;
}

function leaseText(s: CheckpointStatus): string {
  if (!s.lease) return 'not held (or advisory: a local checkpoint records no holder)';
  const until = new Date(s.lease.expiresAtMs).toISOString();
  return `${s.lease.owner} ${s.lease.expired ? `(expired at ${until})` : `until ${until}`}`;
}
