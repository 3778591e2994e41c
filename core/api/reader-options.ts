/**
 * Options shared by `read` and `readStream`: Spark's string-valued `option(key, value)` calls turned
 * into typed file-reader options, each checked with an error that names the option.
 */
import { InvalidOptionError } from '../errors.js';
import type { FileReadOptions } from '../io/data-files.js';
import {
  JSON_SYNTAX_OPTION_NAMES,
  type JsonSyntaxOptions,
  resolveJsonSyntax,
} from '../io/json-syntax.js';
import type { StructType } from '../types/data-types.js';

/** A raw option value as users pass it. */
export type OptionValue = string | number | boolean;

/** Converts raw options (plus a schema) into file-reader options. */
export function fileReadOptions(
  options: ReadonlyMap<string, OptionValue>,
  schema: StructType | undefined,
): FileReadOptions {
  const get = (key: string): OptionValue | undefined => options.get(key.toLowerCase());
  const mode = get('mode');
  if (
    mode !== undefined &&
    !['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'].includes(String(mode).toUpperCase())
  ) {
    throw new InvalidOptionError(
      `Invalid option mode='${mode}'; use PERMISSIVE, DROPMALFORMED or FAILFAST.`,
    );
  }
  return {
    schema,
    mode: mode === undefined ? undefined : (String(mode).toUpperCase() as FileReadOptions['mode']),
    columnNameOfCorruptRecord: stringOption(get('columnNameOfCorruptRecord')),
    header: booleanOption('header', get('header')),
    inferSchema: booleanOption('inferSchema', get('inferSchema')),
    delimiter: stringOption(get('delimiter') ?? get('sep')),
    quote: stringOption(get('quote')),
    escape: stringOption(get('escape')),
    nullValue: stringOption(get('nullValue')),
    maxRecordBytes: byteSizeOption('maxRecordBytes', get('maxRecordBytes')),
    maxDecompressedBytes: byteSizeOption('maxDecompressedBytes', get('maxDecompressedBytes')),
    ...jsonSyntaxOptions(get),
  };
}

/**
 * The JSON syntax options given, checked now (see json-syntax.ts) so that a bad one fails `load()`
 * rather than the first read of a file.
 */
function jsonSyntaxOptions(get: (key: string) => OptionValue | undefined): JsonSyntaxOptions {
  const given: Partial<Record<keyof JsonSyntaxOptions, string | boolean>> = {};
  for (const name of JSON_SYNTAX_OPTION_NAMES) {
    const value = get(name);
    if (value !== undefined) given[name] = typeof value === 'boolean' ? value : String(value);
  }
  resolveJsonSyntax(given, 'Reading JSON files');
  return given;
}

/** Which files of a location a reader reads, from its options. */
export interface FileSelection {
  /** The glob a file's name must match (Spark's pathGlobFilter). @default every name */
  readonly pathGlobFilter?: string;
}

/**
 * The file selection options: pathGlobFilter, and recursiveFileLookup, which is only checked:
 * Sluice always reads the files of subdirectories and infers no partitions from their names, which
 * is what Spark does with it on. Also refuses the values of multiLine and cleanSource that Sluice
 * does not implement, naming the option.
 */
export function fileSelection(options: ReadonlyMap<string, OptionValue>): FileSelection {
  booleanOption('recursiveFileLookup', options.get('recursivefilelookup'));
  if (booleanOption('multiLine', options.get('multiline'))) {
    throw new InvalidOptionError(
      "Invalid option multiLine='true': Sluice reads JSON and CSV one record per line. Write one record per line, or read whole files with format('text') and parse them.",
    );
  }
  const cleanSource = options.get('cleansource');
  if (cleanSource !== undefined && String(cleanSource).toLowerCase() !== 'off') {
    throw new InvalidOptionError(
      `Invalid option cleanSource='${cleanSource}': the file stream never archives or deletes the files it read, so only 'off' (Spark's default) is supported. Expire read files with an S3 lifecycle rule instead.`,
    );
  }
  const glob = options.get('pathglobfilter');
  return glob === undefined ? {} : { pathGlobFilter: String(glob) };
}

/** Reads a boolean option given as a boolean or as 'true'/'false'. */
export function booleanOption(name: string, value: OptionValue | undefined): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  const s = String(value).toLowerCase();
  if (s === 'true' || s === 'false') return s === 'true';
  throw new InvalidOptionError(`Invalid option ${name}='${value}'; use true or false.`);
}

/** Reads a positive integer option. */
export function positiveIntegerOption(
  name: string,
  value: OptionValue | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new InvalidOptionError(`Invalid option ${name}='${value}'; use a positive integer.`);
  }
  return n;
}

const BYTE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
};

/** A size in bytes: a positive integer, or one with a binary unit such as '64m' or '1g'. */
export function byteSizeOption(name: string, value: OptionValue | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(String(value));
  const unit = BYTE_UNITS[(match?.[2] || 'b').toLowerCase()];
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!(bytes > 0) || !Number.isSafeInteger(bytes)) {
    throw new InvalidOptionError(
      `Invalid option ${name}='${value}'; use a positive number of bytes, such as 1048576 or '64m'.`,
    );
  }
  return bytes;
}

/** The option's value as text, if set. */
export function stringOption(value: OptionValue | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}
