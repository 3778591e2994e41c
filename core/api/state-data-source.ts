/**
 * State as a table, as Spark 3.5+'s state data source: `session.read.format('statestore')
 * .load(checkpoint)` gives the rows of one state store (options `operatorId`, default 0;
 * `storeName`, default `default`; `batchId`, default the latest commit) with the columns `key`,
 * `value` and `partition_id`; `format('state-metadata')` gives one row per state store. The
 * checkpoint is a local checkpoint directory. Sluice's key is the store's key text and the value
 * its stored JSON, not Spark's key and value structs. Read each time the DataFrame runs.
 */
import { localCheckpointBackend } from '../checkpoint/local-checkpoint-backend.js';
import { InvalidOptionError } from '../errors.js';
import { newPlanId } from '../plan/logical-plan.js';
import { readStateMetadata } from '../state/state-metadata-reader.js';
import { readStateStore } from '../state/state-store-reader.js';
import { parseSchema } from '../types/type-names.js';
import { DataFrame } from './dataframe.js';
import type { OptionValue } from './reader-options.js';
import type { SluiceSession } from './session.js';

/** The formats of the state data source. */
export type StateFormatName = 'statestore' | 'state-metadata';

const STATE_STORE_SCHEMA = parseSchema('key STRING, value STRING, partition_id INT');
const STATE_METADATA_SCHEMA = parseSchema(
  'operatorId INT, operatorName STRING, stateStoreName STRING, numPartitions INT, minBatchId BIGINT, maxBatchId BIGINT',
);
const STORE_OPTIONS = ['operatorid', 'storename', 'batchid'];

/** Whether `name` names a format of the state data source. */
export function isStateFormat(name: string): name is StateFormatName {
  return name === 'statestore' || name === 'state-metadata';
}

/** The DataFrame of `format` over the checkpoint directory `checkpoint`. */
export function stateFrame(
  session: SluiceSession,
  format: StateFormatName,
  checkpoint: string | undefined,
  options: ReadonlyMap<string, OptionValue>,
): DataFrame {
  if (checkpoint === undefined) {
    throw new InvalidOptionError(
      `format('${format}') reads a checkpoint: load('path/to/checkpoint') with the query's checkpointLocation.`,
    );
  }
  const backend = localCheckpointBackend(checkpoint);
  const known = format === 'statestore' ? STORE_OPTIONS : [];
  const unknown = [...options.keys()].filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `format('${format}') has no option '${unknown[0]}'; ${known.length === 0 ? 'it takes none' : 'it takes operatorId, storeName and batchId'}.`,
    );
  }
  if (format === 'state-metadata') {
    return relation(session, `state-metadata[${checkpoint}]`, STATE_METADATA_SCHEMA, async () =>
      (await readStateMetadata(backend)).map((m) => [
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
  return relation(session, `statestore[${checkpoint}]`, STATE_STORE_SCHEMA, async () =>
    (await readStateStore(backend, selection, batchId)).map((r) => [
      r.key,
      JSON.stringify(r.value),
      r.partition,
    ]),
  );
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
