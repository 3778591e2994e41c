/**
 * The one way a streaming query is built: `writeStream.start()`, `writeStream.runInvocation()` and
 * the Lambda function all go through {@link checkStreamingQuery}. Building has two steps:
 *
 * 1. check — everything that can be checked without I/O: the query's shape for its output mode,
 *    the trigger, the sink's format and options (the sink registry, sink-formats.ts), the state
 *    options and where the checkpoint is. A bad setting fails here, so the function's cold start
 *    fails on it, naming its environment variable.
 * 2. start — the sink is created (its connector loaded, where it has one to load) and the checkpoint
 *    opened: the MicroBatchExecution that runs the query's batches. A container that keeps the
 *    execution reuses its connections and warm state across invocations.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import { localCheckpointBackend } from '../checkpoint/local-checkpoint-backend.js';
import {
  type ShardIdentity,
  UNSHARDED,
  validateShardIdentity,
} from '../checkpoint/shard-identity.js';
import { InvalidOptionError } from '../errors.js';
import { checkStreamingPlan } from '../plan/unsupported-operation-checker.js';
import type { OutputMode, Sink } from '../sinks/sink.js';
import {
  type BatchStep,
  MicroBatchExecution,
  type MicroBatchExecutionOptions,
} from '../streaming/micro-batch-execution.js';
import { type ResolvedTrigger, resolveTrigger, type Trigger } from '../streaming/trigger.js';
import type { DataFrame } from './dataframe.js';
import { queryStage } from './query-stage.js';
import { byteSizeOption, type OptionValue, positiveIntegerOption } from './reader-options.js';
import { checkSink, type SinkCreator } from './sink-formats.js';

/** Default number of state partitions (fixed when a checkpoint is created). */
export const DEFAULT_STATE_PARTITIONS = 16;
/** Default number of deltas after which a state partition is written as a snapshot. */
export const DEFAULT_SNAPSHOT_INTERVAL = 10;

/** Everything a streaming query is built from, as `df.writeStream` collects it. */
export interface StreamingQuerySpec {
  readonly df: DataFrame;
  readonly outputMode: OutputMode;
  readonly trigger: Trigger;
  readonly queryName?: string;
  /** The sink's format in the sink registry; unused when `sink` is given. */
  readonly format: string;
  /** A sink given as an object (`foreachBatch`, `sink(...)`) rather than by format. */
  readonly sink?: Sink;
  /** The writer's options, keys lower-cased: the query's own (streaming-query-option-names.ts) and the sink's. */
  readonly options: ReadonlyMap<string, OptionValue>;
  /** Where the checkpoint is kept. @default the local directory option checkpointLocation names */
  readonly backend?: CheckpointBackend;
  /** Called after each step of the commit protocol (recovery tests throw from it). */
  readonly afterStep?: (step: BatchStep, batchId: number) => void;
  /** Where batches read their processing time (ms since the epoch). @default the system clock */
  readonly clock?: () => number;
}

/** How a started query holds its lease. */
export interface QueryStartOptions {
  /** How long the lease lasts. @default MicroBatchExecution's */
  readonly leaseDurationMs?: number;
}

/** A query whose settings are checked, ready to start. */
export interface CheckedStreamingQuery {
  /** When its batches run. */
  readonly trigger: ResolvedTrigger;
  /** Creates the sink and opens the checkpoint: the execution that runs the query's batches. */
  start(options?: QueryStartOptions): Promise<MicroBatchExecution>;
}

/** Checks `spec` without I/O; throws InvalidOptionError or UnsupportedOperationError on a bad setting. */
export function checkStreamingQuery(spec: StreamingQuerySpec): CheckedStreamingQuery {
  const shard = spec.backend ? (spec.backend.shard ?? UNSHARDED) : shardOptions(spec.options);
  const stage = queryStage(spec.df.plan, spec.outputMode, shard, spec.options, spec.queryName);
  checkStreamingPlan(stage.plan, stage.outputMode);
  const trigger = resolveTrigger(spec.trigger);
  const given = spec.sink;
  // the user's sink is checked in stage 1 too, so that a bad setting fails every shard's start
  const userSink: SinkCreator = given
    ? () => Promise.resolve(given)
    : checkSink(spec.format, { options: spec.options, df: spec.df, queryName: spec.queryName });
  const repartition = stage.repartitionSink;
  const createSink: SinkCreator = repartition ? () => Promise.resolve(repartition()) : userSink;
  const execution = {
    plan: stage.plan,
    outputMode: stage.outputMode,
    ...stateOptions(spec.options),
    queryName: spec.queryName,
    afterStep: spec.afterStep,
    clock: spec.clock,
  };
  const backend = spec.backend;
  const checkpoint = backend ? () => backend : localCheckpoint(spec, shard);
  return {
    trigger,
    start: async ({ leaseDurationMs } = {}) => {
      const sink = await createSink();
      return MicroBatchExecution.start({
        ...checkpoint(),
        ...execution,
        sink,
        ...(leaseDurationMs === undefined ? {} : { leaseDurationMs }),
      });
    },
  };
}

/** The state store settings among the writer's options, each checked with an error naming it. */
function stateOptions(
  options: ReadonlyMap<string, OptionValue>,
): Pick<
  MicroBatchExecutionOptions,
  'numStatePartitions' | 'snapshotInterval' | 'minBatchesToRetain' | 'inlineStateMaxBytes'
> {
  return {
    numStatePartitions:
      positiveIntegerOption('numStatePartitions', options.get('numstatepartitions')) ??
      DEFAULT_STATE_PARTITIONS,
    snapshotInterval:
      positiveIntegerOption('snapshotInterval', options.get('snapshotinterval')) ??
      DEFAULT_SNAPSHOT_INTERVAL,
    minBatchesToRetain: positiveIntegerOption(
      'minBatchesToRetain',
      options.get('minbatchestoretain'),
    ),
    inlineStateMaxBytes: inlineStateMaxBytesOption(options.get('inlinestatemaxbytes')),
  };
}

/** The most state a commit carries; the commit and the head each hold a copy, in 400 KB items. */
const MAX_INLINE_STATE_BYTES = 256 * 1024;

/** Option inlineStateMaxBytes: a byte size up to 256k, or 0 to keep every state version in files. */
function inlineStateMaxBytesOption(value: OptionValue | undefined): number | undefined {
  if (value === undefined || String(value).trim() === '0') return value === undefined ? value : 0;
  const bytes = byteSizeOption('inlineStateMaxBytes', value)!;
  if (bytes > MAX_INLINE_STATE_BYTES) {
    throw new InvalidOptionError(
      `Invalid option inlineStateMaxBytes='${value}': a commit carries at most 256k of state (DynamoDB items hold 400 KB); use 256k or less, or 0 to keep state in files only.`,
    );
  }
  return bytes;
}

/**
 * The local directory checkpoint of option checkpointLocation. Without the option, a sink given as
 * an object needs one (its output outlives the process); a format's sink gets a temporary directory,
 * made when the query starts. Options parallelism, shard and stage make it one shard's
 * (docs/scale-out.md).
 */
function localCheckpoint(spec: StreamingQuerySpec, shard: ShardIdentity): () => CheckpointBackend {
  const given = spec.options.get('checkpointlocation');
  if (given === undefined && spec.sink) {
    throw new InvalidOptionError(
      "option('checkpointLocation', dir) is required for this sink: it is where offsets and state survive a restart.",
    );
  }
  return () => {
    const directory =
      given === undefined
        ? mkdtempSync(path.join(os.tmpdir(), 'sluice-checkpoint-'))
        : String(given);
    return localCheckpointBackend(directory, shard);
  };
}

/**
 * Options parallelism (default 1), shard (required with a parallelism above 1) and stage (of a split
 * query, query-stage.ts; 0, none, by default), checked.
 */
function shardOptions(options: ReadonlyMap<string, OptionValue>): ShardIdentity {
  const shards = positiveIntegerOption('parallelism', options.get('parallelism')) ?? 1;
  const given = options.get('shard');
  if (given === undefined && shards > 1) {
    throw new InvalidOptionError(
      `Option parallelism=${shards} needs option shard: the shard this query runs, from 0 to ${shards - 1}; start one query per shard.`,
    );
  }
  const shard = given === undefined ? 0 : Number(given);
  const stage = positiveIntegerOption('stage', options.get('stage')) ?? 0;
  return validateShardIdentity({ stage, shard, shards }, `Options parallelism, shard and stage`);
}
