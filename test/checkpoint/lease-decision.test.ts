/**
 * The lease rule both checkpoint stores follow: free when nobody holds the lease, when it expired,
 * or when the requester holds it; held otherwise. A holder renews its lease once a third of it has
 * passed, and only while the head still records its owner and epoch.
 */
import { describe, expect, it } from 'vitest';
import {
  type LeaseDecision,
  type LeaseHolder,
  leaseDecision,
  leaseRenewalDecision,
  leaseRenewalDue,
  type RecordedLease,
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

describe('leaseRenewalDecision', () => {
  const lease = { owner: 'me', epoch: 7 };
  const cases: ReadonlyArray<{
    readonly when: string;
    readonly recorded: RecordedLease | undefined;
    readonly decision: 'renewed' | 'lost';
  }> = [
    { when: 'the head records its owner and epoch', recorded: lease, decision: 'renewed' },
    {
      when: 'another owner took the lease (a new epoch)',
      recorded: { owner: 'other', epoch: 8 },
      decision: 'lost',
    },
    {
      // the requester took the lease again in a later attempt: the earlier attempt is stale
      when: 'the same owner holds a later epoch',
      recorded: { owner: 'me', epoch: 8 },
      decision: 'lost',
    },
    {
      when: 'the lease was released',
      recorded: { owner: undefined, epoch: 7 },
      decision: 'lost',
    },
    { when: 'the head is gone', recorded: undefined, decision: 'lost' },
  ];

  it.each(cases)('is $decision when $when', ({ recorded, decision }) => {
    expect(leaseRenewalDecision(recorded, lease)).toBe(decision);
  });
});

describe('leaseRenewalDue', () => {
  const durationMs = 30_000;
  const expiresAtMs = now + durationMs; // taken or renewed at `now`
  const cases: ReadonlyArray<{ readonly after: number; readonly due: boolean }> = [
    { after: 0, due: false },
    { after: 9_999, due: false },
    { after: 10_000, due: true },
    { after: 29_999, due: true },
    { after: 45_000, due: true },
  ];

  it.each(cases)('is $due $after ms after the lease was taken', ({ after, due }) => {
    expect(leaseRenewalDue(expiresAtMs, durationMs, now + after)).toBe(due);
  });
});
