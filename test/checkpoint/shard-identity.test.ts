import { describe, expect, it } from 'vitest';
import {
  describeShard,
  isUnsharded,
  shardKeySegments,
  shardsOfStage,
  shardStatePath,
  UNSHARDED,
  validateShardIdentity,
} from '../../core/checkpoint/shard-identity.js';
import { InvalidOptionError } from '../../core/index.js';

describe('a shard identity', () => {
  it.each([
    // identity, key segments, state path, unsharded layout
    [UNSHARDED, [], '', true],
    [{ stage: 0, shard: 0, shards: 4 }, ['0', '0'], 'stages/0/shards/0', false],
    [{ stage: 0, shard: 3, shards: 4 }, ['0', '3'], 'stages/0/shards/3', false],
    [{ stage: 1, shard: 0, shards: 1 }, ['1', '0'], 'stages/1/shards/0', false],
  ])('%o is stored under %o and %o', (identity, segments, statePath, unsharded) => {
    expect(shardKeySegments(identity)).toEqual(segments);
    expect(shardStatePath(identity)).toBe(statePath);
    expect(isUnsharded(identity)).toBe(unsharded);
  });

  it.each([
    { stage: 0, shard: 4, shards: 4 },
    { stage: 0, shard: -1, shards: 4 },
    { stage: 0, shard: 0, shards: 0 },
    { stage: 0, shard: 0.5, shards: 2 },
    { stage: -1, shard: 0, shards: 2 },
  ])('%o is refused, naming the setting', (identity) => {
    expect(() => validateShardIdentity(identity, 'SLUICE_SHARD')).toThrow(InvalidOptionError);
    expect(() => validateShardIdentity(identity, 'SLUICE_SHARD')).toThrow(/^SLUICE_SHARD: /);
  });

  it('lists the shards of its stage and describes itself', () => {
    expect(shardsOfStage({ stage: 2, shard: 1, shards: 3 }).map((s) => s.shard)).toEqual([0, 1, 2]);
    expect(describeShard({ stage: 0, shard: 1, shards: 3 })).toBe('shard 1/3');
    expect(describeShard({ stage: 2, shard: 1, shards: 3 })).toBe('stage 2 shard 1/3');
  });
});
