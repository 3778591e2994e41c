import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_FORMAT_VERSION,
  type CommitRecord,
  type OffsetIntent,
  type QueryMetadata,
  RECENT_FAILURES_KEPT,
} from '../../core/checkpoint/checkpoint-store.js';
import { FileCheckpointStore } from '../../core/checkpoint/file-checkpoint-store.js';
import { LocalDirectoryStore } from '../../core/checkpoint/local-directory-store.js';
import { CheckpointError } from '../../core/errors.js';
import { tempDir } from '../support/temp-dir.js';

/** The local backend's lease is advisory; any lease commits. */
const lease = { owner: 'test', epoch: 0, expiresAtMs: Number.MAX_SAFE_INTEGER };

function checkpoint(root = tempDir()): FileCheckpointStore {
  return new FileCheckpointStore(new LocalDirectoryStore(root));
}

function intent(batchId: number, end: number, batchTimestampMs = 1_000 + batchId): OffsetIntent {
  return {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    start: [batchId === 0 ? null : end - 1, { topic: 'clicks', partitions: { 0: 5 } }],
    end: [end, { topic: 'clicks', partitions: { 0: 9 } }],
    batchTimestampMs,
    watermarkMicros: batchId === 0 ? null : 1_767_261_600_000_000,
  };
}

function commit(batchId: number): CommitRecord {
  return {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    stateManifest: `state/manifests/${batchId}-attempt.json`,
    eventTimeMax: { '3': 1_767_261_600_000_000 + batchId },
    nextWatermarkMicros: 1_767_261_000_000_000 + batchId,
  };
}

const metadata: QueryMetadata = {
  formatVersion: CHECKPOINT_FORMAT_VERSION,
  queryId: 'f2d7c6a4-query',
  planFingerprint: '#0 aggregate(keys: category:string)',
  numStatePartitions: 16,
};

describe('FileCheckpointStore', () => {
  describe('metadata', () => {
    it('is undefined on a new checkpoint, and reads back as created', async () => {
      const store = checkpoint();
      expect(await store.getMetadata()).toBeUndefined();
      expect(await store.createMetadata(metadata)).toEqual({ kind: 'created' });
      expect(await store.getMetadata()).toEqual(metadata);
    });

    it('is created once: a second create reports exists with the first, which stays', async () => {
      const store = checkpoint();
      await store.createMetadata(metadata);
      expect(
        await store.createMetadata({ ...metadata, queryId: 'other', numStatePartitions: 4 }),
      ).toEqual({ kind: 'exists', metadata });
      expect(await store.getMetadata()).toEqual(metadata);
    });

    it('is shared by every store opened on the same directory', async () => {
      const root = tempDir();
      await checkpoint(root).createMetadata(metadata);
      expect(await checkpoint(root).getMetadata()).toEqual(metadata);
    });
  });

  describe('intents (the offset log)', () => {
    it('round-trips an intent with its offsets, timestamp and watermark', async () => {
      const store = checkpoint();
      expect(await store.getIntent(0)).toBeUndefined();
      expect(await store.putIntent(intent(0, 3))).toEqual({ kind: 'created' });
      expect(await store.putIntent(intent(1, 7))).toEqual({ kind: 'created' });
      expect(await store.getIntent(0)).toEqual(intent(0, 3));
      expect(await store.getIntent(1)).toEqual(intent(1, 7));
      expect(await store.getIntent(2)).toBeUndefined();
    });

    it('is create-once: a second intent for the same batch reports exists with the first, which stays', async () => {
      const store = checkpoint();
      await store.putIntent(intent(4, 10, 111));
      expect(await store.putIntent(intent(4, 99, 222))).toEqual({
        kind: 'exists',
        intent: intent(4, 10, 111),
      });
      expect(await store.getIntent(4)).toEqual(intent(4, 10, 111));
    });
  });

  describe('leases', () => {
    it('always grants the advisory local lease and returns the head with it', async () => {
      const store = checkpoint();
      await store.commit(commit(0), lease);
      const result = await store.acquireLease('me', 1_000);
      expect(result).toMatchObject({ kind: 'acquired', lease: { owner: 'me' }, head: commit(0) });
    });
  });

  describe('commits', () => {
    it('has no latest commit before the first batch', async () => {
      expect(await checkpoint().latestCommit()).toBeUndefined();
    });

    it('round-trips a commit record', async () => {
      const store = checkpoint();
      expect(await store.commit(commit(0), lease)).toBe('committed');
      expect(await store.latestCommit()).toEqual(commit(0));
      expect(await store.getCommit(0)).toEqual(commit(0));
      expect(await store.getCommit(1)).toBeUndefined();
    });

    it("reports 'conflict' for a second commit of the same batch and keeps the first", async () => {
      const store = checkpoint();
      await store.commit(commit(5), lease);
      expect(await store.commit({ ...commit(5), stateManifest: 'other' }, lease)).toBe('conflict');
      expect(await store.latestCommit()).toEqual(commit(5));
    });

    it('picks the highest batch as the latest commit, in numeric not textual order', async () => {
      const store = checkpoint();
      // written out of order, across the 9 -> 10 and 99 -> 100 digit boundaries
      for (const batchId of [9, 2, 10, 0, 100, 1, 99, 11])
        await store.commit(commit(batchId), lease);
      expect((await store.latestCommit())?.batchId).toBe(100);
      expect(await store.latestCommit()).toEqual(commit(100));
    });
  });

  describe('log pruning', () => {
    it('forgets the intents and commits of batches before a batch, and keeps the rest', async () => {
      const store = checkpoint();
      for (let batchId = 0; batchId < 5; batchId++) {
        await store.putIntent(intent(batchId, batchId + 1));
        await store.commit(commit(batchId), lease);
      }
      expect(await store.forgetBatchesBefore(3)).toBe(6);
      for (const batchId of [0, 1, 2]) {
        expect(await store.getIntent(batchId)).toBeUndefined();
        expect(await store.getCommit(batchId)).toBeUndefined();
      }
      expect(await store.getIntent(3)).toEqual(intent(3, 4));
      expect(await store.latestCommit()).toEqual(commit(4));
    });
  });

  describe('validation on read', () => {
    it('fails with a CheckpointError naming the file when a record is not valid JSON', async () => {
      const root = tempDir();
      const store = checkpoint(root);
      await store.commit(commit(3), lease);
      const [key] = await new LocalDirectoryStore(root).list('commits/');
      writeFileSync(path.join(root, key), '{"formatVersion":1,"batchId":');
      const error = await store.latestCommit().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as CheckpointError).message).toContain(path.join(root, key));
      expect((error as CheckpointError).message).toContain('not valid JSON');
    });

    it('fails with a CheckpointError naming the file when a record is JSON but not an object', async () => {
      const root = tempDir();
      for (const notARecord of ['null', '42', '[1]']) {
        writeFileSync(path.join(root, 'metadata.json'), notARecord);
        const error = await checkpoint(root)
          .getMetadata()
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CheckpointError);
        expect((error as CheckpointError).message).toContain(
          `${path.join(root, 'metadata.json')} is corrupt (not a JSON object)`,
        );
      }
    });

    it('fails with a CheckpointError naming the file and both versions when the format version is unknown', async () => {
      const root = tempDir();
      const store = checkpoint(root);
      await store.putIntent({ ...intent(0, 3), formatVersion: 2 });
      const [key] = await new LocalDirectoryStore(root).list('offsets/');
      const error = await store.getIntent(0).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as CheckpointError).message).toContain(path.join(root, key));
      expect((error as CheckpointError).message).toMatch(
        /format version 2; this Sluice reads version 1/,
      );
    });

    it('refuses a commit whose watermark had a digit edited: the checksum no longer matches', async () => {
      const root = tempDir();
      const store = checkpoint(root);
      await store.commit(commit(3), lease);
      const [key] = await new LocalDirectoryStore(root).list('commits/');
      const file = path.join(root, key);
      const text = readFileSync(file, 'utf8');
      const watermark = String(commit(3).nextWatermarkMicros);
      const edited = `${watermark.slice(0, -1)}${(Number(watermark.at(-1)) + 1) % 10}`;
      writeFileSync(file, text.replace(watermark, edited));
      for (const read of [() => store.latestCommit(), () => store.getCommit(3)]) {
        const error = await read().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CheckpointError);
        expect((error as CheckpointError).message).toContain(
          `${file} is corrupt (checksum mismatch)`,
        );
      }
    });

    it('refuses an intent whose end offset had a digit edited', async () => {
      const root = tempDir();
      const store = checkpoint(root);
      await store.putIntent(intent(2, 41));
      const [key] = await new LocalDirectoryStore(root).list('offsets/');
      const file = path.join(root, key);
      writeFileSync(file, readFileSync(file, 'utf8').replace('"end":[41', '"end":[42'));
      await expect(store.getIntent(2)).rejects.toThrow(`${file} is corrupt (checksum mismatch)`);
    });

    it('refuses a commit or an intent stored under the key of another batch', async () => {
      const root = tempDir();
      const store = checkpoint(root);
      await store.commit(commit(3), lease);
      await store.putIntent(intent(3, 7));
      const files = new LocalDirectoryStore(root);
      const [commitKey] = await files.list('commits/');
      const [intentKey] = await files.list('offsets/');
      copyFileSync(
        path.join(root, commitKey),
        path.join(root, commitKey.replace('03.json', '04.json')),
      );
      copyFileSync(
        path.join(root, intentKey),
        path.join(root, intentKey.replace('03.json', '04.json')),
      );
      await expect(store.latestCommit()).rejects.toThrow(
        /commits\/00000000000000000004\.json holds batch 3, but is stored as the record of batch 4/,
      );
      await expect(store.getCommit(4)).rejects.toThrow(CheckpointError);
      await expect(store.getIntent(4)).rejects.toThrow(
        /offsets\/00000000000000000004\.json holds batch 3, but is stored as the record of batch 4/,
      );
    });

    it('still reads a record written before records were checksummed', async () => {
      const root = tempDir();
      writeFileSync(path.join(root, 'metadata.json'), JSON.stringify(metadata));
      expect(await checkpoint(root).getMetadata()).toEqual(metadata);
    });

    it('refuses a record without a format version', async () => {
      const root = tempDir();
      writeFileSync(
        path.join(root, 'metadata.json'),
        JSON.stringify({ ...metadata, formatVersion: undefined }),
      );
      await expect(checkpoint(root).getMetadata()).rejects.toThrow(
        /metadata\.json has format version undefined/,
      );
    });
  });

  it('keeps only the most recent failed attempts, so the failures never grow into a log', async () => {
    const store = checkpoint();
    for (let i = 0; i < RECENT_FAILURES_KEPT + 5; i++) {
      await store.recordFailure({
        formatVersion: CHECKPOINT_FORMAT_VERSION,
        batchId: i,
        atMs: 1_000 + i,
        owner: 'run',
        step: 'run',
        error: 'E',
      });
    }
    const kept = await store.recentFailures(100);
    expect(kept).toHaveLength(RECENT_FAILURES_KEPT);
    expect(kept[0].batchId).toBe(RECENT_FAILURES_KEPT + 4);
    expect(kept.at(-1)!.batchId).toBe(5);
  });
});
