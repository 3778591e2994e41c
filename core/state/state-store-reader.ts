/**
 * Reading a checkpoint's state from outside its query, one store at a time (for tools such as a
 * `sluice state` command): which stores a committed version holds, and the rows of one of them.
 * The version of batch N is the state manifest its commit names; the partition count comes from
 * the checkpoint's metadata. Every file read is checked as a query's load checks it (checksums,
 * and that it holds the store, partition and, when the caller names one, the state schema asked for).
 */
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import { CheckpointError } from '../errors.js';
import { StateRepository, stateVersionRefOf } from './state-repository.js';
import { describeStore, manifestEntry, stateStoreId, storeIdOfEntry } from './state-store-id.js';
import type { StateStoreSchema } from './state-store-identity.js';

/** One state store of a committed version. */
export interface StateStoreListing {
  readonly operatorId: number;
  readonly storeName: string;
  /** What its state holds (the operator's stateDescription), when the manifest records it. */
  readonly stateSchema?: string;
  readonly numPartitions: number;
  /** The batch whose state manifest holds this version (earlier than the batch asked for when that changed no state). */
  readonly stateVersion: number;
}

/** One row of a state store: the encoded key, the value, and the partition that holds it. */
export interface StateStoreRow {
  readonly partition: number;
  readonly key: string;
  readonly value: unknown;
}

/** Which store to read, and the schema it must hold when the caller knows it. */
export interface StateStoreSelection {
  readonly operatorId: number;
  /** @default 'default' */
  readonly storeName?: string;
  /** When given, a store that records another state schema is refused. */
  readonly stateSchema?: string;
}

/** The stores of the version committed by `batchId` (the latest commit when omitted). */
export async function listStateStores(
  backend: CheckpointBackend,
  batchId?: number,
): Promise<StateStoreListing[]> {
  const version = await committedVersion(backend, batchId);
  if (!version.ref) return [];
  const manifest = await version.repository.manifestOf(version.ref);
  return Object.keys(manifest.operators).map((entry) => {
    const id = storeIdOfEntry(entry);
    const stateSchema = manifest.stores?.[entry]?.stateSchema;
    return {
      ...id,
      ...(stateSchema === undefined ? {} : { stateSchema }),
      numPartitions: manifest.numPartitions,
      stateVersion: manifest.batchId,
    };
  });
}

/**
 * The rows of one store in the version committed by `batchId` (the latest commit when omitted),
 * ordered by partition. A store the version does not hold is a CheckpointError naming the stores
 * it holds.
 */
export async function readStateStore(
  backend: CheckpointBackend,
  selection: StateStoreSelection,
  batchId?: number,
): Promise<StateStoreRow[]> {
  const id = stateStoreId(selection.operatorId, selection.storeName);
  const schema = {
    id,
    ...(selection.stateSchema === undefined ? {} : { stateSchema: selection.stateSchema }),
  };
  const version = await committedVersion(backend, batchId, [schema]);
  const manifest = version.ref ? await version.repository.manifestOf(version.ref) : undefined;
  if (!manifest?.operators[manifestEntry(id)]) {
    const held = Object.keys(manifest?.operators ?? {}).map((e) =>
      describeStore(storeIdOfEntry(e)),
    );
    throw new CheckpointError(
      `Checkpoint ${backend.checkpoint.location} has no ${describeStore(id)} at batch ${version.batchId}; it holds ${held.length === 0 ? 'no state' : held.join(', ')}.`,
    );
  }
  const { stores } = await version.repository.load(version.ref, [id]);
  const store = stores.get(manifestEntry(id))!;
  const rows: StateStoreRow[] = [];
  for (let p = 0; p < store.numPartitions; p++) {
    for (const [key, value] of store.partitionEntries(p)) rows.push({ partition: p, key, value });
  }
  return rows;
}

/** The state manifest that the commit of `batchId` (or the latest) names, and a repository to read it. */
async function committedVersion(
  backend: CheckpointBackend,
  batchId: number | undefined,
  schemas: readonly StateStoreSchema[] = [],
) {
  const { checkpoint } = backend;
  const metadata = await checkpoint.getMetadata();
  if (!metadata) throw new CheckpointError(`${checkpoint.location} holds no checkpoint.`);
  const commit =
    batchId === undefined ? await checkpoint.latestCommit() : await checkpoint.getCommit(batchId);
  if (!commit) {
    throw new CheckpointError(
      batchId === undefined
        ? `Checkpoint ${checkpoint.location} has no committed batch, so it holds no state yet.`
        : `Checkpoint ${checkpoint.location} has no commit of batch ${batchId} (not committed, or older than the retained batches).`,
    );
  }
  // snapshots are written by queries, never here: the interval does not matter to a reader
  const repository = new StateRepository(
    backend.stateObjects,
    metadata.numStatePartitions,
    1,
    schemas,
  );
  return { batchId: commit.batchId, ref: stateVersionRefOf(commit), repository };
}
