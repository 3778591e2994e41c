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
import type { CsvWriteOptions } from '../io/csv.js';
import { dataFileEncoding, type DataFileEncoding } from '../io/data-file-encoding.js';
import type { FileFormat } from '../io/data-files.js';
import { missingOptions, refuseUnknownOptions } from './option-refusal.js';
import { booleanOption, type OptionValue, stringOption } from './reader-options.js';

/** How the options are used: a batch write or a file stream sink. */
export type FileWriting = 'write' | 'writeStream';

const BY_FORMAT: Readonly<Record<FileFormat, readonly string[]>> = {
  json: ['compression'],
  csv: ['compression', 'header', 'delimiter', 'sep', 'quote', 'escape', 'nullValue'],
  parquet: ['compression'],
  text: ['compression'],
};

/** Why Sluice lacks file writer options Spark has, and what to do instead. */
export const MISSING_FILE_WRITER_OPTIONS = missingOptions([
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
]);

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
  refuseUnknownOptions(options, {
    call: `${writing}.format('${format}')`,
    subject: format,
    accepts: (key) => accepted.has(key),
    supported: [...own, ...BY_FORMAT[format]].join(', '),
    missing: MISSING_FILE_WRITER_OPTIONS,
  });
}

/** The options a writer of `format` files takes, spelt as documented. */
export function fileWriterOptionNames(format: FileFormat): readonly string[] {
  return BY_FORMAT[format];
}

/**
 * The encoding of `format` files the writer options give: compression (a Parquet codec, or none or
 * gzip for the line formats) and, for CSV, {@link csvWriterOptions}.
 */
export function fileWriterEncoding(
  format: FileFormat,
  options: ReadonlyMap<string, OptionValue>,
): DataFileEncoding {
  return dataFileEncoding(
    format,
    stringOption(options.get('compression')),
    csvWriterOptions(options),
  );
}

/** CSV's writer options: header, delimiter (or sep), quote, escape and nullValue. */
export function csvWriterOptions(options: ReadonlyMap<string, OptionValue>): CsvWriteOptions {
  return {
    header: booleanOption('header', options.get('header')),
    delimiter: stringOption(options.get('delimiter')) ?? stringOption(options.get('sep')),
    quote: stringOption(options.get('quote')),
    escape: stringOption(options.get('escape')),
    nullValue: stringOption(options.get('nullvalue')),
  };
}
