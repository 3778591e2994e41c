import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  col,
  FileCheckpointStore,
  LocalDirectoryStore,
  SluiceSession,
} from '../../core/index.js';
import { collectStateGarbage } from '../../core/state/state-garbage-collector.js';
import { StateRepository, stateVersionRefOf } from '../../core/state/state-repository.js';
import { stateStoreId } from '../../core/state/state-store-id.js';
import { tempDir } from '../support/temp-dir.js';

function stateFiles(checkpoint: string): string[] {
  return readdirSync(path.join(checkpoint, 'state'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(checkpoint, path.join(e.parentPath, e.name)));
}

async function runBatches(
  checkpoint: string,
  batches: number,
  crashAfter?: { step: BatchStep; batchId: number },
  inlineStateMaxBytes = 0,
) {
  const session = new SluiceSession();
  const input = session.memoryStream('k STRING');
  const counts = session.readStream.memory(input).groupBy('k').count();
  const start = () =>
    counts.writeStream
      .outputMode('complete')
      .format('memory')
      .option('checkpointLocation', checkpoint)
      .option('numStatePartitions', 2)
      .option('snapshotInterval', 3)
      .option('inlineStateMaxBytes', inlineStateMaxBytes)
      .afterStep((step, batchId) => {
        if (crashAfter && step === crashAfter.step && batchId === crashAfter.batchId) {
          crashAfter = undefined;
          throw new Error('crash');
        }
      })
      .start();
  let query = await start();
  for (let i = 0; i < batches; i++) {
    input.addData([{ k: `key${i % 5}` }]);
    const done = await query.processAllAvailable().then(
      () => true,
      () => false,
    );
    if (!done) {
      query = await start();
      await query.processAllAvailable();
    }
  }
  await query.stop();
  return session;
}

describe('state garbage collection', () => {
  it('keeps exactly the files the retained versions reference, and deletes older versions and failed attempts', async () => {
    const checkpoint = tempDir();
    await runBatches(checkpoint, 12, { step: 'persist', batchId: 6 });
    const store = new LocalDirectoryStore(checkpoint);
    const checkpointStore = new FileCheckpointStore(store);
    const repository = new StateRepository(store, 2, 3);
    const before = stateFiles(checkpoint);
    const result = await collectStateGarbage(checkpointStore, store, repository, 3);
    const after = stateFiles(checkpoint);
    expect(result.deleted).toBe(before.length - after.length);
    expect(result.deleted).toBeGreaterThan(0);
    // the last three versions still load, and hold the same state as before collection
    const head = (await checkpointStore.latestCommit())!;
    for (const batchId of [head.batchId - 2, head.batchId - 1, head.batchId]) {
      const commit = (await checkpointStore.getCommit(batchId))!;
      const { stores } = await repository.load(stateVersionRefOf(commit), [stateStoreId(0)]);
      expect(stores.get('0')!.size).toBeGreaterThan(0);
    }
    const manifests = after.filter((f) => f.includes('manifests'));
    expect(manifests).toHaveLength(3);
  });

  it('keeps the snapshots that versions carried by their commits name, and deletes the rest', async () => {
    const checkpoint = tempDir();
    await runBatches(checkpoint, 14, { step: 'persist', batchId: 6 }, 32 * 1024);
    const store = new LocalDirectoryStore(checkpoint);
    const checkpointStore = new FileCheckpointStore(store);
    const repository = new StateRepository(store, 2, 3);
    expect(stateFiles(checkpoint).filter((f) => f.includes('manifests'))).toEqual([]);
    const before = stateFiles(checkpoint);
    const result = await collectStateGarbage(checkpointStore, store, repository, 3);
    expect(result.deleted).toBeGreaterThan(0);
    expect(result.deleted).toBe(before.length - stateFiles(checkpoint).length);
    const head = (await checkpointStore.latestCommit())!;
    for (const batchId of [head.batchId - 2, head.batchId - 1, head.batchId]) {
      const commit = (await checkpointStore.getCommit(batchId))!;
      expect(commit.inlineState).toBeDefined();
      const { stores } = await repository.load(stateVersionRefOf(commit), [stateStoreId(0)]);
      expect(stores.get('0')!.size).toBe(5);
    }
  });

  it('keeps the version that batches which changed no state name, however old the batch that wrote it', async () => {
    const checkpoint = tempDir();
    const session = new SluiceSession();
    const input = session.memoryStream('k STRING');
    const query = await session.readStream
      .memory(input)
      .filter(col('k').neq('noise'))
      .groupBy('k')
      .count()
      .writeStream.outputMode('complete')
      .format('memory')
      .option('checkpointLocation', checkpoint)
      .option('numStatePartitions', 2)
      .option('inlineStateMaxBytes', 0)
      .start();
    for (const k of ['a', 'b', 'noise', 'noise', 'noise', 'noise', 'noise']) {
      input.addData([{ k }]);
      await query.processAllAvailable();
    }
    await query.stop();
    const store = new LocalDirectoryStore(checkpoint);
    const checkpointStore = new FileCheckpointStore(store);
    const repository = new StateRepository(store, 2, 10);
    const result = await collectStateGarbage(checkpointStore, store, repository, 3);
    // batch 0's manifest is garbage; batch 1's, which the last three commits name, is kept
    expect(result.deleted).toBe(1);
    const head = (await checkpointStore.latestCommit())!;
    expect(head).toMatchObject({ batchId: 6, stateVersion: 1 });
    const { stores } = await repository.load(stateVersionRefOf(head), [stateStoreId(0)]);
    expect([...stores.get('0')!.entries()].map(([, v]) => (v as unknown[][])[0])).toEqual(
      expect.arrayContaining([['a'], ['b']]),
    );
  });

  it('deletes nothing while a retained commit cannot be read', async () => {
    const checkpoint = tempDir();
    await runBatches(checkpoint, 4);
    const store = new LocalDirectoryStore(checkpoint);
    await store.delete('commits/00000000000000000001.json');
    const before = stateFiles(checkpoint);
    const result = await collectStateGarbage(
      new FileCheckpointStore(store),
      store,
      new StateRepository(store, 2, 3),
      10,
    );
    expect(result.deleted).toBe(0);
    expect(stateFiles(checkpoint)).toEqual(before);
  });

  it('deletes nothing when its deadline passes before the retained versions are read', async () => {
    const checkpoint = tempDir();
    await runBatches(checkpoint, 6);
    const store = new LocalDirectoryStore(checkpoint);
    const before = stateFiles(checkpoint);
    const repository = new StateRepository(store, 2, 3);
    const checkpointStore = new FileCheckpointStore(store);
    const late = await collectStateGarbage(checkpointStore, store, repository, 2, Date.now() - 1);
    expect(late).toEqual({ deleted: 0, kept: 0, finished: false });
    expect(stateFiles(checkpoint)).toEqual(before);
    const inTime = await collectStateGarbage(checkpointStore, store, repository, 2);
    expect(inTime.finished).toBe(true);
    expect(inTime.deleted).toBeGreaterThan(0);
  });
});
