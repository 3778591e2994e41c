/**
 * State carried inside the commit record (docs/architecture.md section 11): a state version whose
 * manifest, and the changes of each partition since its last file in the object store, travel in
 * the commit instead of as a manifest object and delta objects. A warm batch that changed a few
 * kilobytes of state then writes nothing to the object store: its state becomes real in the same
 * commit that makes the batch real.
 *
 * The commit holds the manifest as gzip-compressed JSON in base64 (`CommitRecord.inlineState`). Each
 * partition's inline changes are one merged change set, `[key, value]` (put) or `[key]` (delete),
 * applied after the partition's snapshot and delta files; merging keeps only a key's last change, so
 * a key updated in every batch costs one entry, not one per batch. The commit record's checksum covers
 * the text; text that does not decompress to a manifest is a CheckpointError, never empty state.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { CheckpointError } from '../errors.js';
import { DELETED, type PartitionChanges } from './keyed-state-store.js';
import { encodeStateValue } from './state-value.js';

/** One merged change: `[key, encoded value]` for a put, `[key]` for a delete. */
export type InlineChange = readonly [string] | readonly [string, unknown];

/**
 * The manifest as a commit carries it; undefined when that text would be longer than `budgetBytes`.
 * Compression stops as soon as its output passes what the budget allows, so finding that a large
 * batch's changes do not fit costs a fraction of compressing them all.
 */
export function encodeInlineState(
  manifest: object,
  budgetBytes = Number.POSITIVE_INFINITY,
): string | undefined {
  return compressWithin(JSON.stringify(manifest), budgetBytes);
}

/** `text` gzipped in base64, or undefined when that would be longer than `budgetBytes`. */
function compressWithin(text: string, budgetBytes: number): string | undefined {
  // base64 turns each 3 bytes (or part of 3) into 4 characters
  const maxOutputLength = Number.isFinite(budgetBytes)
    ? Math.floor(budgetBytes / 4) * 3
    : undefined;
  try {
    return gzipSync(text, { maxOutputLength }).toString('base64');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw error;
  }
}

/** The manifest a commit carries; `name` says which commit, for messages. */
export function decodeInlineState(text: string, name: string): object {
  let record: unknown;
  try {
    record = JSON.parse(gunzipSync(Buffer.from(text, 'base64')).toString('utf8'));
  } catch (cause) {
    throw new CheckpointError(
      `The state carried by ${name} does not decompress to a state manifest; the checkpoint is damaged. Restore it from a backup or start the query on a new checkpoint.`,
      { cause },
    );
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new CheckpointError(
      `The state carried by ${name} is not a state manifest; the checkpoint is damaged. Restore it from a backup or start the query on a new checkpoint.`,
    );
  }
  return record;
}

/** `earlier` followed by `changes`, as one change set: each key keeps only its last change. */
export function mergeInlineChanges(
  earlier: readonly InlineChange[] | undefined,
  changes: PartitionChanges,
): InlineChange[] {
  const merged = new Map<string, InlineChange>();
  for (const change of earlier ?? []) merged.set(change[0], change);
  for (const [key, value] of changes) {
    merged.set(key, value === DELETED ? [key] : [key, encodeStateValue(value)]);
  }
  return [...merged.values()];
}
