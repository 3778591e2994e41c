/**
 * State as a table, as Spark 3.5+'s state data source: `session.read.format('statestore')
 * .load(checkpoint)` gives the rows of one state store (options `operatorId`, default 0;
 * `storeName`, default `default`; `batchId`, default the latest commit) with the columns `key`,
 * `value` and `partition_id`; `format('state-metadata')` gives one row per state store. The
 * checkpoint is a local checkpoint directory given to `load`, or a deployed query's, named by the
 * options `checkpointTable`, `queryId` and `stateLocation` (deployed-checkpoint-options.ts) with
 * `load()`. Either way the rows are the state the operator would load: snapshots, deltas and the
 * changes the commit carries. Sluice's key is the store's key text and the value its stored JSON,
 * not Spark's key and value structs. Read each time the DataFrame runs.
 */
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import { localCheckpointBackend } from '../checkpoint/local-checkpoint-backend.js';
import { InvalidOptionError } from '../errors.js';
import { newPlanId } from '../plan/logical-plan.js';
import { readStateMetadata } from '../state/state-metadata-reader.js';
import { readStateStore } from '../state/state-store-reader.js';
import { parseSchema } from '../types/type-names.js';
import { DataFrame } from './dataframe.js';
import {
  DEPLOYED_CHECKPOINT_OPTIONS,
  deployedCheckpointLocation,
  openDeployedCheckpoint,
} from './deployed-checkpoint-options.js';
import type { OptionValue } from './reader-options.js';
import type { SluiceSession } from './session.js';

/** The formats of the state data source. */
export type StateFormatName = 'statestore' | 'state-metadata';

const STATE_STORE_SCHEMA = parseSchema('key STRING, value STRING, partition_id INT');
const STATE_METADATA_SCHEMA = parseSchema(
  'operatorId INT, operatorName STRING, stateStoreName STRING, numPartitions INT, minBatchId BIGINT, maxBatchId BIGINT',
);
/** The options of each format, as a user spells them. */
export const STATE_SOURCE_OPTIONS: Readonly<Record<StateFormatName, readonly string[]>> = {
  statestore: ['operatorId', 'storeName', 'batchId', ...DEPLOYED_CHECKPOINT_OPTIONS],
  'state-metadata': [...DEPLOYED_CHECKPOINT_OPTIONS],
};

/** Whether `name` names a format of the state data source. */
export function isStateFormat(name: string): name is StateFormatName {
  return name === 'statestore' || name === 'state-metadata';
}

/**
 * The DataFrame of `format` over the checkpoint directory `checkpoint`, or over the deployed
 * checkpoint the options name.
 */
export function stateFrame(
  session: SluiceSession,
  format: StateFormatName,
  checkpoint: string | undefined,
  options: ReadonlyMap<string, OptionValue>,
): DataFrame {
  checkOptionNames(format, options);
  const { name, open } = checkpointOf(session, format, checkpoint, options);
  if (format === 'state-metadata') {
    return relation(session, `state-metadata[${name}]`, STATE_METADATA_SCHEMA, async () =>
      (await readStateMetadata(await open())).map((m) => [
        m.operatorId,
        m.operatorName,
        m.stateStoreName,
        m.numPartitions,
        m.minBatchId,
        m.maxBatchId,
      ]),
    );
  }
  const selection = {
    operatorId: wholeNumber(options, 'operatorid', 'operatorId') ?? 0,
    storeName: String(options.get('storename') ?? 'default'),
  };
  const batchId = wholeNumber(options, 'batchid', 'batchId');
  return relation(session, `statestore[${name}]`, STATE_STORE_SCHEMA, async () =>
    (await readStateStore(await open(), selection, batchId)).map((r) => [
      r.key,
      JSON.stringify(r.value),
      r.partition,
    ]),
  );
}

function checkOptionNames(format: StateFormatName, options: ReadonlyMap<string, OptionValue>) {
  const known = STATE_SOURCE_OPTIONS[format];
  const unknown = [...options.keys()].filter(
    (k) => !known.some((name) => name.toLowerCase() === k),
  );
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `format('${format}') has no option '${unknown[0]}'; it takes ${known.slice(0, -1).join(', ')} and ${known[known.length - 1]}.`,
    );
  }
}

/** The checkpoint to read, named for the plan, and how to open it when the DataFrame runs. */
function checkpointOf(
  session: SluiceSession,
  format: StateFormatName,
  checkpoint: string | undefined,
  options: ReadonlyMap<string, OptionValue>,
): { name: string; open: () => Promise<CheckpointBackend> } {
  const deployed = deployedCheckpointLocation(format, options);
  if (deployed && checkpoint !== undefined) {
    throw new InvalidOptionError(
      `format('${format}') reads either the checkpoint directory given to load('${checkpoint}') or the deployed one of option checkpointTable, not both: call load() without a path.`,
    );
  }
  if (deployed) {
    return {
      name: `${deployed.tableName}/${deployed.queryId}`,
      open: () => openDeployedCheckpoint(session, deployed),
    };
  }
  if (checkpoint === undefined) {
    throw new InvalidOptionError(
      `format('${format}') reads a checkpoint: load('path/to/checkpoint') with the query's checkpointLocation, or, for a deployed query, options checkpointTable, queryId and stateLocation with load().`,
    );
  }
  const backend = localCheckpointBackend(checkpoint);
  return { name: checkpoint, open: () => Promise.resolve(backend) };
}

function relation(
  session: SluiceSession,
  description: string,
  schema: typeof STATE_STORE_SCHEMA,
  scan: () => Promise<unknown[][]>,
): DataFrame {
  return new DataFrame(session, {
    kind: 'relation',
    id: newPlanId(),
    description,
    scan,
    schema,
    isStreaming: false,
  });
}

/** A whole-number option ≥ 0, or undefined when not given. */
function wholeNumber(
  options: ReadonlyMap<string, OptionValue>,
  key: string,
  name: string,
): number | undefined {
  const given = options.get(key);
  if (given === undefined) return undefined;
  const n = Number(given);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new InvalidOptionError(
      `format('statestore') option ${name} must be a whole number >= 0, got ${String(given)}.`,
    );
  }
  return n;
}
