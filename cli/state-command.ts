/**
 * `sluice state`: a stateful operator's state store at a committed batch, as a table or JSON lines
 * (core/state/state-store-reader.ts); without `--operator`, the stores the version holds.
 */
import type { Command } from 'commander';
import {
  listStateStores,
  readStateStore,
  type StateStoreListing,
  type StateStoreRow,
} from '../core/index.js';
import {
  type LocationOptions,
  openCheckpointBackend,
  withLocationOptions,
} from './checkpoint-location.js';
import { nonNegativeInteger } from './integer-option.js';
import { type TableColumn, textTable } from './text-table.js';

interface StateOptions extends LocationOptions {
  readonly operator?: number;
  readonly store: string;
  readonly batch?: number;
  readonly json?: boolean;
}

const STORE_COLUMNS: readonly TableColumn<StateStoreListing>[] = [
  { name: 'operator', type: 'BIGINT', value: (s) => s.operatorId },
  { name: 'store', type: 'STRING', value: (s) => s.storeName },
  { name: 'partitions', type: 'BIGINT', value: (s) => s.numPartitions },
  { name: 'state version', type: 'BIGINT', value: (s) => s.stateVersion },
  { name: 'state schema', type: 'STRING', value: (s) => s.stateSchema },
];

const ROW_COLUMNS: readonly TableColumn<StateStoreRow>[] = [
  { name: 'partition', type: 'BIGINT', value: (r) => r.partition },
  { name: 'key', type: 'STRING', value: (r) => r.key },
  { name: 'value', type: 'STRING', value: (r) => JSON.stringify(r.value) },
];

/** Adds `state` to the program. */
export function addStateCommand(program: Command): void {
  withLocationOptions(
    program
      .command('state')
      .description("show a stateful operator's state at a committed batch (or list the stores)"),
  )
    .option(
      '--operator <id>',
      'the stateful operator (see the list without it)',
      nonNegativeInteger,
    )
    .option('--store <name>', "the operator's state store", 'default')
    .option('--batch <id>', 'the committed batch (default: the latest)', nonNegativeInteger)
    .option('--json', 'print one JSON object per line')
    .action(async (options: StateOptions) => {
      const backend = await openCheckpointBackend(options);
      if (options.operator === undefined) {
        print(await listStateStores(backend, options.batch), STORE_COLUMNS, options.json);
        return;
      }
      const selection = { operatorId: options.operator, storeName: options.store };
      print(await readStateStore(backend, selection, options.batch), ROW_COLUMNS, options.json);
    });
}

function print<T>(rows: readonly T[], columns: readonly TableColumn<T>[], json?: boolean): void {
  process.stdout.write(
    json ? rows.map((r) => `${JSON.stringify(r)}\n`).join('') : `${textTable(rows, columns)}\n`,
  );
}
