/**
 * SluiceSession: the entry point, like SparkSession — readers for tables and streams, DataFrames
 * from rows, the tables that named memory sinks fill, the object stores that locations given
 * as URLs (`s3://bucket/prefix`) resolve to, the factory of `format('dynamodb')` sinks, and the
 * factory of the deployed checkpoints that `read.format('statestore')` reads.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { inMemoryRelation } from '../plan/plan-builder.js';
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
import type { CheckpointBackendFactory } from '../checkpoint/deployed-checkpoint.js';
import { ObjectStoreUrls } from './object-store-urls.js';
import { Catalog } from './catalog.js';
import { StreamingQueryManager } from './streaming-query-manager.js';
import { UDFRegistration } from './user-defined-function.js';
import { sqlFrontEnd, type TableLookup } from './sql-front-end.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { closestName } from '../expr/closest-name.js';

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
  /**
   * Opens the deployed checkpoints that `read.format('statestore')` and `format('state-metadata')`
   * read (options `checkpointTable`, `queryId`, `stateLocation`): `awsCheckpointBackends({ clients })`
   * from core/aws.
   * @default `awsCheckpointBackends()`, clients of the SDK's region, credentials and endpoint
   * resolution, loaded when the session first reads a deployed checkpoint
   */
  readonly checkpointBackends?: CheckpointBackendFactory;
}

/** A Sluice session. */
export class SluiceSession {
  private readonly tables = new Map<string, MemorySink>();
  /** Temporary views by lowercase name (names are case-insensitive, as in Spark). */
  private readonly views = new Map<string, { readonly name: string; readonly plan: LogicalPlan }>();
  private readonly objectStores: ObjectStoreUrls;
  /** The session's user-defined functions: `session.udf.register(name, fn, returnType)`. */
  readonly udf = new UDFRegistration();
  /** The factory the session was created with for `format('dynamodb')` sinks, if any. */
  readonly dynamoDbSinks: DynamoDbSinkFactory | undefined;
  /** The factory the session was created with for deployed checkpoints, if any. */
  readonly checkpointBackends: CheckpointBackendFactory | undefined;

  constructor(options: SluiceSessionOptions = {}) {
    this.objectStores = new ObjectStoreUrls(options.objectStores);
    if (options.dynamoDbSinks !== undefined && typeof options.dynamoDbSinks !== 'function') {
      throw new InvalidOptionError(
        'Session option dynamoDbSinks must be a function (settings) => Sink, e.g. dynamoDbSinks({ client }).',
      );
    }
    if (
      options.checkpointBackends !== undefined &&
      typeof options.checkpointBackends !== 'function'
    ) {
      throw new InvalidOptionError(
        'Session option checkpointBackends must be a function (location) => CheckpointBackend, e.g. awsCheckpointBackends({ clients }).',
      );
    }
    this.dynamoDbSinks = options.dynamoDbSinks;
    this.checkpointBackends = options.checkpointBackends;
  }

  /**
   * The store a URL such as `s3://bucket/prefix` names, from the resolver registered for its scheme;
   * undefined for a local path.
   */
  objectStore(location: string): ObjectStore | undefined {
    return ObjectStoreUrls.isUrl(location) ? this.objectStores.resolve(location) : undefined;
  }

  /** The session's streaming queries: active ones, listeners, awaitAnyTermination (as Spark's `spark.streams`). */
  readonly streams = new StreamingQueryManager();

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
    return new DataFrame(
      this,
      inMemoryRelation(
        `LocalRelation[${engineRows.length} rows]`,
        resolved,
        async () => engineRows,
      ),
    );
  }

  /** A new MemoryStream with `schema`, to feed a stream from the program (tests, examples). */
  memoryStream(schema: StructType | string, name?: string): MemoryStream {
    return new MemoryStream(typeof schema === 'string' ? parseSchema(schema) : schema, name);
  }

  /**
   * The temporary view called `name` (`df.createOrReplaceTempView(name)`), or else the current
   * content of the memory sink of the query named `name`, as a batch DataFrame.
   */
  table(name: string): DataFrame {
    const plan = this.tablePlan(name);
    if (!plan) {
      const suggestion = closestName(name, this.tableNames());
      throw new AnalysisError(
        `Table or view not found: ${name}.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} Register a DataFrame with df.createOrReplaceTempView('${name}'), or start a query with format('memory') and queryName('${name}').`,
      );
    }
    return new DataFrame(this, plan);
  }

  /**
   * The result of a SQL query over the session's temporary views and memory tables: a batch
   * DataFrame, or a streaming one when the query reads a streaming view. Needs the SQL entry
   * (`import 'sluice/sql'`); the text is parsed and analysed now, so errors surface here.
   */
  sql(text: string): DataFrame {
    const lookup: TableLookup = {
      table: (name) => this.tablePlan(name),
      tableNames: () => this.tableNames(),
    };
    const frontEnd = sqlFrontEnd('session.sql()');
    return new DataFrame(this, frontEnd.statementPlan(text, lookup, this.udf.lookup));
  }

  /** The session's temporary views and memory tables. */
  get catalog(): Catalog {
    return new Catalog({
      views: () => [...this.views.values()],
      memoryTables: () =>
        [...this.tables.entries()].map(([name, sink]) => ({ name, schema: sink.schema })),
      dropView: (name) => this.views.delete(name.toLowerCase()),
    });
  }

  /** Registers `plan` as the temporary view `name`, replacing one of that name (called by the DataFrame). */
  registerView(name: string, plan: LogicalPlan): void {
    this.views.set(name.toLowerCase(), { name, plan });
  }

  /** The plan a table name reads: a temporary view first, then a memory sink's table. */
  private tablePlan(name: string): LogicalPlan | undefined {
    const view = this.views.get(name.toLowerCase());
    if (view) return view.plan;
    const sink = this.tables.get(name);
    if (!sink) return undefined;
    return inMemoryRelation(`MemoryTable[${name}]`, sink.schema, async () => [
      ...sink.engineRows(),
    ]);
  }

  private tableNames(): string[] {
    return [...[...this.views.values()].map((v) => v.name), ...this.tables.keys()];
  }

  /** Registers a memory sink under a table name (called by writeStream). */
  registerTable(name: string, sink: MemorySink): void {
    this.tables.set(name, sink);
  }
}
