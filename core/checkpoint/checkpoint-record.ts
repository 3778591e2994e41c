/**
 * How checkpoint records (metadata, intents, commits, the DynamoDB head) are stored, on every
 * backend: checksummed JSON (checksummed-record.ts), validated on read. A record must verify, carry
 * the format version this code reads and, when it is read as the record of a batch, hold that batch:
 * an edited digit or a record copied to another batch's key is a CheckpointError, never used.
 */
import { CheckpointError } from '../errors.js';
import { CHECKPOINT_FORMAT_VERSION } from './checkpoint-store.js';
import { decodeChecksummedRecord, encodeChecksummedRecord } from './checksummed-record.js';

/** A record's stored text. */
export function encodeCheckpointRecord(record: object): string {
  return encodeChecksummedRecord(record);
}

/**
 * The record stored as `text`. `name` says which file or item it is, for messages; `batchId`, when
 * given, is the batch whose record this must be.
 */
export function decodeCheckpointRecord<T>(text: string, name: string, batchId?: number): T {
  const decoded = decodeChecksummedRecord(text);
  if ('problem' in decoded) {
    throw new CheckpointError(
      `${name} is corrupt (${decoded.problem}). Restore it from a backup or start the query on a new checkpoint.`,
      { cause: decoded.cause },
    );
  }
  const record = decoded.record as { formatVersion?: unknown; batchId?: unknown };
  if (record.formatVersion !== CHECKPOINT_FORMAT_VERSION) {
    throw new CheckpointError(
      `${name} has format version ${String(record.formatVersion)}; this Sluice reads version ${CHECKPOINT_FORMAT_VERSION}.`,
    );
  }
  if (batchId !== undefined) requireBatch(name, record.batchId, batchId);
  return record as T;
}

/** Refuses a record (or item attribute) of another batch than the one it is stored as. */
export function requireBatch(name: string, found: unknown, expected: number): void {
  if (found === expected) return;
  throw new CheckpointError(
    `${name} holds batch ${String(found)}, but is stored as the record of batch ${expected}: it was edited or copied from another batch. Restore it from a backup or start the query on a new checkpoint.`,
  );
}
