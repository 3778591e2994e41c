/**
 * The query as one function container runs it: built from the configuration and the query module at
 * cold start, then shared by every invocation the container serves.
 *
 * Building checks everything that can be checked without I/O (the source's options, the query's
 * shape for its output mode, the sink's and the checkpoint's settings), so a bad configuration
 * fails the cold start, naming the environment variable, instead of the first batch. The
 * micro-batch execution (the checkpoint opened, the sink told the query's id) starts with the first
 * invocation and then stays: warm invocations keep its connections and, while no other container
 * committed in between, its state in memory (docs/architecture.md section 5). A start that fails is
 * tried again by the next invocation; a batch that fails leaves the execution usable, since the
 * engine drops the state that attempt touched and the next attempt re-runs the batch from its
 * intent.
 *
 * The query's lease lasts as long as the function's timeout (the time the container's first
 * invocation had): it cannot lapse while the invocation that holds it may still run, and the lease
 * of an invocation killed at its timeout expires soon after, so the next one takes over.
 */
import {
  type CheckpointBackend,
  type DataFrame,
  DEFAULT_SNAPSHOT_INTERVAL,
  DEFAULT_STATE_PARTITIONS,
  DeltaSink,
  FileSink,
  KafkaSink,
  kafkaSinkOptions as coreKafkaSinkOptions,
  type InvocationBudget,
  type InvocationResult,
  InvalidOptionError,
  MicroBatchExecution,
  runInvocation,
  type Sink,
  SluiceSession,
} from '../../core/index.js';
import { awsCheckpointBackend, DynamoDbSink, S3ObjectStore } from '../../core/aws/index.js';
import { checkStreamingPlan } from '../../core/plan/unsupported-operation-checker.js';
import type { AwsClients } from './aws-clients.js';
import { ENV, type MicroBatchConfig, type SinkConfig, type SourceConfig } from './configuration.js';
import { kafkaSinkOptions, kafkaSourceOptions } from './kafka-source-options.js';
import type { QueryModule } from './query-module.js';
import { checkSinkColumns } from './sink-columns.js';

/** One container's query. */
export class QueryRuntime {
  private readonly df: DataFrame;
  private readonly sink: Sink;
  private readonly backend: CheckpointBackend;
  private execution: Promise<MicroBatchExecution> | undefined;

  constructor(
    private readonly config: MicroBatchConfig,
    private readonly queryModule: QueryModule,
    clients: AwsClients,
  ) {
    const session = new SluiceSession();
    const input = fromSetting(ENV.source, () => sourceFrame(session, config.source, clients));
    this.df = queryModule.query(input, session);
    checkStreamingPlan(this.df.plan, queryModule.outputMode);
    this.sink = fromSetting(ENV.sink, () => {
      checkSinkColumns(config.sink, this.df.schema);
      return createSink(config.sink, clients);
    });
    this.backend = awsCheckpointBackend({
      tableName: config.checkpointTable,
      bucket: config.stateBucket,
      queryId: config.queryId,
      prefix: config.statePrefix,
      clients,
    });
  }

  /** Runs one invocation's batches within `budget`. */
  async runInvocation(budget: InvocationBudget): Promise<InvocationResult> {
    return runInvocation(await this.startedExecution(budget.remainingMs()), budget);
  }

  private startedExecution(leaseDurationMs: number): Promise<MicroBatchExecution> {
    this.execution ??= MicroBatchExecution.start({
      ...this.backend,
      plan: this.df.plan,
      outputMode: this.queryModule.outputMode,
      sink: this.sink,
      numStatePartitions: DEFAULT_STATE_PARTITIONS,
      snapshotInterval: DEFAULT_SNAPSHOT_INTERVAL,
      queryName: this.config.queryId,
      leaseDurationMs,
    }).catch((error: unknown) => {
      this.execution = undefined;
      throw error;
    });
    return this.execution;
  }
}

/** The source's stream. */
function sourceFrame(session: SluiceSession, source: SourceConfig, clients: AwsClients): DataFrame {
  switch (source.kind) {
    case 'kafka':
      return session.readStream.format('kafka').optionsFrom(kafkaSourceOptions(source)).load();
    case 's3-files': {
      const reader = session.readStream.format(source.format);
      if (source.schema !== undefined) reader.schema(source.schema);
      if (source.maxFilesPerTrigger !== undefined) {
        reader.option('maxFilesPerTrigger', source.maxFilesPerTrigger);
      }
      return reader.load(s3Store(clients, source.bucket, source.prefix));
    }
  }
}

function s3Store(clients: AwsClients, bucket: string, prefix: string): S3ObjectStore {
  return new S3ObjectStore({ client: clients.s3, bucket, prefix });
}

/** The sink; its options are checked here, at cold start. */
function createSink(sink: SinkConfig, clients: AwsClients): Sink {
  switch (sink.kind) {
    case 'delta':
      return new DeltaSink(s3Store(clients, sink.bucket, sink.path), {
        partitionBy: sink.partitionBy,
      });
    case 'files':
      return new FileSink(s3Store(clients, sink.bucket, sink.path), { format: sink.format });
    case 'dynamodb':
      return new DynamoDbSink({
        client: clients.dynamodb,
        tableName: sink.tableName,
        partitionKey: sink.partitionKey,
        sortKey: sink.sortKey,
        keyColumns: sink.keyColumns,
      });
    case 'kafka':
      return new KafkaSink(coreKafkaSinkOptions(new Map(Object.entries(kafkaSinkOptions(sink)))));
  }
}

/** Runs `build`, naming `setting` in the message of a configuration error it throws. */
function fromSetting<T>(setting: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof InvalidOptionError)) throw error;
    throw new InvalidOptionError(`${setting}: ${error.message}`, { cause: error });
  }
}
