/**
 * Which options a Delta write takes (`df.write.format('delta')` and the Delta sink). Spark ignores
 * option names it does not know, and Delta has options Sluice does not implement (`mergeSchema`,
 * `replaceWhere`, ...), which would silently write something else than asked; here every option must
 * be one Sluice's Delta writer implements, or a `delta.*` table property, or it is refused with an
 * InvalidOptionError that names it and lists the supported ones.
 */
import type { FileWriting } from './file-writer-options.js';
import { missingOptions, refuseUnknownOptions } from './option-refusal.js';
import type { OptionValue } from './reader-options.js';

/** The options a Delta write takes besides `delta.*` table properties, spelt as documented. */
export const DELTA_WRITER_OPTIONS: readonly string[] = [
  'partitionBy',
  'compression',
  'targetFileSize',
  'maxCommitAttempts',
];

/** Why Sluice lacks Delta writer options Delta has, and what to do instead. */
export const MISSING_DELTA_WRITER_OPTIONS = missingOptions([
  [
    'mergeSchema',
    "is not implemented: a write keeps the table's schema and the rows must fit it; cast or select the table's columns first",
  ],
  [
    'overwriteSchema',
    "is not implemented: an overwrite keeps the table's schema and partitioning; write a new table to change them",
  ],
  [
    'replaceWhere',
    'is not implemented: an overwrite replaces the whole table; filter the rows to keep and overwrite with them',
  ],
  [
    'txnAppId',
    'is not implemented: the Delta sink of a stream writes each batch once by its appId option (the query id by default)',
  ],
  ['txnVersion', 'is not implemented: the Delta sink writes each batch once by its batch id'],
  ['userMetadata', 'is not implemented: commits carry no user metadata'],
  ['maxRecordsPerFile', 'is not implemented: use targetFileSize to bound the data files'],
]);

/**
 * Throws an InvalidOptionError for an option (keys lower-cased) that `writing` a Delta table does
 * not take, naming it and listing those it takes. `own` are the options of the writer itself (the
 * sink's appId, a stream's checkpointLocation, ...), accepted beside the Delta writer's.
 */
export function checkDeltaWriterOptionNames(
  options: ReadonlyMap<string, OptionValue>,
  writing: FileWriting,
  own: readonly string[] = [],
): void {
  const supported = [...DELTA_WRITER_OPTIONS, ...own];
  const accepted = new Set(supported.map((name) => name.toLowerCase()));
  refuseUnknownOptions(options, {
    call: `${writing}.format('delta')`,
    subject: 'Delta',
    accepts: (key) => accepted.has(key) || key.startsWith('delta.'),
    supported: `${supported.join(', ')} and delta.* table properties`,
    missing: MISSING_DELTA_WRITER_OPTIONS,
  });
}
