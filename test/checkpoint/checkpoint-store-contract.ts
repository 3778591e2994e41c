/**
 * The CheckpointStore contract: behaviour every backend (local directory, DynamoDB) must show,
 * written once and run against each.
 */
import { describe, expect, it } from 'vitest';
import type {
  CheckpointStore,
  CommitRecord,
  OffsetIntent,
  QueryMetadata,
} from '../../core/index.js';

/** What a backend can promise beyond the shared contract. */
export interface CheckpointCapabilities {
  /** Leases exclude other owners until they expire, and a taken-over lease fences the old owner. */
  readonly exclusiveLeases: boolean;
}

const metadata: QueryMetadata = {
  formatVersion: 1,
  queryId: 'q',
  planFingerprint: 'stateless',
  numStatePartitions: 4,
};

function intent(batchId: number, end: number): OffsetIntent {
  return {
    formatVersion: 1,
    batchId,
    start: [batchId === 0 ? null : end - 1],
    end: [end],
    batchTimestampMs: 1_000 + batchId,
    watermarkMicros: null,
  };
}

function commit(batchId: number): CommitRecord {
  return {
    formatVersion: 1,
    batchId,
    stateManifest: `state/manifests/${batchId}.json`,
    eventTimeMax: { 0: batchId },
    nextWatermarkMicros: batchId * 10,
  };
}

/**
 * Defines the contract tests for stores made by `fresh` (each call: an empty checkpoint). A store
 * reads lease time from `clock` where it can, so lease expiry is tested by moving the clock, never
 * by sleeping: a slow request on a loaded machine cannot expire a lease early.
 */
export function checkpointStoreContract(
  name: string,
  fresh: (clock: () => number) => Promise<CheckpointStore>,
  capabilities: CheckpointCapabilities,
): void {
  describe(`CheckpointStore contract: ${name}`, () => {
    it('creates the query metadata once; a second create keeps the first and returns it', async () => {
      const store = await fresh(Date.now);
      expect(await store.getMetadata()).toBeUndefined();
      expect(await store.createMetadata(metadata)).toEqual({ kind: 'created' });
      expect(await store.createMetadata({ ...metadata, queryId: 'other' })).toEqual({
        kind: 'exists',
        metadata,
      });
      expect(await store.getMetadata()).toEqual(metadata);
    });

    it('keeps failed attempts and reads the most recent back, newest first', async () => {
      const store = await fresh(Date.now);
      expect(await store.recentFailures(5)).toEqual([]);
      const failure = (batchId: number, atMs: number) => ({
        formatVersion: 1,
        batchId,
        atMs,
        owner: `run-${batchId}`,
        step: 'sink',
        error: `Error: batch ${batchId} failed`,
      });
      for (const [batchId, atMs] of [
        [3, 1_000],
        [4, 3_000],
        [4, 2_000],
      ])
        await store.recordFailure(failure(batchId, atMs));
      expect(await store.recentFailures(2)).toEqual([failure(4, 3_000), failure(4, 2_000)]);
      expect(await store.recentFailures(10)).toHaveLength(3);
    });

    it('writes each intent once: a second intent for the same batch loses and gets the first back', async () => {
      const store = await fresh(Date.now);
      expect(await store.putIntent(intent(0, 5))).toEqual({ kind: 'created' });
      expect(await store.putIntent(intent(0, 9))).toEqual({ kind: 'exists', intent: intent(0, 5) });
      expect(await store.getIntent(0)).toEqual(intent(0, 5));
      expect(await store.getIntent(1)).toBeUndefined();
    });

    it('lets exactly one of many concurrent intents of a batch win; every loser gets the winner', async () => {
      const store = await fresh(Date.now);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.putIntent(intent(3, 10 + i))),
      );
      const winners = results.flatMap((r, i) => (r.kind === 'created' ? [intent(3, 10 + i)] : []));
      expect(winners).toHaveLength(1);
      for (const r of results) if (r.kind === 'exists') expect(r.intent).toEqual(winners[0]);
      expect(await store.getIntent(3)).toEqual(winners[0]);
    });

    it('returns the head with the lease, and moves the head with each commit', async () => {
      const store = await fresh(Date.now);
      const first = await store.acquireLease('a', 60_000);
      expect(first).toMatchObject({ kind: 'acquired', head: undefined });
      if (first.kind !== 'acquired') return;
      expect(await store.commit(commit(0), first.lease)).toBe('committed');
      const second = await store.acquireLease('a', 60_000);
      expect(second).toMatchObject({ kind: 'acquired', head: commit(0) });
      if (second.kind !== 'acquired') return;
      expect(await store.commit(commit(1), second.lease)).toBe('committed');
      expect(await store.latestCommit()).toEqual(commit(1));
      expect(await store.getCommit(0)).toEqual(commit(0));
    });

    it('refuses a second commit of the same batch as a conflict', async () => {
      const store = await fresh(Date.now);
      const leased = await store.acquireLease('a', 60_000);
      if (leased.kind !== 'acquired') throw new Error('lease not acquired');
      expect(await store.commit(commit(0), leased.lease)).toBe('committed');
      expect(await store.commit({ ...commit(0), stateManifest: 'other' }, leased.lease)).toBe(
        'conflict',
      );
      expect(await store.latestCommit()).toEqual(commit(0));
    });

    it('lets only one of many concurrent commits of a batch win', async () => {
      const store = await fresh(Date.now);
      const leased = await store.acquireLease('a', 60_000);
      if (leased.kind !== 'acquired') throw new Error('lease not acquired');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.commit({ ...commit(0), stateManifest: `m${i}` }, leased.lease),
        ),
      );
      expect(results.filter((r) => r === 'committed')).toHaveLength(1);
    });

    if (capabilities.exclusiveLeases) {
      it('keeps other owners out while the lease is live, and lets them in once it expired', async () => {
        const clock = manualClock();
        const store = await fresh(clock.now);
        const a = await store.acquireLease('a', 300);
        expect(a.kind).toBe('acquired');
        clock.advance(299);
        expect(await store.acquireLease('b', 60_000)).toMatchObject({ kind: 'held', owner: 'a' });
        clock.advance(2);
        const b = await store.acquireLease('b', 60_000);
        expect(b.kind).toBe('acquired');
        if (a.kind === 'acquired' && b.kind === 'acquired')
          expect(b.lease.epoch).toBeGreaterThan(a.lease.epoch);
      });

      it('fences a holder whose lease another owner took over: its commit is lease-lost', async () => {
        const clock = manualClock();
        const store = await fresh(clock.now);
        const slow = await store.acquireLease('slow', 200);
        clock.advance(300);
        const fast = await store.acquireLease('fast', 60_000);
        if (slow.kind !== 'acquired' || fast.kind !== 'acquired')
          throw new Error('lease not acquired');
        expect(await store.commit(commit(0), slow.lease)).toBe('lease-lost');
        expect(await store.commit(commit(0), fast.lease)).toBe('committed');
        expect(await store.commit(commit(1), slow.lease)).toBe('lease-lost');
      });

      it('releases a lease so the next owner need not wait for it to expire', async () => {
        const store = await fresh(Date.now);
        const a = await store.acquireLease('a', 60_000);
        if (a.kind !== 'acquired') throw new Error('lease not acquired');
        await store.releaseLease(a.lease);
        expect((await store.acquireLease('b', 60_000)).kind).toBe('acquired');
      });
    }
  });
}

/** A clock that moves only when told to, starting at a fixed instant. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let nowMs = Date.UTC(2026, 0, 1);
  return { now: () => nowMs, advance: (ms) => (nowMs += ms) };
}
