import { describe, expect, it } from 'vitest';
import { queryWatermark, type ShardWatermark } from '../../core/streaming/query-watermark.js';

const MINUTE = 60_000;

/** Shard `shard` with watermark `watermarkMicros`, last reading input at minute `lastInputAtMin`. */
function shard(
  shard: number,
  watermarkMicros: number | null,
  lastInputAtMin?: number,
): ShardWatermark {
  return {
    shard,
    watermarkMicros,
    lastInputAtMs: lastInputAtMin === undefined ? undefined : lastInputAtMin * MINUTE,
  };
}

describe('the watermark of a query that runs as shards', () => {
  it.each<[string, ShardWatermark[], number | null, number[]]>([
    ['no shard has data yet: none', [shard(0, null), shard(1, null)], null, []],
    ['one shard has data: its own', [shard(0, 500, 10), shard(1, null)], 500, []],
    ['the minimum over the shards with data', [shard(0, 500, 10), shard(1, 300, 9)], 300, []],
    [
      'a shard quiet for up to the timeout still holds it back',
      [shard(0, 900, 15), shard(1, 300, 10)],
      300,
      [],
    ],
    [
      'a shard quiet for longer than the timeout is left out',
      [shard(0, 900, 16), shard(1, 300, 10), shard(2, 700, 16)],
      700,
      [1],
    ],
    [
      'every shard quiet: it stays, since idleness is measured between the shards',
      [shard(0, 900, 10), shard(1, 300, 10)],
      300,
      [],
    ],
    [
      'a shard with a watermark but no recorded input time counts',
      [shard(0, 900, 60), shard(1, 300)],
      300,
      [],
    ],
  ])('%s', (_, shards, watermark, idle) => {
    expect(queryWatermark(shards, 5 * MINUTE)).toEqual({
      watermarkMicros: watermark,
      idleShards: idle,
    });
  });

  it('counts an idle shard again once it reads input', () => {
    const idle = [shard(0, 900, 20), shard(1, 300, 10)];
    expect(queryWatermark(idle, 5 * MINUTE).watermarkMicros).toBe(900);
    const back = [shard(0, 900, 20), shard(1, 350, 21)];
    expect(queryWatermark(back, 5 * MINUTE).watermarkMicros).toBe(350);
  });
});
