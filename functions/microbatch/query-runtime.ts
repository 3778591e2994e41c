/**
 * The query as one function container runs it: built from the configuration and the query module at
 * cold start, then shared by every invocation the container serves.
 *
 * The query is built as any other is, through `df.writeStream` (core/api/streaming-query-builder.ts):
 * the sink is named by format and options in the one sink registry, so the function's sinks get the
 * same option checks as a query's anywhere else. Building checks everything that can be checked
 * without I/O (the source's options, the query's shape for its output mode, the sink's and the
 * checkpoint's settings), so a bad configuration fails the cold start, naming the environment
 * variable, instead of the first batch. The micro-batch execution (the sink created, the checkpoint
 * opened, the sink told the query's id) starts with the first invocation and then stays: warm
 * invocations keep its connections and, while no other container committed in between, its state in
 * memory (docs/architecture.md section 5). A start that fails is tried again by the next invocation;
 * a batch that fails leaves the execution usable, since the engine drops the state that attempt
 * touched and the next attempt re-runs the batch from its intent.
 *
 * The query's lease is short (SLUICE_LEASE_MS, 30 s by default) and renewed by the running batch at
 * every protocol step and during long ones, so an invocation that crashed (out of memory, a killed
 * container) holds the query for at most that long, not for the function's timeout; the fencing
 * epoch still refuses the commit of an invocation that lost it.
 */
import {
  type CheckedStreamingQuery,
  type DataFrame,
  type InvocationBudget,
  type InvocationResult,
  InvalidOptionError,
  type MicroBatchExecution,
  runInvocation,
  SluiceSession,
} from '../../core/index.js';
import {
  awsCheckpointBackend,
  dynamoDbSinks,
  S3ObjectStore,
  s3ObjectStores,
} from '../../core/aws/index.js';
import type { AwsClients } from './aws-clients.js';
import { ENV, type MicroBatchConfig, type SourceConfig } from './configuration.js';
import { kafkaSourceOptions } from './kafka-source-options.js';
import type { QueryModule } from './query-module.js';
import { checkSinkColumns } from './sink-columns.js';
import { sinkWriterOptions } from './sink-writer-options.js';

/** One container's query. */
export class QueryRuntime {
  private readonly query: CheckedStreamingQuery;
  private readonly leaseDurationMs: number;
  private execution: Promise<MicroBatchExecution> | undefined;

  constructor(config: MicroBatchConfig, queryModule: QueryModule, clients: AwsClients) {
    const session = new SluiceSession({
      objectStores: { s3: s3ObjectStores({ client: clients.s3 }) },
      dynamoDbSinks: dynamoDbSinks({ client: clients.dynamodb }),
    });
    this.leaseDurationMs = config.leaseDurationMs;
    const input = fromSetting(ENV.source, () => sourceFrame(session, config.source, clients));
    const df = queryModule.query(input, session);
    const backend = awsCheckpointBackend({
      tableName: config.checkpointTable,
      bucket: config.stateBucket,
      queryId: config.queryId,
      prefix: config.statePrefix,
      clients,
    });
    this.query = fromSetting(ENV.sink, () => {
      checkSinkColumns(config.sink, df.schema);
      const sink = sinkWriterOptions(config.sink);
      return df.writeStream
        .format(sink.format)
        .optionsFrom(sink.options)
        .optionsFrom(
          config.inlineStateMaxBytes === undefined
            ? {}
            : { inlineStateMaxBytes: config.inlineStateMaxBytes },
        )
        .outputMode(queryModule.outputMode)
        .checkpoint(backend)
        .queryName(config.queryId)
        .check();
    });
  }

  /** Runs one invocation's batches within `budget`. */
  async runInvocation(budget: InvocationBudget): Promise<InvocationResult> {
    return runInvocation(await this.startedExecution(), budget);
  }

  private startedExecution(): Promise<MicroBatchExecution> {
    this.execution ??= this.query
      .start({ leaseDurationMs: this.leaseDurationMs })
      .catch((error: unknown) => {
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
      reader.option('maxBytesPerTrigger', source.maxBytesPerTrigger);
      return reader.load(
        new S3ObjectStore({ client: clients.s3, bucket: source.bucket, prefix: source.prefix }),
      );
    }
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
