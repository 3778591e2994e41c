/**
 * JSON records in a source's metadata store (its part of the checkpoint): written whole, read back
 * with a check that they parse, so a damaged record fails with its name instead of being misread.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { CheckpointError } from '../errors.js';

/** Writes `record` as JSON under `key`. */
export function writeRecord(store: ObjectStore, key: string, record: object): Promise<void> {
  return store.put(key, Buffer.from(JSON.stringify(record)));
}

/** The parsed JSON under `key`, or undefined when there is no such object. */
export async function readRecord(store: ObjectStore, key: string): Promise<unknown> {
  const bytes = await store.get(key);
  if (!bytes) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  } catch (e) {
    throw new CheckpointError(
      `${recordName(store, key)} is not valid JSON; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
      { cause: e },
    );
  }
}

/** A record's full name for messages. */
export function recordName(store: ObjectStore, key: string): string {
  return `${store.location.replace(/\/$/, '')}/${key}`;
}
