/**
 * DataFrameReader (`session.read`): bounded tables from files. The schema is fixed when the DataFrame
 * is created (given, or inferred from the files then); the files are read again each time the
 * DataFrame runs, so a static side of a stream-static join sees the files' current content per batch.
 */
import { fileFormat, type FileFormat, inferSchema, listDataFiles, readDataFile } from '../io/data-files.js';
import { newPlanId } from '../plan/logical-plan.js';
import type { StructType } from '../types/data-types.js';
import { parseSchema } from '../types/type-names.js';
import { DataFrame } from './dataframe.js';
import { fileReadOptions, type OptionValue } from './reader-options.js';
import type { SluiceSession } from './session.js';

/** Reads bounded DataFrames from files. */
export class DataFrameReader {
  private formatName: FileFormat = 'parquet';
  private userSchema?: StructType;
  private readonly options = new Map<string, OptionValue>();

  constructor(private readonly session: SluiceSession) {}

  /** The file format: json (JSON lines), csv, parquet or text. */
  format(name: string): this {
    this.formatName = fileFormat(name);
    return this;
  }

  /** The schema to read with (a StructType or DDL such as `'a INT, b STRING'`); skips inference. */
  schema(schema: StructType | string): this {
    this.userSchema = typeof schema === 'string' ? parseSchema(schema) : schema;
    return this;
  }

  /** A reader option, as Spark names it (header, delimiter, mode, inferSchema, ...). */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** Several options at once. */
  optionsFrom(options: Record<string, OptionValue>): this {
    for (const [k, v] of Object.entries(options)) this.option(k, v);
    return this;
  }

  /** Reads a file, or every data file under a directory. */
  load(location: string): DataFrame {
    const format = this.formatName;
    const options = fileReadOptions(this.options, this.userSchema);
    const schema = inferSchema(listDataFiles(location), format, options);
    const scan = async () => {
      const files = listDataFiles(location);
      const contents = await Promise.all(files.map((f) => readDataFile(f, format, { ...options, schema })));
      return contents.flatMap((c) => c.rows);
    };
    return new DataFrame(this.session, {
      kind: 'relation',
      id: newPlanId(),
      description: `${format}[${location}]`,
      scan,
      schema,
      isStreaming: false,
    });
  }

  /** Reads JSON lines files. */
  json(location: string): DataFrame {
    return this.format('json').load(location);
  }

  /** Reads CSV files. */
  csv(location: string): DataFrame {
    return this.format('csv').load(location);
  }

  /** Reads Parquet files. */
  parquet(location: string): DataFrame {
    return this.format('parquet').load(location);
  }

  /** Reads text files: one row per line, in a string column `value`. */
  text(location: string): DataFrame {
    return this.format('text').load(location);
  }
}
