/**
 * What `read.format('delta')` and `readStream.format('delta')` return: a builder that collects
 * options, as the file readers do, and whose `load` is asynchronous, since a Delta table's schema is
 * in its log, which may be on S3. With a literal 'delta', TypeScript knows `format` returns one:
 * `await session.read.format('delta').option('versionAsOf', 3).load('/tables/clicks')`.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { InvalidOptionError } from '../errors.js';
import type { DataFrame } from './dataframe.js';
import type { OptionValue } from './reader-options.js';

/** The format name that selects a Delta builder, as callers spell it. */
export type DeltaFormatName = 'delta' | 'Delta' | 'DELTA';

/** Loads a Delta table as a DataFrame with the options collected so far (keys lower-cased). */
export type DeltaLoader = (
  location: string | ObjectStore,
  options: ReadonlyMap<string, OptionValue>,
) => Promise<DataFrame>;

/** A Delta table reader: options, then `load`. */
export class DeltaReaderBuilder {
  private readonly options: Map<string, OptionValue>;

  constructor(
    private readonly loader: DeltaLoader,
    /** The options given before format('delta'). */
    options: ReadonlyMap<string, OptionValue>,
  ) {
    this.options = new Map(options);
  }

  /**
   * An option, as Spark names it: for a batch read versionAsOf; for a stream maxFilesPerTrigger,
   * maxBytesPerTrigger, startingVersion, ignoreDeletes, ignoreChanges, skipChangeCommits.
   */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** Several options at once. */
  optionsFrom(options: Record<string, OptionValue>): this {
    for (const [k, v] of Object.entries(options)) this.option(k, v);
    return this;
  }

  /**
   * The table at `location`: a local directory, a URL such as `s3://bucket/prefix` (resolved by the
   * session's `objectStores`), or an ObjectStore whose root is the table root.
   */
  async load(location: string | ObjectStore): Promise<DataFrame> {
    return this.loader(location, this.options);
  }
}

/** The error for a user schema given to a Delta read: the table's schema is its log's, as in Spark. */
export function deltaSchemaGiven(): InvalidOptionError {
  return new InvalidOptionError(
    "A Delta table's schema comes from its log: drop .schema(...) before format('delta').",
  );
}
