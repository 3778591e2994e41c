/**
 * Which shard of the query an invocation runs (docs/scale-out.md): the shard its event names
 * (`{"shard": i}`, as the construct's schedules send it), else the function's SLUICE_SHARD, else
 * shard 0 of a query with parallelism 1. A query with more shards and no shard named is refused:
 * guessing one would leave the others unread. The stage of a split query
 * (docs/repartition-stage.md) comes alike from the event's `stage` or SLUICE_STAGE, else 0 (no
 * split); whether it fits the query is the query's check.
 */
import { InvalidOptionError, type ShardIdentity } from '../../core/index.js';
import { ENV, type MicroBatchConfig } from './configuration.js';

/** The shard the invocation with `event` runs, checked against the configured parallelism. */
export function invocationShard(
  event: unknown,
  config: Pick<MicroBatchConfig, 'parallelism' | 'shard' | 'stage'>,
): ShardIdentity {
  const named = fieldOfEvent(event, 'shard');
  const shard = named ?? config.shard ?? (config.parallelism === 1 ? 0 : undefined);
  if (shard === undefined) {
    throw new InvalidOptionError(
      `The query runs as ${config.parallelism} shards (${ENV.parallelism}) and the invocation names none: invoke it with the event {"shard": i}, i from 0 to ${config.parallelism - 1}, or set ${ENV.shard}.`,
    );
  }
  if (
    typeof shard !== 'number' ||
    !Number.isInteger(shard) ||
    shard < 0 ||
    shard >= config.parallelism
  ) {
    throw new InvalidOptionError(
      `The invocation's event names shard ${JSON.stringify(shard)}, but the query runs as ${config.parallelism} shards (${ENV.parallelism}): name a whole number from 0 to ${config.parallelism - 1}.`,
    );
  }
  return { stage: invocationStage(event, config), shard, shards: config.parallelism };
}

function invocationStage(event: unknown, config: Pick<MicroBatchConfig, 'stage'>): number {
  const stage = fieldOfEvent(event, 'stage') ?? config.stage ?? 0;
  if (stage !== 0 && stage !== 1 && stage !== 2) {
    throw new InvalidOptionError(
      `The invocation's event names stage ${JSON.stringify(stage)}: a split query has stage 1 (up to the repartition topic) and stage 2 (from it to the sink); name 1 or 2, or leave it out for a query that is not split.`,
    );
  }
  return stage;
}

/** The `field` of an event such as `{"shard": 3}`, as given; undefined for an event without one. */
function fieldOfEvent(event: unknown, field: 'shard' | 'stage'): unknown {
  if (event === null || typeof event !== 'object' || !(field in event)) return undefined;
  return (event as Record<string, unknown>)[field];
}
