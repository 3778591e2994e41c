/**
 * The Delta table properties (`metaData.configuration`) that steer Sluice's log maintenance, read
 * with the protocol's defaults:
 * - `delta.checkpointInterval`: a checkpoint is written after every this many versions (default 10).
 * - `delta.deletedFileRetentionDuration`: how long a `remove` stays in checkpoints as a tombstone, so
 *   that VACUUM leaves removed files alone while slow readers may still read them (default one
 *   week). Written as Spark writes intervals: `interval 7 days`, `interval 168 hours`, `2 weeks`.
 */
import { DeltaTableError, InvalidOptionError } from '../errors.js';

/** The property naming the checkpoint interval. */
export const CHECKPOINT_INTERVAL = 'delta.checkpointInterval';
/** The property naming the tombstone retention. */
export const DELETED_FILE_RETENTION = 'delta.deletedFileRetentionDuration';

/** Delta's default checkpoint interval, in versions. */
export const DEFAULT_CHECKPOINT_INTERVAL = 10;
/** Delta's default tombstone retention: one week, in milliseconds. */
export const DEFAULT_DELETED_FILE_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** Milliseconds per interval unit, singular and plural as Spark accepts them. */
const UNIT_MS: Record<string, number> = {
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

type Properties = Readonly<Record<string, string>>;

/** How each property is read: its default, and its value or undefined when the text is invalid. */
const PROPERTIES: Record<
  string,
  { default: number; parse: (text: string) => number | undefined; expected: string }
> = {
  [CHECKPOINT_INTERVAL]: {
    default: DEFAULT_CHECKPOINT_INTERVAL,
    parse: positiveInteger,
    expected: 'a positive integer such as 10',
  },
  [DELETED_FILE_RETENTION]: {
    default: DEFAULT_DELETED_FILE_RETENTION_MS,
    parse: intervalMs,
    expected: "an interval such as 'interval 7 days'",
  },
};

/** The checkpoint interval of a table with `configuration`; throws DeltaTableError naming `table`. */
export function checkpointInterval(configuration: Properties, table: string): number {
  return property(configuration, CHECKPOINT_INTERVAL, table);
}

/** The tombstone retention in milliseconds; throws DeltaTableError naming `table`. */
export function deletedFileRetentionMs(configuration: Properties, table: string): number {
  return property(configuration, DELETED_FILE_RETENTION, table);
}

/**
 * Checks the properties Sluice reads in the configuration of a table it is about to create, so that
 * a writer fails when it is configured rather than when it first writes a checkpoint. `owner` names
 * the writer in the InvalidOptionError.
 */
export function checkTableProperties(configuration: Properties, owner: string): void {
  for (const [name, { parse, expected }] of Object.entries(PROPERTIES)) {
    const text = configuration[name];
    if (text !== undefined && parse(text) === undefined) {
      throw new InvalidOptionError(
        `${owner} option 'configuration': table property ${name} is ${JSON.stringify(text)}, not ${expected}.`,
      );
    }
  }
}

function property(configuration: Properties, name: string, table: string): number {
  const { default: fallback, parse, expected } = PROPERTIES[name];
  const text = configuration[name];
  if (text === undefined) return fallback;
  const value = parse(text);
  if (value === undefined) {
    throw new DeltaTableError(
      `Delta table ${table}: table property ${name} is ${JSON.stringify(text)}, not ${expected}; set it to a valid value or remove it.`,
    );
  }
  return value;
}

function positiveInteger(text: string): number | undefined {
  const n = Number(text);
  return /^\s*\d+\s*$/.test(text) && Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** `[interval] <n> <unit> [<n> <unit> ...]` in milliseconds; undefined when not of that form. */
function intervalMs(text: string): number | undefined {
  const words = text.trim().toLowerCase().split(/\s+/);
  if (words[0] === 'interval') words.shift();
  if (words.length === 0 || words.length % 2 !== 0) return undefined;
  let total = 0;
  for (let i = 0; i < words.length; i += 2) {
    const unit = UNIT_MS[words[i + 1].replace(/s$/, '')];
    if (!/^\d+$/.test(words[i]) || unit === undefined) return undefined;
    total += Number(words[i]) * unit;
  }
  return total;
}
