/**
 * `format('delta')` from Spark's string-valued options: where the table is, and the options of the
 * Delta sink, the batch writer and the stream source, each checked with an error naming the option.
 * Option names are case-insensitive (the builders lower-case them), as in Spark.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import type { DeltaTableLocation } from '../delta/delta-log.js';
import { DeltaSink } from '../delta/delta-sink.js';
import type { DeltaSourceOptions } from '../delta/delta-source-options.js';
import type { DeltaWriteOptions } from '../delta/delta-write-options.js';
import { CHECKPOINT_INTERVAL, DELETED_FILE_RETENTION } from '../delta/table-properties.js';
import { InvalidOptionError } from '../errors.js';
import { checkDeltaWriterOptionNames } from './delta-writer-option-names.js';
import { booleanOption, type OptionValue, positiveIntegerOption } from './reader-options.js';
import type { SluiceSession } from './session.js';
import { requiredPathOption, type SinkRequest } from './sink-formats.js';
import { isStreamingQueryOption } from './streaming-query-option-names.js';

type Options = ReadonlyMap<string, OptionValue>;

/** Table properties with their canonical spelling, so options (lower-cased) keep the Delta names. */
const TABLE_PROPERTIES = new Map(
  [
    CHECKPOINT_INTERVAL,
    DELETED_FILE_RETENTION,
    'delta.appendOnly',
    'delta.logRetentionDuration',
    'delta.dataSkippingNumIndexedCols',
  ].map((name) => [name.toLowerCase(), name]),
);

/** The table at `location`: a store, a URL the session resolves (`s3://...`), or a local directory. */
export function deltaTableLocation(
  session: SluiceSession,
  location: string | ObjectStore,
): DeltaTableLocation {
  return typeof location === 'string' ? (session.objectStore(location) ?? location) : location;
}

/**
 * The sink of `writeStream.format('delta').start(location)`. Options: partitionBy (comma-separated
 * columns), compression, targetFileSize, maxCommitAttempts, appId, and `delta.*` table properties
 * for a table the sink creates; any other is refused, naming it.
 */
export function deltaSink(request: SinkRequest): DeltaSink {
  const sinkOptions = new Map([...request.options].filter(([key]) => !isStreamingQueryOption(key)));
  checkDeltaWriterOptionNames(sinkOptions, 'writeStream', ['appId']);
  const location = deltaTableLocation(
    request.df.session,
    requiredPathOption('delta', request.options),
  );
  const appId = request.options.get('appid');
  return new DeltaSink(location, {
    ...deltaWriteOptions(request.options),
    ...(appId === undefined ? {} : { appId: String(appId) }),
  });
}

/** The writer options of `df.write.format('delta')` and of the Delta sink (see {@link deltaSink}). */
export function deltaWriteOptions(options: Options): DeltaWriteOptions {
  const partitionBy = options.get('partitionby');
  const compression = options.get('compression');
  const configuration: Record<string, string> = {};
  for (const [key, value] of options) {
    if (key.startsWith('delta.')) configuration[TABLE_PROPERTIES.get(key) ?? key] = String(value);
  }
  const targetFileSize = positiveIntegerOption('targetFileSize', options.get('targetfilesize'));
  const maxCommitAttempts = positiveIntegerOption(
    'maxCommitAttempts',
    options.get('maxcommitattempts'),
  );
  return {
    ...(partitionBy === undefined ? {} : { partitionBy: columnList(String(partitionBy)) }),
    ...(compression === undefined ? {} : { compression: String(compression) }),
    ...(targetFileSize === undefined ? {} : { targetFileSize }),
    ...(maxCommitAttempts === undefined ? {} : { maxCommitAttempts }),
    configuration,
  };
}

/**
 * The options of `readStream.format('delta')`: maxFilesPerTrigger, maxBytesPerTrigger,
 * startingVersion (a version or `latest`), ignoreDeletes, ignoreChanges, skipChangeCommits.
 */
export function deltaSourceOptions(options: Options): DeltaSourceOptions {
  refuseChangeDataFeed(options);
  const starting = options.get('startingversion');
  const flag = (name: string) => booleanOption(name, options.get(name.toLowerCase()));
  const maxFiles = positiveIntegerOption('maxFilesPerTrigger', options.get('maxfilespertrigger'));
  const maxBytes = positiveIntegerOption('maxBytesPerTrigger', options.get('maxbytespertrigger'));
  return {
    ...(maxFiles === undefined ? {} : { maxFilesPerTrigger: maxFiles }),
    ...(maxBytes === undefined ? {} : { maxBytesPerTrigger: maxBytes }),
    ...(starting === undefined ? {} : { startingVersion: startingVersion(starting) }),
    ignoreDeletes: flag('ignoreDeletes'),
    ignoreChanges: flag('ignoreChanges'),
    skipChangeCommits: flag('skipChangeCommits'),
  };
}

/**
 * Throws an InvalidOptionError for readChangeFeed: Delta's change data feed is not implemented, and
 * reading the table's rows instead of its changes would silently give other rows.
 */
export function refuseChangeDataFeed(options: Options): void {
  if (booleanOption('readChangeFeed', options.get('readchangefeed'))) {
    throw new InvalidOptionError(
      "Invalid option readChangeFeed='true': Sluice's Delta reader does not read a table's change data feed. Drop the option to read the table's rows (readStream gives the rows each new version adds).",
    );
  }
}

function startingVersion(value: OptionValue): number | 'latest' {
  if (String(value).toLowerCase() === 'latest') return 'latest';
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || String(value).trim() === '') {
    throw new InvalidOptionError(
      `Invalid option startingVersion='${value}'; use a table version (0 or more) or 'latest'.`,
    );
  }
  return n;
}

function columnList(text: string): string[] {
  const columns = text.split(',').map((c) => c.trim());
  if (columns.some((c) => c === '')) {
    throw new InvalidOptionError(
      `Invalid option partitionBy='${text}'; use column names separated by commas, e.g. 'date,category'.`,
    );
  }
  return columns;
}
