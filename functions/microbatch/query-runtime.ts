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
 * A query with parallelism above 1 runs one shard per invocation (the event names it, and the stage
 * of a split query, whose repartition topic is on the source's Kafka cluster): the container
 * keeps the execution of the shard it ran last, so a warm invocation of the same shard keeps its
 * state, and one of another shard starts that shard's execution in its place (one shard's state in
 * memory at a time, whatever the container served before).
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
  StageSelectionError,
  type MicroBatchExecution,
  runInvocation,
  type ShardIdentity,
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
import { kafkaSourceOptions, repartitionOptions } from './kafka-source-options.js';
import type { QueryModule } from './query-module.js';
import { checkSinkColumns } from './sink-columns.js';
import { sinkWriterOptions } from './sink-writer-options.js';

/** One container's query. */
export class QueryRuntime {
  /** The query of one shard, built on that shard's checkpoint. */
  private readonly queryOf: (shard: ShardIdentity) => CheckedStreamingQuery;
  private readonly leaseDurationMs: number;
  /** The execution of the shard this container ran last. */
  private running:
    { readonly shard: ShardIdentity; readonly execution: Promise<MicroBatchExecution> } | undefined;

  constructor(config: MicroBatchConfig, queryModule: QueryModule, clients: AwsClients) {
    const session = new SluiceSession({
      objectStores: { s3: s3ObjectStores({ client: clients.s3 }) },
      dynamoDbSinks: dynamoDbSinks({ client: clients.dynamodb }),
    });
    this.leaseDurationMs = config.leaseDurationMs;
    const input = fromSetting(ENV.source, () => sourceFrame(session, config.source, clients));
    const df = queryModule.query(input, session);
    const backendOf = (shard: ShardIdentity) =>
      awsCheckpointBackend({
        tableName: config.checkpointTable,
        bucket: config.stateBucket,
        queryId: config.queryId,
        prefix: config.statePrefix,
        shard,
        clients,
      });
    const sink = fromSetting(ENV.sink, () => {
      checkSinkColumns(config.sink, df.schema);
      return sinkWriterOptions(config.sink);
    });
    this.queryOf = (shard) =>
      fromSetting(ENV.sink, () =>
        df.writeStream
          .format(sink.format)
          .optionsFrom(sink.options)
          .optionsFrom(
            config.inlineStateMaxBytes === undefined
              ? {}
              : { inlineStateMaxBytes: config.inlineStateMaxBytes },
          )
          .optionsFrom(config.source.kind === 'kafka' ? repartitionOptions(config.source) : {})
          .outputMode(queryModule.outputMode)
          .checkpoint(backendOf(shard))
          .queryName(config.queryId)
          .check(),
      );
    this.checkAtColdStart(config);
  }

  /**
   * Fails the cold start on everything checkable without I/O, for the first shard as for any. A
   * function that serves no one stage checks a split query as both of its stages, since each event
   * names the one it runs.
   */
  private checkAtColdStart(config: MicroBatchConfig): void {
    const shardAt = (stage: number) => ({
      stage,
      shard: config.shard ?? 0,
      shards: config.parallelism,
    });
    if (config.stage !== undefined) {
      this.queryOf(shardAt(config.stage));
      return;
    }
    try {
      this.queryOf(shardAt(0));
    } catch (error) {
      // stage 0 is refused only to a query that needs a stage
      if (!(error instanceof StageSelectionError)) throw error;
      this.queryOf(shardAt(1));
      this.queryOf(shardAt(2));
    }
  }

  /** Runs one invocation's batches of `shard` within `budget`. */
  async runInvocation(budget: InvocationBudget, shard: ShardIdentity): Promise<InvocationResult> {
    return runInvocation(await this.startedExecution(shard), budget);
  }

  private async startedExecution(shard: ShardIdentity): Promise<MicroBatchExecution> {
    const running = this.running;
    if (running?.shard.shard === shard.shard && running.shard.stage === shard.stage) {
      return running.execution;
    }
    this.running = undefined;
    // the previous shard's execution holds connections and state that this shard does not use
    // (a start that failed has nothing to stop; its error went to the invocation that started it)
    if (running) await (await running.execution.catch(() => undefined))?.stop();
    const execution = this.queryOf(shard)
      .start({ leaseDurationMs: this.leaseDurationMs })
      .catch((error: unknown) => {
        if (this.running?.execution === execution) this.running = undefined;
        throw error;
      });
    this.running = { shard, execution };
    return execution;
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

/**
 * Runs `build`, naming `setting` in the message of a configuration error it throws; a stage that does
 * not fit the query is the invocation's choice, not the setting's, and passes unchanged.
 */
function fromSetting<T>(setting: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof InvalidOptionError) || error instanceof StageSelectionError) throw error;
    throw new InvalidOptionError(`${setting}: ${error.message}`, { cause: error });
  }
}
