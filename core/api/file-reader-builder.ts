/**
 * What `read` and `readStream` share: the format, the schema and Spark-style options they collect
 * before `load`, and the per-format shortcuts (`json`, `csv`, `parquet`, `text`).
 */
import { fileFormat, type FileFormat } from '../io/data-files.js';
import type { StructType } from '../types/data-types.js';
import { parseSchema } from '../types/type-names.js';
import type { DataFrame } from './dataframe.js';
import type { OptionValue } from './reader-options.js';

/** A builder of DataFrames over files. */
export abstract class FileReaderBuilder {
  protected formatName: FileFormat = 'parquet';
  protected userSchema?: StructType;
  /** Options by lower-cased name: option names are case-insensitive, as in Spark. */
  protected readonly options = new Map<string, OptionValue>();

  /** The file format: json (JSON lines), csv, parquet (default) or text. */
  format(name: string): this {
    this.formatName = fileFormat(name);
    return this;
  }

  /** The schema of the files: a StructType or DDL such as `'a INT, b STRING'`. */
  schema(schema: StructType | string): this {
    this.userSchema = typeof schema === 'string' ? parseSchema(schema) : schema;
    return this;
  }

  /** An option, as Spark names it (header, delimiter, mode, inferSchema, maxFilesPerTrigger, ...). */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** Several options at once. */
  optionsFrom(options: Record<string, OptionValue>): this {
    for (const [k, v] of Object.entries(options)) this.option(k, v);
    return this;
  }

  /** Reads the files at `location` in the chosen format. */
  abstract load(location: string): DataFrame;

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
