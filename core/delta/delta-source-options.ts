/**
 * The options of a Delta stream source, named as Spark names them, checked when the stream is
 * defined so that a wrong one fails there, not when the query runs.
 */
import { InvalidOptionError } from '../errors.js';

/** Options of a Delta stream. */
export interface DeltaSourceOptions {
  /** The most data files one batch reads. @default 1000 */
  readonly maxFilesPerTrigger?: number;
  /** About the most bytes of data files one batch reads (soft: at least one file). @default none */
  readonly maxBytesPerTrigger?: number;
  /**
   * The version whose added files the stream reads first, or `latest` for only versions committed
   * after the stream starts. @default the table's snapshot when the stream starts, then new versions
   */
  readonly startingVersion?: number | 'latest';
  /** Pass over commits that only delete data. @default false */
  readonly ignoreDeletes?: boolean;
  /** Read the added files of commits that rewrite data (repeating rows). @default false */
  readonly ignoreChanges?: boolean;
  /** Pass over every commit that deletes or rewrites data. @default false */
  readonly skipChangeCommits?: boolean;
}

/** Spark's default `maxFilesPerTrigger` for Delta streams. */
export const DEFAULT_MAX_FILES_PER_TRIGGER = 1000;

/** Throws InvalidOptionError naming the first invalid option; `source` names the stream. */
export function checkDeltaSourceOptions(options: DeltaSourceOptions, source: string): void {
  const positive = (n: unknown) =>
    n === undefined || (Number.isSafeInteger(n) && (n as number) > 0);
  const bad = (name: string, value: unknown, expected: string) =>
    new InvalidOptionError(
      `${source}: option ${name} must be ${expected}, got ${JSON.stringify(value)}.`,
    );
  if (!positive(options.maxFilesPerTrigger)) {
    throw bad('maxFilesPerTrigger', options.maxFilesPerTrigger, 'a positive integer');
  }
  if (!positive(options.maxBytesPerTrigger)) {
    throw bad('maxBytesPerTrigger', options.maxBytesPerTrigger, 'a positive integer');
  }
  const starting = options.startingVersion;
  if (
    starting !== undefined &&
    starting !== 'latest' &&
    !(Number.isSafeInteger(starting) && starting >= 0)
  ) {
    throw bad('startingVersion', starting, "a version (0 or more) or 'latest'");
  }
}
