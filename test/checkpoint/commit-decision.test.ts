/**
 * The commit rule both checkpoint stores follow: an existing commit of the batch is a conflict
 * whatever the lease; otherwise a head no longer held under the attempt's lease is a lost lease.
 */
import { describe, expect, it } from 'vitest';
import { type CommitObservation, commitDecision } from '../../core/checkpoint/commit-decision.js';
import type { CommitResult } from '../../core/checkpoint/checkpoint-store.js';

describe('commitDecision', () => {
  const cases: ReadonlyArray<{
    readonly when: string;
    readonly observation: CommitObservation;
    readonly result: CommitResult;
  }> = [
    {
      when: 'the commit was absent and the head was still held under the lease',
      observation: { commitExists: false, leaseHeld: true },
      result: 'committed',
    },
    {
      when: 'another attempt committed the batch first',
      observation: { commitExists: true },
      result: 'conflict',
    },
    {
      when: 'the commit was absent but another invocation took the lease over',
      observation: { commitExists: false, leaseHeld: false },
      result: 'lease-lost',
    },
  ];

  it.each(cases)('is $result when $when', ({ observation, result }) => {
    expect(commitDecision(observation)).toBe(result);
  });
});
