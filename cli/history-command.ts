/**
 * `sluice history`: the progress records of a query's recent batches as a table (or JSON), read
 * from its commits (core/streaming/progress-history.ts).
 */
import type { Command } from 'commander';
import {
  DEFAULT_HISTORY_LENGTH,
  progressHistory,
  type StreamingQueryProgress,
} from '../core/index.js';
import {
  type LocationOptions,
  openCheckpointStore,
  withLocationOptions,
} from './checkpoint-location.js';
import { positiveInteger } from './integer-option.js';
import { type TableColumn, textTable } from './text-table.js';

const COLUMNS: readonly TableColumn<StreamingQueryProgress>[] = [
  { name: 'batch', type: 'BIGINT', value: (p) => p.batchId },
  { name: 'timestamp', type: 'STRING', value: (p) => p.timestamp },
  { name: 'input rows', type: 'BIGINT', value: (p) => p.numInputRows },
  { name: 'output rows', type: 'BIGINT', value: (p) => p.sink.numOutputRows },
  { name: 'rows/s', type: 'BIGINT', value: (p) => Math.round(p.processedRowsPerSecond) },
  { name: 'ms', type: 'BIGINT', value: (p) => p.durationMs.triggerExecution },
  { name: 'watermark', type: 'STRING', value: (p) => p.eventTime.watermark },
  {
    name: 'state rows',
    type: 'BIGINT',
    value: (p) => p.stateOperators.reduce((n, s) => n + s.numRowsTotal, 0),
  },
];

/** Adds `history` to the program. */
export function addHistoryCommand(program: Command): void {
  withLocationOptions(
    program.command('history').description("show a query's recent batches' progress as a table"),
  )
    .option(
      '-n, --limit <batches>',
      'how many recent batches',
      positiveInteger,
      DEFAULT_HISTORY_LENGTH,
    )
    .option('--json', "print Spark's StreamingQueryProgress JSON, one record per line")
    .action(async (options: LocationOptions & { limit: number; json?: boolean }) => {
      const history = await progressHistory(await openCheckpointStore(options), options.limit);
      if (options.json) {
        process.stdout.write(history.map((p) => `${JSON.stringify(p)}\n`).join(''));
      } else if (history.length === 0) {
        process.stdout.write(
          'no progress recorded (no committed batch, or written before Sluice stored progress)\n',
        );
      } else {
        process.stdout.write(`${textTable(history, COLUMNS)}\n`);
      }
    });
}
