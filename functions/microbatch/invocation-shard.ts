/**
 * Which shard of the query an invocation runs (docs/scale-out.md): the shard its event names
 * (`{"shard": i}`, as the construct's schedules send it), else the function's SLUICE_SHARD, else
 * shard 0 of a query with parallelism 1. A query with more shards and no shard named is refused:
 * guessing one would leave the others unread.
 */
import { InvalidOptionError, type ShardIdentity } from '../../core/index.js';
import { ENV, type MicroBatchConfig } from './configuration.js';

/** The shard the invocation with `event` runs, checked against the configured parallelism. */
export function invocationShard(
  event: unknown,
  config: Pick<MicroBatchConfig, 'parallelism' | 'shard'>,
): ShardIdentity {
  const named = shardInEvent(event);
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
  return { stage: 0, shard, shards: config.parallelism };
}

/** The `shard` of an event such as `{"shard": 3}`, as given; undefined for an event without one. */
function shardInEvent(event: unknown): unknown {
  if (event === null || typeof event !== 'object' || !('shard' in event)) return undefined;
  return (event as { shard: unknown }).shard;
}
