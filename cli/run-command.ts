/**
 * `sluice run <query-module>`: runs a query module locally on a checkpoint directory until its
 * trigger ends it (once, availableNow) or Ctrl-C. Each batch prints its progress line; a backfill
 * (availableNow) on a terminal shows a progress bar instead. Ctrl-C stops cleanly after the batch
 * in flight, so the checkpoint never holds a half-run batch it did not mean to; a second Ctrl-C
 * exits at once (the batch in flight is then re-run from its intent by the next run).
 */
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import {
  progressLine,
  SluiceSession,
  type StreamingQueryProgress,
  type Trigger,
} from '../core/index.js';
import { CliUsageError } from './cli-usage-error.js';
import { loadQueryModule } from './query-module-loader.js';

/** The options of `sluice run`. */
interface RunOptions {
  readonly checkpoint: string;
  readonly once?: boolean;
  readonly availableNow?: boolean;
  readonly processingTime?: string;
}

/** Adds `run` to the program. */
export function addRunCommand(program: Command): void {
  program
    .command('run')
    .description('run a query module locally against a checkpoint directory')
    .argument(
      '<query-module>',
      'a module whose default export maps a SluiceSession to df.writeStream',
    )
    .requiredOption('-c, --checkpoint <dir>', 'checkpoint directory (created on first run)')
    .option('--once', 'run one batch with everything available, then stop')
    .option(
      '--available-now',
      'process everything available now in batches (a backfill), then stop',
    )
    .option('--processing-time <interval>', "start a batch every interval, e.g. '10 seconds'")
    .action((module: string, options: RunOptions) => runQuery(module, options));
}

async function runQuery(module: string, options: RunOptions): Promise<void> {
  const build = await loadQueryModule(module);
  const session = new SluiceSession();
  const writer = build(session).option('checkpointLocation', options.checkpoint);
  const trigger = triggerOf(options);
  if (trigger) writer.trigger(trigger);
  const report = progressReporter(trigger !== undefined && 'availableNow' in trigger);
  session.streams.addListener({ onQueryProgress: ({ progress }) => report.batch(progress) });
  const query = await writer.start();
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('stopping after the batch in flight (Ctrl-C again to exit at once)\n');
    void query.stop();
  });
  try {
    await query.awaitTermination();
  } finally {
    report.end();
  }
  const last = query.lastProgress?.batchId;
  process.stderr.write(
    `${interrupted ? 'stopped' : 'finished'}: ${last === undefined ? 'no batch committed' : `last committed batch ${last}`}\n`,
  );
}

/** The trigger the flags ask for, if any (else the module's own). */
function triggerOf(options: RunOptions): Trigger | undefined {
  const given = [options.once, options.availableNow, options.processingTime !== undefined];
  if (given.filter(Boolean).length > 1) {
    throw new CliUsageError('give at most one of --once, --available-now, --processing-time');
  }
  if (options.once) return { once: true };
  if (options.availableNow) return { availableNow: true };
  if (options.processingTime !== undefined) return { processingTime: options.processingTime };
  return undefined;
}

/**
 * Reports batches on stderr: a progress bar for a backfill on a terminal, else one line per batch
 * (which shows a backfill's share done as text).
 */
function progressReporter(backfill: boolean) {
  if (!backfill || !process.stderr.isTTY) {
    return {
      batch: (p: StreamingQueryProgress) => process.stderr.write(`${progressLine(p)}\n`),
      end: () => {},
    };
  }
  const bar = new SingleBar({
    stream: process.stderr,
    format: 'backfill [{bar}] {percentage}% | batch {batchId} | {value}/{total} | {rows} rows',
  });
  bar.start(1, 0, { batchId: '-', rows: 0 });
  let rows = 0;
  return {
    batch: (p: StreamingQueryProgress) => {
      rows += p.numInputRows;
      if (p.backfill) bar.setTotal(p.backfill.total);
      bar.update(p.backfill?.done ?? 0, { batchId: p.batchId, rows });
    },
    end: () => bar.stop(),
  };
}
