/**
 * What a state store's files say they hold, so that a store can be read and checked on its own:
 * every state file's header names its operator, store and partition and the state schema (the
 * operator's `stateDescription`) it was written with, and every manifest lists, per store, its
 * operator, name and state schema. Loading a store compares them with the store it expects and
 * refuses a file or manifest entry written for another operator, store, partition or schema, with a
 * CheckpointError naming both. Files and manifests of earlier versions, which record none of this,
 * are read as before.
 */
import { CheckpointError } from '../errors.js';
import { describeStore, type StateStoreId } from './state-store-id.js';

/** One store of a query and the schema of the state it keeps. */
export interface StateStoreSchema {
  readonly id: StateStoreId;
  /** What the state holds (the operator's stateDescription); absent when not known (a reader outside a query). */
  readonly stateSchema?: string;
}

/** What a state file's header records about its contents. */
export interface StateFileIdentity {
  readonly operatorId: number;
  readonly storeName: string;
  readonly partition: number;
  readonly stateSchema?: string;
}

/** A manifest's record of one store: its id and state schema. */
export interface ManifestStoreEntry {
  readonly operatorId: number;
  readonly storeName: string;
  readonly stateSchema?: string;
}

/** The header fields that record which store, partition and schema a state file holds. */
export function fileIdentity(store: StateStoreSchema, partition: number): StateFileIdentity {
  return {
    operatorId: store.id.operatorId,
    storeName: store.id.storeName,
    partition,
    ...(store.stateSchema === undefined ? {} : { stateSchema: store.stateSchema }),
  };
}

/**
 * Refuses a file whose header names another store, partition or schema than `expected`; `file`
 * names it in the message. A header without these fields (an earlier version's) is accepted.
 */
export function checkFileIdentity(
  header: Readonly<Record<string, unknown>>,
  expected: StateStoreSchema,
  partition: number,
  file: string,
): void {
  if (header.operatorId !== undefined || header.storeName !== undefined) {
    const found = { operatorId: header.operatorId, storeName: header.storeName };
    if (
      found.operatorId !== expected.id.operatorId ||
      found.storeName !== expected.id.storeName ||
      header.partition !== partition
    ) {
      throw new CheckpointError(
        `State file ${file} holds operator ${String(found.operatorId)} store '${String(found.storeName)}' partition ${String(header.partition)}, but was read as ${describeStore(expected.id)} partition ${partition}: the manifest that lists it was edited or copied. Restore it from a backup or start the query on a new checkpoint.`,
      );
    }
  }
  checkSchema(header.stateSchema, expected, `State file ${file}`);
}

/** Refuses a manifest entry that records another schema than `expected`; `manifest` names it. */
export function checkManifestEntry(
  entry: ManifestStoreEntry | undefined,
  expected: StateStoreSchema,
  manifest: string,
): void {
  checkSchema(
    entry?.stateSchema,
    expected,
    `State manifest ${manifest}, for ${describeStore(expected.id)},`,
  );
}

function checkSchema(found: unknown, expected: StateStoreSchema, what: string): void {
  if (found === undefined || expected.stateSchema === undefined || found === expected.stateSchema)
    return;
  throw new CheckpointError(
    `${what} holds state of ${String(found)}, but ${describeStore(expected.id)} of this query keeps ${expected.stateSchema}: the store was written by another query. Read it with the query that wrote it, or start this query on a new checkpoint.`,
  );
}
