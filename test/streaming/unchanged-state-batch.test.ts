/**
 * A batch that changed no state writes no state: no partition file and no manifest. Its commit
 * names the manifest of the version it started from, and every reader of versions (a cold restart,
 * a crash in the next batch, garbage collection) finds that version through it.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { col, type DataFrame, FileCheckpointStore, LocalDirectoryStore } from '../../core/index.js';
import { SluiceSession } from '../../core/index.js';
import type { MemoryStream } from '../../core/sources/memory-stream.js';
import {
  addData,
  assertNumStateRows,
  checkAnswer,
  crashAfter,
  execute,
  processAllAvailable,
  startStream,
  stopStream,
  testStream,
} from '../../core/testing/index.js';
import type { StreamUnderTest } from '../../core/testing/stream-under-test.js';
import { tempDir } from '../support/temp-dir.js';

/** The files under the checkpoint's `state/` directory (state files and manifests). */
function stateFiles(checkpoint: string): string[] {
  return readdirSync(path.join(checkpoint, 'state'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(checkpoint, path.join(e.parentPath, e.name)))
    .sort();
}

/** Counts of `k` per key, over rows whose `k` is not `noise`: a noise-only batch changes no state. */
function countsWithoutNoise(): { input: MemoryStream; counts: DataFrame } {
  const session = new SluiceSession();
  const input = session.memoryStream('k STRING');
  const counts = session.readStream
    .memory(input)
    .filter(col('k').neq('noise'))
    .groupBy('k')
    .count();
  return { input, counts };
}

const noise = [{ k: 'noise' }, { k: 'noise' }];

/** Records the checkpoint's state files now, to compare after later actions. */
function filesSnapshot(checkpoint: string) {
  let files: string[] = [];
  return {
    take: execute('list the state files', () => {
      files = stateFiles(checkpoint);
    }),
    unchanged: execute('the state files are the same as before', () => {
      const now = stateFiles(checkpoint);
      if (JSON.stringify(now) !== JSON.stringify(files))
        return `state files were ${files.join(', ')}; now ${now.join(', ')}`;
    }),
  };
}

/** The latest commit of the stream's checkpoint. */
async function headOf(checkpoint: string) {
  return (await new FileCheckpointStore(new LocalDirectoryStore(checkpoint)).latestCommit())!;
}

function lastProgress(stream: StreamUnderTest) {
  return stream.progress[stream.progress.length - 1];
}

describe('a batch that changed no state', () => {
  it('writes no state file and no manifest; its commit names the version it started from', async () => {
    const checkpoint = tempDir();
    const { input, counts } = countsWithoutNoise();
    const files = filesSnapshot(checkpoint);
    await testStream(counts, 'complete', {
      checkpointLocation: checkpoint,
      writerOptions: { inlineStateMaxBytes: 0 },
    })(
      addData(input, [{ k: 'a' }, { k: 'b' }]),
      processAllAvailable(),
      files.take,
      addData(input, noise),
      processAllAvailable(),
      files.unchanged,
      execute('the commit names batch 0 as its state version', async (stream) => {
        const head = await headOf(checkpoint);
        if (head.batchId !== 1) return `head is batch ${head.batchId}`;
        const first = (await new FileCheckpointStore(new LocalDirectoryStore(checkpoint)).getCommit(
          0,
        ))!;
        if (head.stateManifest !== first.stateManifest || head.stateVersion !== 0)
          return `commit 1 names ${head.stateManifest} at version ${head.stateVersion}; commit 0 named ${first.stateManifest}`;
        const p = lastProgress(stream);
        if (p.numInputRows !== 2 || p.stateBytesWritten !== 0)
          return `batch 1 read ${p.numInputRows} rows and wrote ${p.stateBytesWritten} state bytes`;
      }),
      assertNumStateRows([2], [2]),
      stopStream(),
      startStream(), // cold: loads batch 0's version through batch 1's commit
      addData(input, [{ k: 'a' }]),
      checkAnswer([
        { k: 'a', count: 2 },
        { k: 'b', count: 1 },
      ]),
      execute('the restart loaded its state cold', (stream) =>
        lastProgress(stream).stateLoad === 'cold' ? undefined : 'the state was not loaded cold',
      ),
    );
  });

  it('a batch after several that changed nothing writes only the partitions it changes, on the version they kept', async () => {
    const checkpoint = tempDir();
    const { input, counts } = countsWithoutNoise();
    let before: string[] = [];
    await testStream(counts, 'complete', {
      checkpointLocation: checkpoint,
      writerOptions: { numStatePartitions: 4, inlineStateMaxBytes: 0 },
    })(
      addData(input, [{ k: 'a' }, { k: 'b' }, { k: 'c' }, { k: 'd' }]),
      processAllAvailable(),
      addData(input, noise),
      processAllAvailable(),
      addData(input, noise),
      processAllAvailable(),
      execute('list the state files', () => {
        before = stateFiles(checkpoint);
      }),
      addData(input, [{ k: 'a' }]),
      processAllAvailable(),
      execute('one delta and one manifest were written', () => {
        const added = stateFiles(checkpoint).filter((f) => !before.includes(f));
        const deltas = added.filter((f) => f.endsWith('.delta'));
        const manifests = added.filter((f) => f.includes('manifests'));
        if (deltas.length !== 1 || manifests.length !== 1 || added.length !== 2)
          return `batch 3 wrote ${added.join(', ')}`;
      }),
      stopStream(),
      startStream(),
      addData(input, noise),
      checkAnswer([
        { k: 'a', count: 2 },
        { k: 'b', count: 1 },
        { k: 'c', count: 1 },
        { k: 'd', count: 1 },
      ]),
    );
  });

  it.each(['persist', 'sink', 'commit'] as const)(
    'killed right after %s of the batch after it, restarts cold from the version it kept, with the same output',
    async (step) => {
      const { input, counts } = countsWithoutNoise();
      await testStream(counts, 'complete')(
        addData(input, [{ k: 'a' }, { k: 'b' }]),
        processAllAvailable(),
        addData(input, noise),
        processAllAvailable(), // batch 1 changes nothing
        addData(input, [{ k: 'b' }, { k: 'c' }]),
        crashAfter(step), // batch 2 dies...
        startStream(), // ...and the restart loads batch 0's version, named by commit 1
        addData(input, [{ k: 'c' }]),
        checkAnswer([
          { k: 'a', count: 1 },
          { k: 'b', count: 2 },
          { k: 'c', count: 2 },
        ]),
        assertNumStateRows([3]),
      );
    },
  );

  it('killed right after its own commit, restarts cold with the same output', async () => {
    const { input, counts } = countsWithoutNoise();
    await testStream(counts, 'complete')(
      addData(input, [{ k: 'a' }]),
      processAllAvailable(),
      addData(input, noise),
      crashAfter('commit'), // batch 1, which changed no state, committed and the process died
      startStream(),
      addData(input, [{ k: 'a' }]),
      checkAnswer([{ k: 'a', count: 2 }]),
    );
  });
});
