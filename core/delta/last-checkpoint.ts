/**
 * `_delta_log/_last_checkpoint`: a small JSON file pointing at a recent checkpoint ("Last Checkpoint
 * File" in the Delta protocol), so that a reader lists the log from there instead of from version 0.
 *
 * It is only a hint, overwritten after each checkpoint and not atomically tied to it: a writer can
 * stop between the two, and a cleanup can delete the checkpoint it names. Readers therefore check it
 * against the listing and fall back to listing the whole log when it is missing, unreadable or names
 * a checkpoint that is not there (`stale`); the snapshot is the same either way, only slower to find.
 */
import { DELTA_LOG_DIRECTORY } from './log-segment.js';

/** The key of the last checkpoint file. */
export const LAST_CHECKPOINT_KEY = `${DELTA_LOG_DIRECTORY}/_last_checkpoint`;

/** The fields of `_last_checkpoint` Sluice writes and reads. */
export interface LastCheckpoint {
  /** The version the checkpoint is of. */
  readonly version: number;
  /** The number of actions in the checkpoint. */
  readonly size: number;
  /** The number of parts of a multi-part checkpoint; absent for a classic one. */
  readonly parts?: number;
  /** The checkpoint's bytes. */
  readonly sizeInBytes?: number;
  /** The number of `add` actions in the checkpoint. */
  readonly numOfAddFiles?: number;
}

const utf8 = new TextDecoder();

/** The bytes of `_last_checkpoint` for `checkpoint`. */
export function encodeLastCheckpoint(checkpoint: LastCheckpoint): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(checkpoint));
}

/**
 * The checkpoint `_last_checkpoint` points at, from its bytes; undefined when the file does not exist
 * or does not hold a valid version and size (a hint only: the reader then lists the whole log).
 */
export function decodeLastCheckpoint(bytes: Uint8Array | undefined): LastCheckpoint | undefined {
  if (bytes === undefined) return undefined;
  let record: Record<string, unknown> | null;
  try {
    record = JSON.parse(utf8.decode(bytes)) as Record<string, unknown> | null;
  } catch {
    return undefined; // torn or foreign content: the listing decides instead
  }
  const count = (name: string) => {
    const v = record?.[name];
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  };
  const version = count('version');
  const size = count('size');
  if (version === undefined || size === undefined) return undefined;
  const parts = count('parts');
  return { version, size, ...(parts ? { parts } : {}) };
}
