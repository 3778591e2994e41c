/**
 * What `read` and `readStream` share: the format, the schema and Spark-style options they collect
 * before `load`, and the per-format shortcuts (`json`, `csv`, `parquet`, `text`). The format is a file
 * format, or `kafka`: then `load()` takes no path and the options name the topics.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { InvalidOptionError } from '../errors.js';
import { fileFormat, type FileFormat } from '../io/data-files.js';
import {
  kafkaOptions,
  type KafkaReadMode,
  type KafkaSourceOptions,
} from '../kafka/kafka-options.js';
import type { StructType } from '../types/data-types.js';
import { parseSchema } from '../types/type-names.js';
import type { DataFrame } from './dataframe.js';
import {
  type DeltaFormatName,
  DeltaReaderBuilder,
  deltaSchemaGiven,
} from './delta-reader-builder.js';
import type { OptionValue } from './reader-options.js';
import { isStateFormat, type StateFormatName } from './state-data-source.js';

/** A builder of DataFrames over files, Kafka or Delta tables. */
export abstract class FileReaderBuilder {
  protected formatName: FileFormat | 'kafka' | StateFormatName = 'parquet';
  protected userSchema?: StructType;
  /** Options by lower-cased name: option names are case-insensitive, as in Spark. */
  protected readonly options = new Map<string, OptionValue>();

  /**
   * The format: json (JSON lines), csv, parquet (default), text, kafka, delta, which gives a
   * builder whose `load` is asynchronous (the schema is in the table's log), or, on `session.read`,
   * statestore and state-metadata (a checkpoint's state as a table: api/state-data-source.ts).
   */
  format(name: DeltaFormatName): DeltaReaderBuilder;
  format(name: string): this;
  format(name: string): this | DeltaReaderBuilder {
    if (name.toLowerCase() === 'delta') {
      if (this.userSchema) throw deltaSchemaGiven();
      return new DeltaReaderBuilder(
        (location, options) => this.deltaTable(location, options),
        this.options,
      );
    }
    const lower = name.toLowerCase();
    this.formatName = lower === 'kafka' || isStateFormat(lower) ? lower : fileFormat(name);
    return this;
  }

  /** The Delta table at `location`, read with the options format('delta') collected. */
  protected abstract deltaTable(
    location: string | ObjectStore,
    options: ReadonlyMap<string, OptionValue>,
  ): Promise<DataFrame>;

  /** The schema of the files: a StructType or DDL such as `'a INT, b STRING'`. */
  schema(schema: StructType | string): this {
    this.userSchema = typeof schema === 'string' ? parseSchema(schema) : schema;
    return this;
  }

  /**
   * An option, as Spark names it (header, delimiter, mode, inferSchema, maxFilesPerTrigger, ...; for
   * Kafka kafka.bootstrap.servers, subscribe, startingOffsets, ...).
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

  /** Reads the files at `location` in the chosen format; for Kafka, the topics the options name. */
  abstract load(location?: string): DataFrame;

  /** The path a file format needs. */
  protected fileLocation(location: string | undefined): string {
    if (location === undefined) {
      throw new InvalidOptionError(
        `load() needs a path to read ${this.formatName} files from: load('path/to/files').`,
      );
    }
    return location;
  }

  /** The Kafka options, checked for `mode`; Kafka has no path and a fixed schema. */
  protected kafkaSourceOptions(
    location: string | undefined,
    mode: KafkaReadMode,
  ): KafkaSourceOptions {
    if (location !== undefined) {
      throw new InvalidOptionError(
        `The Kafka source reads topics, not a path ('${location}'): call load() without one and name the topics with option('subscribe', ...).`,
      );
    }
    if (this.userSchema) {
      throw new InvalidOptionError(
        "The Kafka source has a fixed schema (key, value, topic, partition, offset, timestamp, timestampType, headers); drop .schema(...) and parse `value` instead, e.g. with from_json(col('value').cast('string'), schema).",
      );
    }
    return kafkaOptions(this.options, mode);
  }

  /** JSON lines files. */
  json(location: string): DataFrame {
    return this.format('json').load(location);
  }

  /** CSV files. */
  csv(location: string): DataFrame {
    return this.format('csv').load(location);
  }

  /** Parquet files. */
  parquet(location: string): DataFrame {
    return this.format('parquet').load(location);
  }

  /** Text files: one row per line, in a string column `value`. */
  text(location: string): DataFrame {
    return this.format('text').load(location);
  }
}
