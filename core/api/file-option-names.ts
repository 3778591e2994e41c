/**
 * Which options a file reader takes. Spark ignores option names it does not know, so a misspelt
 * option or one Spark has and Sluice does not (`sourceArchiveDir`, `rescuedDataColumn`, ...) would
 * silently do nothing; here every option of `read` and `readStream` on a file format must be one
 * Sluice's file readers implement, or it is refused with an InvalidOptionError that names it and
 * lists the format's options. As in Spark, an option of another format (`header` on a JSON read)
 * or of file streams (`maxFilesPerTrigger` on a bounded read) is accepted and has no effect, so that
 * one set of options serves several readers. Values Sluice does not implement (`multiLine=true`)
 * are refused by the option's own parser.
 */
import type { FileFormat } from '../io/data-files.js';
import { JSON_SYNTAX_OPTION_NAMES } from '../io/json-syntax.js';
import { missingOptions, refuseUnknownOptions } from './option-refusal.js';
import type { OptionValue } from './reader-options.js';

/** How the options are used: a bounded read or a file stream. */
export type FileReading = 'read' | 'readStream';

const EVERY_FORMAT = [
  'pathGlobFilter',
  'recursiveFileLookup',
  'maxRecordBytes',
  'maxDecompressedBytes',
];
const PARSE_MODE = ['mode', 'columnNameOfCorruptRecord'];
const BY_FORMAT: Readonly<Record<FileFormat, readonly string[]>> = {
  json: [...PARSE_MODE, 'multiLine', ...JSON_SYNTAX_OPTION_NAMES],
  csv: [
    ...PARSE_MODE,
    'multiLine',
    'header',
    'inferSchema',
    'delimiter',
    'sep',
    'quote',
    'escape',
    'nullValue',
  ],
  parquet: [],
  text: [],
};
const STREAM_ONLY = [
  'maxFilesPerTrigger',
  'maxBytesPerTrigger',
  'latestFirst',
  'maxFileAge',
  'incrementalListing',
  'cleanSource',
];

/** Every option some file reader implements, lower-cased as the builders keep them. */
const KNOWN: ReadonlySet<string> = new Set(
  [...Object.values(BY_FORMAT).flat(), ...EVERY_FORMAT, ...STREAM_ONLY].map((name) =>
    name.toLowerCase(),
  ),
);

/** Why Sluice lacks file reader options Spark (or Databricks) has, and what to do instead. */
export const MISSING_FILE_READER_OPTIONS = missingOptions([
  [
    'sourceArchiveDir',
    'the file stream never moves or deletes its input (cleanSource is off); expire read files with an S3 lifecycle rule instead',
  ],
  [
    'rescuedDataColumn',
    "it is a Databricks option, not Spark's; use mode PERMISSIVE with a corrupt-record column (columnNameOfCorruptRecord) to keep records that do not fit the schema",
  ],
  ['readChangeFeed', "it is a Delta option; Sluice's Delta reader does not read change data feeds"],
]);

/**
 * Throws an InvalidOptionError for an option (keys lower-cased) that `reading` files of `format`
 * does not take, naming it and listing those it takes.
 */
export function checkFileOptionNames(
  options: ReadonlyMap<string, OptionValue>,
  format: FileFormat,
  reading: FileReading,
): void {
  const supported = fileReaderOptionNames(format, reading);
  refuseUnknownOptions(options, {
    call: `${reading}.format('${format}')`,
    subject: format,
    accepts: (key) => KNOWN.has(key),
    supported: supported.join(', '),
    missing: MISSING_FILE_READER_OPTIONS,
  });
}

/** The options `reading` files of `format` takes, spelt as documented. */
export function fileReaderOptionNames(format: FileFormat, reading: FileReading): string[] {
  return [...BY_FORMAT[format], ...EVERY_FORMAT, ...(reading === 'readStream' ? STREAM_ONLY : [])];
}
