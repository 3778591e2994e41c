/**
 * Which options a file writer takes, and the encoding they give. `df.write` and `writeStream` on a
 * file format share both, so a batch write and a stream of one format accept the same options with
 * the same meaning. Spark ignores option names it does not know, so a misspelt option or one Spark
 * has and Sluice does not (`maxRecordsPerFile`, `timestampFormat`, ...) would silently do nothing;
 * here every option must be one Sluice's file writers implement, or it is refused with an
 * InvalidOptionError that names it and lists the format's options. As for the readers, an option of
 * another file format (`header` on a JSON write) is accepted and has no effect, so that one set of
 * options serves several writers.
 */
import { InvalidOptionError } from '../errors.js';
import type { CsvWriteOptions } from '../io/csv.js';
import { dataFileEncoding, type DataFileEncoding } from '../io/data-file-encoding.js';
import type { FileFormat } from '../io/data-files.js';
import { booleanOption, type OptionValue } from './reader-options.js';

/** How the options are used: a batch write or a file stream sink. */
export type FileWriting = 'write' | 'writeStream';

const BY_FORMAT: Readonly<Record<FileFormat, readonly string[]>> = {
  json: ['compression'],
  csv: ['compression', 'header', 'delimiter', 'sep', 'quote', 'escape', 'nullValue'],
  parquet: ['compression'],
  text: ['compression'],
};

/** Why Sluice lacks writer options Spark has, and what to do instead. */
const MISSING: ReadonlyMap<string, string> = new Map(
  [
    [
      'maxRecordsPerFile',
      'is not implemented: each write (or each batch of a stream) is one file; repartition the data or write smaller DataFrames',
    ],
    [
      'timestampFormat',
      "is not implemented: timestamps are written ISO 8601 in UTC with milliseconds, the only pattern Sluice's readers parse",
    ],
    [
      'dateFormat',
      "is not implemented: dates are written yyyy-MM-dd, the only pattern Sluice's readers parse",
    ],
    ['lineSep', 'is not implemented: every line ends with \\n'],
    ['encoding', 'is not implemented: files are written in UTF-8'],
    ['charset', 'is not implemented: files are written in UTF-8'],
  ].map(([name, why]) => [name.toLowerCase(), `'${name}' ${why}`]),
);

/** Every option some file writer implements, lower-cased as the builders keep them. */
const KNOWN: ReadonlySet<string> = new Set(
  Object.values(BY_FORMAT)
    .flat()
    .map((name) => name.toLowerCase()),
);

/**
 * Throws an InvalidOptionError for an option (keys lower-cased) that `writing` files of `format`
 * does not take, naming it and listing those it takes. `own` are the options of the writer itself
 * (a stream's checkpointLocation, compactInterval, ...), accepted beside the format's.
 */
export function checkFileWriterOptionNames(
  options: ReadonlyMap<string, OptionValue>,
  format: FileFormat,
  writing: FileWriting,
  own: readonly string[] = [],
): void {
  const accepted = new Set([...KNOWN, ...own.map((name) => name.toLowerCase())]);
  for (const key of options.keys()) {
    if (accepted.has(key)) continue;
    const why = MISSING.get(key) ?? `'${key}' is not an option Sluice implements for ${format}`;
    throw new InvalidOptionError(
      `${writing}.format('${format}') refuses an option: ${why}. Drop it; the supported options are ${[...own, ...BY_FORMAT[format]].join(', ')}.`,
    );
  }
}

/**
 * The encoding of `format` files the writer options give: compression (a Parquet codec, or none or
 * gzip for the line formats) and, for CSV, {@link csvWriterOptions}.
 */
export function fileWriterEncoding(
  format: FileFormat,
  options: ReadonlyMap<string, OptionValue>,
): DataFileEncoding {
  return dataFileEncoding(format, textOption(options, 'compression'), csvWriterOptions(options));
}

/** CSV's writer options: header, delimiter (or sep), quote, escape and nullValue. */
export function csvWriterOptions(options: ReadonlyMap<string, OptionValue>): CsvWriteOptions {
  return {
    header: booleanOption('header', options.get('header')),
    delimiter: textOption(options, 'delimiter') ?? textOption(options, 'sep'),
    quote: textOption(options, 'quote'),
    escape: textOption(options, 'escape'),
    nullValue: textOption(options, 'nullvalue'),
  };
}

/** The option `key` (lower-cased) as text, if set. */
export function textOption(
  options: ReadonlyMap<string, OptionValue>,
  key: string,
): string | undefined {
  const value = options.get(key);
  return value === undefined ? undefined : String(value);
}
