import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../core/index.js';
import { readConfiguration, ENV } from '../../../functions/microbatch/configuration.js';
import { invocationShard } from '../../../functions/microbatch/invocation-shard.js';

describe('the shard an invocation runs', () => {
  it.each<[string, unknown, { parallelism: number; shard?: number }, number]>([
    ['an unsharded query, from a plain schedule event', { queryId: 'q' }, { parallelism: 1 }, 0],
    ["the event's shard", { queryId: 'q', shard: 3 }, { parallelism: 4 }, 3],
    ["the event's shard over SLUICE_SHARD", { shard: 1 }, { parallelism: 4, shard: 2 }, 1],
    ['SLUICE_SHARD when the event names none', {}, { parallelism: 4, shard: 2 }, 2],
    ['SLUICE_SHARD for a non-object event', null, { parallelism: 4, shard: 0 }, 0],
  ])('%s', (_, event, config, shard) => {
    expect(invocationShard(event, config)).toEqual({
      stage: 0,
      shard,
      shards: config.parallelism,
    });
  });

  it.each<[unknown, RegExp]>([
    [{}, /runs as 4 shards .* names none: invoke it with the event \{"shard": i\}, i from 0 to 3/],
    [{ shard: 4 }, /names shard 4, but the query runs as 4 shards/],
    [{ shard: '1' }, /names shard "1"/],
    [{ shard: -1 }, /names shard -1/],
  ])('refuses %o with parallelism 4', (event, message) => {
    expect(() => invocationShard(event, { parallelism: 4 })).toThrow(InvalidOptionError);
    expect(() => invocationShard(event, { parallelism: 4 })).toThrow(message);
  });
});

describe('the stage an invocation runs', () => {
  it.each<[string, unknown, { parallelism: number; shard?: number; stage?: number }, number]>([
    ['none (0) for a query that is not split', { shard: 1 }, { parallelism: 2 }, 0],
    ["the event's stage", { stage: 2, shard: 1 }, { parallelism: 2 }, 2],
    [
      "the event's stage over SLUICE_STAGE",
      { stage: 1, shard: 0 },
      { parallelism: 2, stage: 2 },
      1,
    ],
    ['SLUICE_STAGE when the event names none', { shard: 0 }, { parallelism: 2, stage: 2 }, 2],
  ])('%s', (_, event, config, stage) => {
    expect(invocationShard(event, config).stage).toBe(stage);
  });

  it.each([[{ stage: 3, shard: 0 }], [{ stage: '1', shard: 0 }], [{ stage: -1, shard: 0 }]])(
    'refuses %o, naming the stage',
    (event) => {
      expect(() => invocationShard(event, { parallelism: 2 })).toThrow(InvalidOptionError);
      expect(() => invocationShard(event, { parallelism: 2 })).toThrow(
        `names stage ${JSON.stringify(event.stage)}`,
      );
    },
  );
});

describe('SLUICE_PARALLELISM and SLUICE_SHARD', () => {
  const base = {
    [ENV.queryId]: 'clicks',
    [ENV.checkpointTable]: 'sluice-checkpoints',
    [ENV.stateBucket]: 'sluice-state',
    [ENV.source]: JSON.stringify({ kind: 'kafka', bootstrapServers: ['b:9092'], topic: 'clicks' }),
    [ENV.sink]: JSON.stringify({ kind: 'delta', bucket: 'lake-bucket', path: 't' }),
  };

  it('default to one shard, and are read when set', () => {
    expect(readConfiguration(base)).toMatchObject({ parallelism: 1 });
    expect(readConfiguration(base).shard).toBeUndefined();
    const sharded = readConfiguration({ ...base, [ENV.parallelism]: '8', [ENV.shard]: '7' });
    expect(sharded).toMatchObject({ parallelism: 8, shard: 7 });
  });

  it('read SLUICE_STAGE when set', () => {
    expect(readConfiguration(base).stage).toBeUndefined();
    expect(readConfiguration({ ...base, [ENV.stage]: '2' })).toMatchObject({ stage: 2 });
  });

  it.each([
    [{ [ENV.stage]: '3' }, /SLUICE_STAGE='3' must be 1 or 2/],
    [{ [ENV.parallelism]: '0' }, /SLUICE_PARALLELISM='0' must be at least 1/],
    [{ [ENV.parallelism]: 'many' }, /SLUICE_PARALLELISM='many' must be a non-negative integer/],
    [
      { [ENV.parallelism]: '4', [ENV.shard]: '4' },
      /SLUICE_SHARD='4' must be below SLUICE_PARALLELISM \(4\)/,
    ],
  ])('refuse %o, naming the variable', (changes, message) => {
    expect(() => readConfiguration({ ...base, ...changes })).toThrow(message);
  });
});
