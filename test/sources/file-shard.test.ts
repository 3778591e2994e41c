import { describe, expect, it } from 'vitest';
import { fileShard, readsFile } from '../../core/sources/file-shard.js';

describe('files split across shards by a hash of their path', () => {
  // Frozen: a change of the hash would move files between the shards of running queries.
  it.each([
    ['2026/05/01/clicks-0001.json', 4, 0],
    ['2026/05/01/clicks-0002.json', 4, 0],
    ['a.json', 4, 2],
    ['b.json', 4, 1],
    ['a.json', 1, 0],
    ['a.json', 2, 0],
    ['b.json', 2, 1],
  ])('%s of %i shards goes to shard %i', (path, shards, shard) => {
    expect(fileShard(path, shards)).toBe(shard);
  });

  it('assigns every file to exactly one shard, spread roughly evenly', () => {
    const paths = Array.from({ length: 400 }, (_, i) => `in/part-${i}.json`);
    const counts = [0, 1, 2, 3].map(
      (shard) => paths.filter((p) => readsFile({ stage: 0, shard, shards: 4 }, p)).length,
    );
    expect(counts.reduce((a, b) => a + b)).toBe(400);
    for (const n of counts) expect(n).toBeGreaterThan(60);
  });

  it('lets the one shard of an unsharded query read every file', () => {
    expect(readsFile({ stage: 0, shard: 0, shards: 1 }, 'anything.json')).toBe(true);
  });
});
