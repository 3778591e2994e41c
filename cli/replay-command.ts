/**
 * `sluice replay <query-module> --batch N`: re-runs batch N of a query locally, from its intent
 * (offsets, batch time, watermark) and the state version it started from, and prints its output.
 * Nothing is written: not the sink (the query's own is never opened), not state, not the
 * checkpoint. Given the same module, the output is the batch's output, wherever it first ran.
 */
import type { Command } from 'commander';
import { CheckpointError, SluiceSession, type Sink } from '../core/index.js';
import { formatTable } from '../core/io/text-table.js';
import { toRowObject } from '../core/types/row.js';
import {
  type LocationOptions,
  openCheckpointBackend,
  withLocationOptions,
} from './checkpoint-location.js';
import { nonNegativeInteger } from './integer-option.js';
import { loadQueryModule } from './query-module-loader.js';

/** Stands in for the query's sink: a replay plans with it but never writes. */
const NO_SINK: Sink = {
  description: 'replay (writes nothing)',
  addBatch: () => Promise.reject(new Error('internal error: a replay never writes its batch')),
};

/** Adds `replay` to the program. */
export function addReplayCommand(program: Command): void {
  withLocationOptions(
    program
      .command('replay')
      .description('re-run a committed batch locally from its intent and print its output'),
  )
    .argument('<query-module>', 'the query module the checkpoint belongs to')
    .requiredOption('--batch <id>', 'the batch to re-run', nonNegativeInteger)
    .option('--json', 'print one JSON row per line')
    .action(
      async (module: string, options: LocationOptions & { batch: number; json?: boolean }) => {
        const backend = await openCheckpointBackend(options);
        if (!(await backend.checkpoint.getMetadata())) {
          throw new CheckpointError(
            `${backend.checkpoint.location} holds no checkpoint: check the location; replay reads batches a query committed.`,
          );
        }
        const build = await loadQueryModule(module);
        const writer = build(new SluiceSession()).sink(NO_SINK).checkpoint(backend);
        const execution = await writer.check().start();
        try {
          const { intent, schema, rows } = await execution.replayBatch(options.batch);
          process.stderr.write(
            `batch ${intent.batchId}: offsets ${JSON.stringify(intent.start)} to ${JSON.stringify(intent.end)}, ` +
              `batch time ${new Date(intent.batchTimestampMs).toISOString()}, watermark ${
                intent.watermarkMicros === null
                  ? 'none'
                  : new Date(intent.watermarkMicros / 1000).toISOString()
              }, ${rows.length} rows out\n`,
          );
          process.stdout.write(
            options.json
              ? rows.map((r) => `${JSON.stringify(toRowObject(r, schema))}\n`).join('')
              : `${formatTable(rows, schema, false)}\n`,
          );
        } finally {
          await execution.stop();
        }
      },
    );
}
