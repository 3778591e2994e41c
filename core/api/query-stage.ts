/**
 * Which half of a split query a shard runs (docs/repartition-stage.md). A query whose first stateful
 * operator is not keyed by its source's partitioning runs, with a parallelism above 1, as two stages
 * (core/plan/stage-split.ts): the shard's `stage` option (1 or 2) picks one, and this module builds
 * that stage's plan and, for stage 1, its sink.
 *
 * - Stage 1 runs the operators below the stateful one and writes their rows to the repartition topic
 *   (RepartitionSink), in append mode, in place of the user's sink.
 * - Stage 2 reads its shard's partitions of that topic (repartitionSource) and runs the stateful
 *   operator, everything above it and the user's sink, in the query's output mode.
 *
 * Both stages run as the same number of shards, the query's parallelism: the query's metadata
 * records one count, and the repartition topic is read by partition mod that count. The topic is
 * `sluice-<query name>-repartition` unless option `repartition.topic` names one, and has
 * `repartition.partitions` partitions (the parallelism by default); the connection to it is given
 * by the `repartition.kafka.*` options, spelt as the Kafka sink's without the prefix.
 *
 * A `stage` on a query that needs no split, and a split query with parallelism above 1 started
 * without one, are refused: the first would run a half that does not exist, the second would count
 * each key in every shard that reads some of its rows. The second rule holds where a split can run
 * (splitCanRun): a query over files without the repartition options runs unsplit.
 */
import type { ShardIdentity } from '../checkpoint/shard-identity.js';
import {
  AnalysisError,
  InvalidOptionError,
  StageSelectionError,
  UnsupportedOperationError,
} from '../errors.js';
import { kafkajsReader } from '../kafka/kafkajs-partition-reader.js';
import { KafkajsRecordWriter } from '../kafka/kafkajs-record-writer.js';
import { kafkaSinkOptions } from '../kafka/kafka-sink-options.js';
import { repartitionSource } from '../kafka/repartition-source.js';
import { RepartitionSink } from '../kafka/repartition-sink.js';
import { allNodes, type LogicalPlan } from '../plan/logical-plan.js';
import { splitStages, type StageSplit } from '../plan/stage-split.js';
import type { OutputMode, Sink } from '../sinks/sink.js';
import { type OptionValue, positiveIntegerOption } from './reader-options.js';

/** The prefix of the options that describe the repartition topic and the connection to it. */
export const REPARTITION_OPTION_PREFIX = 'repartition.';

/** What one shard runs. */
export interface QueryStage {
  /** The plan of its stage: the query itself when it is not split. */
  readonly plan: LogicalPlan;
  /** Its output mode: append for stage 1, whose rows are the stateful operator's input. */
  readonly outputMode: OutputMode;
  /** Stage 1's sink, which replaces the user's; undefined when the user's sink is the shard's. */
  readonly repartitionSink?: () => Sink;
}

/**
 * The stage `shard` runs of the query `plan` in `outputMode`, from the writer's `options` (keys
 * lower-cased) and the query's name; throws StageSelectionError when the stage does not fit.
 */
export function queryStage(
  plan: LogicalPlan,
  outputMode: OutputMode,
  shard: ShardIdentity,
  options: ReadonlyMap<string, OptionValue>,
  queryName: string | undefined,
): QueryStage {
  if (shard.stage === 0) {
    const split =
      shard.shards > 1 && splitCanRun(plan, options) ? shardedSplit(plan, shard) : undefined;
    if (split?.kind === 'split') {
      throw new StageSelectionError(
        `The query runs as ${shard.shards} shards and ${split.reason}: start each shard with option('stage', 1) or option('stage', 2) (in Lambda, the event {"stage": s, "shard": i} or SLUICE_STAGE), running stage 1 and stage 2 as ${shard.shards} shards each. If the source's records are keyed by that value, group by the Kafka key (col('key').cast('string')) instead, which needs no stage.`,
        shard.stage,
      );
    }
    return { plan, outputMode };
  }
  if (shard.stage !== 1 && shard.stage !== 2) {
    throw new StageSelectionError(
      `Stage ${shard.stage} does not exist: a split query has stage 1 (up to the repartition topic) and stage 2 (from it to the sink); start the shard with stage 1 or 2.`,
      shard.stage,
    );
  }
  const split = shardedSplit(plan, shard);
  if (split.kind === 'single') {
    throw new StageSelectionError(
      `Stage ${shard.stage} was given, but the query needs no split (${split.reason}): leave the stage out and run each shard on the whole query.`,
      shard.stage,
    );
  }
  const topic = repartitionTopic(options, queryName);
  const kafka = kafkaSinkOptions(
    new Map(
      [...options]
        .filter(([key]) => key.startsWith(REPARTITION_OPTION_PREFIX))
        .map(([key, value]) => [key.slice(REPARTITION_OPTION_PREFIX.length), value]),
    ),
  );
  if (shard.stage === 1) {
    const partitions =
      positiveIntegerOption('repartition.partitions', options.get('repartition.partitions')) ??
      shard.shards;
    return {
      plan: split.stage1,
      outputMode: 'append',
      repartitionSink: () =>
        new RepartitionSink(
          { topic, partitions, keyColumns: split.keyColumns, shard },
          new KafkajsRecordWriter({
            brokers: kafka.bootstrapServers,
            security: kafka.security,
            maxRequestBytes: kafka.maxRequestBytes,
            compression: kafka.compression ?? 'gzip',
          }),
        ),
    };
  }
  return {
    plan: split.stage2({
      description: `RepartitionSource[${topic}]`,
      source: repartitionSource({ topic, schema: split.stage1.schema }, () =>
        kafkajsReader({
          bootstrapServers: kafka.bootstrapServers,
          security: kafka.security,
          isolationLevel: 'read_committed',
        }),
      ),
    }),
    outputMode,
  };
}

/**
 * Whether a split of `plan` could run: its source has a known partitioning (Kafka's, by key), or the
 * `repartition.*` options name the topic's connection. A query over files given neither runs
 * unsplit, as it did before stages existed: each shard keeps the state of its own files, exact when
 * the files hold disjoint keys (docs/scale-out.md).
 */
function splitCanRun(plan: LogicalPlan, options: ReadonlyMap<string, OptionValue>): boolean {
  const keyedSource = allNodes(plan).some(
    (node) => node.kind === 'streamingRelation' && node.partitionedBy !== undefined,
  );
  return (
    keyedSource || [...options.keys()].some((key) => key.startsWith(REPARTITION_OPTION_PREFIX))
  );
}

/**
 * The split of `plan`, which runs as `shard.shards` shards; a query the split cannot handle yet (a
 * stream-stream join not keyed by both sides' partitioning, a stateful operator inside a union of
 * streams) is refused: run unsplit, each shard would count only the rows of its own partitions.
 */
function shardedSplit(plan: LogicalPlan, shard: ShardIdentity): StageSplit {
  try {
    return splitStages(plan);
  } catch (error) {
    if (error instanceof UnsupportedOperationError || error instanceof AnalysisError) {
      throw new StageSelectionError(
        `The query runs as ${shard.shards} shards, but ${error.message}`,
        shard.stage,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Option `repartition.topic`, or `sluice-<query name>-repartition` with the characters Kafka refuses
 * in a topic name replaced by `_`: the same for every shard of both stages, and for every run.
 */
export function repartitionTopic(
  options: ReadonlyMap<string, OptionValue>,
  queryName: string | undefined,
): string {
  const given = options.get('repartition.topic');
  if (given !== undefined) {
    const topic = String(given).trim();
    if (!/^[A-Za-z0-9._-]{1,249}$/.test(topic)) {
      throw new InvalidOptionError(
        `Invalid option repartition.topic='${topic}': a Kafka topic name is 1 to 249 letters, digits, '.', '_' or '-'.`,
      );
    }
    return topic;
  }
  if (queryName === undefined || queryName.trim() === '') {
    throw new InvalidOptionError(
      "A split query's stages need the repartition topic's name: give the query a name (queryName, the same for every shard of both stages), from which the topic's is derived, or option('repartition.topic', name).",
    );
  }
  return `sluice-${queryName.trim().replace(/[^A-Za-z0-9._-]/g, '_')}-repartition`.slice(0, 249);
}
