/**
 * The options of a file stream, as `readStream.option(...)` receives them, turned into the file
 * source's typed options: Spark's maxFilesPerTrigger, maxBytesPerTrigger, latestFirst and
 * maxFileAge, and incrementalListing (after Databricks Auto Loader's option of that idea).
 */
import { InvalidOptionError } from '../errors.js';
import type { FileStreamOptions } from '../sources/file-stream-source.js';
import { parseDuration } from '../types/duration.js';
import {
  booleanOption,
  byteSizeOption,
  type OptionValue,
  positiveIntegerOption,
} from './reader-options.js';

/** The admission and listing settings of a file stream. */
export type FileStreamSettings = Pick<
  FileStreamOptions,
  | 'maxFilesPerTrigger'
  | 'maxBytesPerTrigger'
  | 'latestFirst'
  | 'maxFileAgeMs'
  | 'incrementalListing'
>;

/** Reads the file stream options from options keyed by lower-cased name. */
export function fileStreamSettings(options: ReadonlyMap<string, OptionValue>): FileStreamSettings {
  return {
    maxFilesPerTrigger: positiveIntegerOption(
      'maxFilesPerTrigger',
      options.get('maxfilespertrigger'),
    ),
    maxBytesPerTrigger: byteSizeOption('maxBytesPerTrigger', options.get('maxbytespertrigger')),
    latestFirst: booleanOption('latestFirst', options.get('latestfirst')),
    maxFileAgeMs: durationMsOption('maxFileAge', options.get('maxfileage')),
    incrementalListing: booleanOption('incrementalListing', options.get('incrementallisting')),
  };
}

/** A duration: milliseconds as a number, or an interval such as '7d' or '12 hours'. */
function durationMsOption(name: string, value: OptionValue | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' || /^\s*\d+\s*$/.test(String(value))) {
    return positiveOrZero(name, Number(value));
  }
  return parseDuration(String(value), `option ${name}`, true) / 1000;
}

function positiveOrZero(name: string, ms: number): number {
  if (!Number.isInteger(ms) || ms < 0) {
    throw new InvalidOptionError(
      `Invalid option ${name}='${ms}'; use milliseconds or an interval such as '7d' or '12 hours'.`,
    );
  }
  return ms;
}
