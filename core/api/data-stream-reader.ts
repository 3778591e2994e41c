/**
 * DataStreamReader (`session.readStream`): unbounded DataFrames from a directory of files or a
 * MemoryStream. A file stream needs its schema up front, as in Spark, so the query's shape cannot
 * change when new files arrive.
 */
import { InvalidOptionError } from '../errors.js';
import { fileFormat, type FileFormat, TEXT_SCHEMA } from '../io/data-files.js';
import { newPlanId, type StreamingRelation } from '../plan/logical-plan.js';
import { FileStreamSource } from '../sources/file-stream-source.js';
import type { MemoryStream } from '../sources/memory-stream.js';
import type { StructType } from '../types/data-types.js';
import { parseSchema } from '../types/type-names.js';
import { DataFrame } from './dataframe.js';
import { booleanOption, fileReadOptions, type OptionValue, positiveIntegerOption } from './reader-options.js';
import type { SluiceSession } from './session.js';

/** Reads streaming DataFrames. */
export class DataStreamReader {
  private formatName: FileFormat = 'parquet';
  private userSchema?: StructType;
  private readonly options = new Map<string, OptionValue>();

  constructor(private readonly session: SluiceSession) {}

  /** The file format: json (JSON lines), csv, parquet or text. */
  format(name: string): this {
    this.formatName = fileFormat(name);
    return this;
  }

  /** The schema of the files (required for file streams, except text). */
  schema(schema: StructType | string): this {
    this.userSchema = typeof schema === 'string' ? parseSchema(schema) : schema;
    return this;
  }

  /** A source option: maxFilesPerTrigger, latestFirst, and the reader options of the format. */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** New files appearing under a directory, as a stream. */
  load(directory: string): DataFrame {
    const format = this.formatName;
    const schema = format === 'text' ? TEXT_SCHEMA : this.userSchema;
    if (!schema) {
      throw new InvalidOptionError(
        `A file stream over ${directory} needs a schema: call readStream.schema(...) before load(), so the query's shape cannot change as files arrive.`,
      );
    }
    const read = { ...fileReadOptions(this.options, schema), schema };
    const maxFilesPerTrigger = positiveIntegerOption('maxFilesPerTrigger', this.options.get('maxfilespertrigger'));
    const latestFirst = booleanOption('latestFirst', this.options.get('latestfirst'));
    return this.relation(`FileSource[${directory}]`, schema, (context) =>
      new FileStreamSource({ directory, format, read, maxFilesPerTrigger, latestFirst }, context),
    );
  }

  /** JSON lines files under a directory. */
  json(directory: string): DataFrame {
    return this.format('json').load(directory);
  }

  /** CSV files under a directory. */
  csv(directory: string): DataFrame {
    return this.format('csv').load(directory);
  }

  /** Parquet files under a directory. */
  parquet(directory: string): DataFrame {
    return this.format('parquet').load(directory);
  }

  /** Text files under a directory: one row per line, in a string column `value`. */
  text(directory: string): DataFrame {
    return this.format('text').load(directory);
  }

  /** The rows added to a MemoryStream, as a stream. */
  memory(stream: MemoryStream): DataFrame {
    return this.relation(stream.description, stream.schema, () => stream);
  }

  private relation(description: string, schema: StructType, source: StreamingRelation['source']): DataFrame {
    return new DataFrame(this.session, { kind: 'streamingRelation', id: newPlanId(), description, schema, source, isStreaming: true });
  }
}
