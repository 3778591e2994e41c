/**
 * Offsets of a Delta stream source: positions in the sequence of data files the stream reads.
 *
 * The sequence is the files of the initial snapshot of version V (when the stream starts without a
 * startingVersion), ordered by modification time and path, followed by the data files each later
 * version adds (`add` with dataChange true), version by version in commit file order. An offset is
 * the position of the next file to read: `index` files of `version` (or of the initial snapshot)
 * come before it. Both parts come from immutable log files, so the files between two offsets are
 * the same whenever they are read: a re-run batch reads exactly what its first attempt read.
 *
 * A position right after the last file of a version is written as the start of the next version
 * (index 0), so that one position has one form and offsets compare by their JSON. The table's id
 * travels in every offset: a table replaced at the same location is another stream.
 *
 * Where a stream begins is fixed in the checkpoint the first time it plans a batch
 * (`initial-offset.json`, created if absent), as Spark keeps it: resolving `latest` or the initial
 * snapshot's version again after a restart would move the start.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { CheckpointError } from '../errors.js';
import { RecordedInitialOffset } from '../sources/recorded-initial-offset.js';

/** The format version of offsets and of the recorded initial offset. */
const FORMAT_VERSION = 1;

/** The key of the initial offset in the source's metadata store. */
const INITIAL_OFFSET_KEY = 'initial-offset.json';

/** A position in a Delta table's stream of data files. */
export interface DeltaSourceOffset {
  readonly formatVersion: typeof FORMAT_VERSION;
  /** The table's id (`metaData.id`). */
  readonly tableId: string;
  /** The version the next file to read is in, or the version of the initial snapshot. */
  readonly version: number;
  /** How many files of that version (or of the initial snapshot) come before the next one. */
  readonly index: number;
  /** True while the position is inside the initial snapshot of `version`. */
  readonly initialSnapshot: boolean;
}

/** The offset at `version` and `index` of table `tableId`. */
export function deltaOffset(
  tableId: string,
  version: number,
  index: number,
  initialSnapshot: boolean,
): DeltaSourceOffset {
  return { formatVersion: FORMAT_VERSION, tableId, version, index, initialSnapshot };
}

/**
 * An offset read back from the checkpoint; `source` names the stream in errors. Throws
 * CheckpointError when it is not an offset of this format.
 */
export function parseDeltaOffset(value: unknown, source: string): DeltaSourceOffset {
  const o = value as Partial<DeltaSourceOffset> | null;
  const count = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (
    o?.formatVersion !== FORMAT_VERSION ||
    typeof o.tableId !== 'string' ||
    !count(o.version) ||
    !count(o.index) ||
    typeof o.initialSnapshot !== 'boolean'
  ) {
    throw new CheckpointError(
      `${source}: the checkpoint holds the offset ${JSON.stringify(value)}, which is not a Delta source offset of format version ${FORMAT_VERSION}; the checkpoint is damaged or belongs to another source. Start the query on a new checkpointLocation.`,
    );
  }
  return deltaOffset(o.tableId, o.version!, o.index!, o.initialSnapshot);
}

/** The recorded initial offset of the stream `source`, in its source's metadata store. */
export function initialDeltaOffset(
  store: ObjectStore,
  source: string,
): RecordedInitialOffset<DeltaSourceOffset> {
  return new RecordedInitialOffset(store, source, {
    key: INITIAL_OFFSET_KEY,
    encode: (offset) => offset,
    decode: (value) => parseDeltaOffset(value, source),
  });
}
