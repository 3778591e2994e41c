/**
 * SluiceSession: the entry point, like SparkSession — readers for tables and streams, DataFrames
 * from rows, the tables that named memory sinks fill, the object stores that locations given
 * as URLs (`s3://bucket/prefix`) resolve to, and the factory of `format('dynamodb')` sinks.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { newPlanId } from '../plan/logical-plan.js';
import type { MemorySink } from '../sinks/memory-sink.js';
import { MemoryStream } from '../sources/memory-stream.js';
import type { StructType } from '../types/data-types.js';
import type { RowObject } from '../types/row.js';
import { rowInputConverter } from '../types/row-input.js';
import { parseSchema } from '../types/type-names.js';
import { DataFrame } from './dataframe.js';
import { DataFrameReader } from './dataframe-reader.js';
import { DataStreamReader } from './data-stream-reader.js';
import type { ObjectStoreResolvers } from '../checkpoint/object-store-resolver.js';
import type { DynamoDbSinkFactory } from '../sinks/dynamodb-sink-factory.js';
import { ObjectStoreUrls } from './object-store-urls.js';

/** How a session is configured. */
export interface SluiceSessionOptions {
  /**
   * Object stores by URL scheme, for locations such as `s3://bucket/prefix`:
   * `{ s3: s3ObjectStores({ client }) }`. @default none: locations are local paths
   */
  readonly objectStores?: ObjectStoreResolvers;
  /**
   * Makes the sinks of `writeStream.format('dynamodb')`: `dynamoDbSinks({ client })` from core/aws.
   * @default `dynamoDbSinks()`, a client of the SDK's region, credentials and endpoint resolution,
   * loaded when a query first writes to DynamoDB
   */
  readonly dynamoDbSinks?: DynamoDbSinkFactory;
}

/** A Sluice session. */
export class SluiceSession {
  private readonly tables = new Map<string, MemorySink>();
  private readonly objectStores: ObjectStoreUrls;
  /** The factory the session was created with for `format('dynamodb')` sinks, if any. */
  readonly dynamoDbSinks: DynamoDbSinkFactory | undefined;

  constructor(options: SluiceSessionOptions = {}) {
    this.objectStores = new ObjectStoreUrls(options.objectStores);
    if (options.dynamoDbSinks !== undefined && typeof options.dynamoDbSinks !== 'function') {
      throw new InvalidOptionError(
        'Session option dynamoDbSinks must be a function (settings) => Sink, e.g. dynamoDbSinks({ client }).',
      );
    }
    this.dynamoDbSinks = options.dynamoDbSinks;
  }

  /**
   * The store a URL such as `s3://bucket/prefix` names, from the resolver registered for its scheme;
   * undefined for a local path.
   */
  objectStore(location: string): ObjectStore | undefined {
    return ObjectStoreUrls.isUrl(location) ? this.objectStores.resolve(location) : undefined;
  }

  /** Reads bounded DataFrames (files). */
  get read(): DataFrameReader {
    return new DataFrameReader(this);
  }

  /** Reads streaming DataFrames (files under a directory or an object store's prefix, Kafka, memory streams). */
  get readStream(): DataStreamReader {
    return new DataStreamReader(this);
  }

  /**
   * A DataFrame from objects keyed by column name; `schema` is a StructType or DDL (`'a INT, b STRING'`).
   * Values must be of their column's type (a Date or µs since the epoch for a timestamp, a Date or
   * days for a date); an InvalidOptionError names the first row and column that is not.
   */
  createDataFrame(rows: readonly RowObject[], schema: StructType | string): DataFrame {
    const resolved = typeof schema === 'string' ? parseSchema(schema) : schema;
    const convert = rowInputConverter(resolved, 'createDataFrame');
    const engineRows = rows.map(convert);
    return new DataFrame(this, {
      kind: 'relation',
      id: newPlanId(),
      description: `LocalRelation[${engineRows.length} rows]`,
      scan: async () => engineRows,
      schema: resolved,
      isStreaming: false,
    });
  }

  /** A new MemoryStream with `schema`, to feed a stream from the program (tests, examples). */
  memoryStream(schema: StructType | string, name?: string): MemoryStream {
    return new MemoryStream(typeof schema === 'string' ? parseSchema(schema) : schema, name);
  }

  /** The current content of the memory sink of the query named `name`, as a batch DataFrame. */
  table(name: string): DataFrame {
    const sink = this.tables.get(name);
    if (!sink) {
      throw new AnalysisError(
        `Table or view not found: ${name}. Start a query with format('memory') and queryName('${name}').`,
      );
    }
    return new DataFrame(this, {
      kind: 'relation',
      id: newPlanId(),
      description: `MemoryTable[${name}]`,
      scan: async () => [...sink.engineRows()],
      schema: sink.schema,
      isStreaming: false,
    });
  }

  /** Registers a memory sink under a table name (called by writeStream). */
  registerTable(name: string, sink: MemorySink): void {
    this.tables.set(name, sink);
  }
}
