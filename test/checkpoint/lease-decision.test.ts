/**
 * The lease rule both checkpoint stores follow: free when nobody holds the lease, when it expired,
 * or when the requester holds it; held otherwise.
 */
import { describe, expect, it } from 'vitest';
import {
  type LeaseDecision,
  type LeaseHolder,
  leaseDecision,
} from '../../core/checkpoint/lease-decision.js';

const now = 1_767_261_600_000;

describe('leaseDecision', () => {
  const cases: ReadonlyArray<{
    readonly when: string;
    readonly holder: LeaseHolder | undefined;
    readonly decision: LeaseDecision;
  }> = [
    { when: 'nobody holds the lease', holder: undefined, decision: { kind: 'acquired' } },
    {
      when: "another owner's lease expired before now",
      holder: { owner: 'other', expiresAtMs: now - 1 },
      decision: { kind: 'acquired' },
    },
    {
      when: 'the requester holds a live lease (a new attempt renews it)',
      holder: { owner: 'me', expiresAtMs: now + 60_000 },
      decision: { kind: 'acquired' },
    },
    {
      when: 'the requester holds an expired lease',
      holder: { owner: 'me', expiresAtMs: now - 60_000 },
      decision: { kind: 'acquired' },
    },
    {
      when: 'another owner holds a live lease',
      holder: { owner: 'other', expiresAtMs: now + 60_000 },
      decision: { kind: 'held', owner: 'other', expiresAtMs: now + 60_000 },
    },
    {
      // DynamoDB's condition is `leaseExpiresAt < :now`: a lease is still live at its expiry instant
      when: "another owner's lease expires exactly now",
      holder: { owner: 'other', expiresAtMs: now },
      decision: { kind: 'held', owner: 'other', expiresAtMs: now },
    },
  ];

  it.each(cases)('is $decision.kind when $when', ({ holder, decision }) => {
    expect(leaseDecision(holder, 'me', now)).toEqual(decision);
  });
});
