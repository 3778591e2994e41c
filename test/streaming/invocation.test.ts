import { describe, expect, it } from 'vitest';
import {
  FileCheckpointStore,
  LocalDirectoryStore,
  MemorySink,
  SluiceSession,
} from '../../core/index.js';
import { runInvocation } from '../../core/streaming/invocation.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import { tempDir } from '../support/temp-dir.js';

function setup() {
  const session = new SluiceSession();
  const input = session.memoryStream('k STRING');
  const df = session.readStream.memory(input).groupBy('k').count();
  const store = new LocalDirectoryStore(tempDir());
  const sink = new MemorySink(df.schema);
  let sinkDelayMs = 0;
  const slowSink = {
    description: 'slow',
    addBatch: async (...args: Parameters<MemorySink['addBatch']>) => {
      await new Promise((r) => setTimeout(r, sinkDelayMs));
      await sink.addBatch(...args);
    },
  };
  const execution = () =>
    MicroBatchExecution.start({
      plan: df.plan,
      outputMode: 'complete',
      sink: slowSink,
      checkpoint: new FileCheckpointStore(store),
      stateObjects: store,
      numStatePartitions: 2,
      snapshotInterval: 5,
    });
  return { input, sink, execution, slowDown: (ms: number) => (sinkDelayMs = ms) };
}

/** A Lambda-like clock: `ms` of budget from now. */
function budget(ms: number) {
  const end = Date.now() + ms;
  return () => end - Date.now();
}

describe('one invocation', () => {
  it('runs the available batches and stops when idle', async () => {
    const { input, sink, execution } = setup();
    input.addData([{ k: 'a' }, { k: 'b' }]);
    const result = await runInvocation(await execution(), {
      remainingMs: budget(10_000),
      safetyMarginMs: 100,
      firstBatchEstimateMs: 100,
    });
    expect(result.stoppedBecause).toBe('idle');
    expect(result.batches.map((b) => b.batchId)).toEqual([0]);
    expect(sink.rows()).toHaveLength(2);
  });

  it('starts no batch it cannot expect to finish', async () => {
    const { input, execution } = setup();
    input.addData([{ k: 'a' }]);
    const result = await runInvocation(await execution(), {
      remainingMs: budget(500),
      safetyMarginMs: 300,
      firstBatchEstimateMs: 400,
    });
    expect(result).toEqual({ batches: [], stoppedBecause: 'time-budget' });
  });

  it('abandons a batch that overruns its budget before the commit; the next invocation re-runs it from the same intent', async () => {
    const { input, sink, execution, slowDown } = setup();
    input.addData([{ k: 'a' }]);
    slowDown(400);
    const logged: Record<string, unknown>[] = [];
    const first = await runInvocation(await execution(), {
      remainingMs: budget(600),
      safetyMarginMs: 300,
      firstBatchEstimateMs: 10,
      log: (e) => logged.push(e),
    });
    expect(first.stoppedBecause).toBe('abandoned');
    expect(logged[0]).toMatchObject({ kind: 'abandoned', batchId: 0 });
    input.addData([{ k: 'a' }]); // arrives after batch 0 was planned: not part of it
    slowDown(0);
    const second = await runInvocation(await execution(), {
      remainingMs: budget(10_000),
      safetyMarginMs: 100,
    });
    expect(second.batches.map((b) => [b.batchId, b.numInputRows])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(sink.rows()).toEqual([{ k: 'a', count: 2 }]);
  });

  it('with a trigger interval, starts a batch every interval until its period is over', async () => {
    const { input, sink, execution } = setup();
    input.addData([{ k: 'a' }]);
    const started = Date.now();
    const result = await runInvocation(await execution(), {
      remainingMs: budget(10_000),
      safetyMarginMs: 100,
      firstBatchEstimateMs: 10,
      triggerIntervalMs: 200,
      runForMs: 700,
      onProgress: (p) => {
        if (p.batchId === 0) input.addData([{ k: 'b' }]);
      },
    });
    expect(result.batches.map((b) => [b.batchId, b.numInputRows])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(result.stoppedBecause).toBe('idle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(sink.rows()).toHaveLength(2);
  });

  it('leaves new data to the next scheduled invocation once its period is over, logging only the batch', async () => {
    const { input, execution } = setup();
    input.addData([{ k: 'a' }]);
    const logged: Record<string, unknown>[] = [];
    const result = await runInvocation(await execution(), {
      remainingMs: budget(10_000),
      safetyMarginMs: 100,
      triggerIntervalMs: 60_000,
      runForMs: 60_000,
      log: (e) => logged.push(e),
      onProgress: () => input.addData([{ k: 'b' }]),
    });
    expect(result.batches.map((b) => b.batchId)).toEqual([0]);
    expect(result.stoppedBecause).toBe('period-over');
    // the planned end of every scheduled invocation: a line for it would be billed every minute
    expect(logged.map((e) => e.message)).toEqual(['batch committed']);
  });

  describe('checkpoint maintenance', () => {
    /** An invocation over a local checkpoint that retains 3 versions, after 12 one-key batches. */
    async function maintained(maintenanceEstimateMs: number) {
      const session = new SluiceSession();
      const input = session.memoryStream('k STRING');
      const df = session.readStream.memory(input).groupBy('k').count();
      const root = tempDir();
      const store = new LocalDirectoryStore(root);
      const checkpoint = new FileCheckpointStore(store);
      const start = () =>
        MicroBatchExecution.start({
          plan: df.plan,
          outputMode: 'complete',
          sink: new MemorySink(df.schema),
          checkpoint,
          stateObjects: store,
          numStatePartitions: 2,
          snapshotInterval: 2,
          minBatchesToRetain: 3,
          inlineStateMaxBytes: 0,
        });
      const invoke = async () =>
        runInvocation(await start(), {
          remainingMs: budget(60_000),
          safetyMarginMs: 100,
          firstBatchEstimateMs: 100,
          maintenanceEstimateMs,
        });
      // one batch per invocation, as a schedule drives it; batch 9 makes maintenance due
      const results = [];
      for (let batchId = 0; batchId < 12; batchId++) {
        input.addData([{ k: `k${batchId % 4}` }]);
        results.push(await invoke());
      }
      return { results, store, checkpoint };
    }

    it('runs when a batch it committed makes maintenance due: state, offsets and commits beyond minBatchesToRetain are deleted', async () => {
      const { results, store, checkpoint } = await maintained(100);
      const ran = results.filter((r) => r.maintenance !== undefined);
      expect(ran.map((r) => r.batches[0].batchId)).toEqual([9]);
      expect(ran[0].maintenance).toMatchObject({ finished: true, logEntriesDeleted: 14 });
      expect(ran[0].maintenance!.stateFiles.deleted).toBeGreaterThan(0);
      // batches 0..6 are gone from the log; 7..9 (retained at batch 9) and the later ones remain
      expect((await store.list('commits/')).map((k) => Number(k.slice(8, -5)))).toEqual([
        7, 8, 9, 10, 11,
      ]);
      expect(await store.list('offsets/')).toHaveLength(5);
      expect(await store.list('state/manifests/')).toHaveLength(5);
      expect((await checkpoint.latestCommit())?.batchId).toBe(11);
    });

    it('does not start when the budget left cannot afford it', async () => {
      const { results, store } = await maintained(120_000);
      expect(results.every((r) => r.maintenance === undefined)).toBe(true);
      expect(await store.list('commits/')).toHaveLength(12);
      expect(await store.list('state/manifests/')).toHaveLength(12);
    });
  });
});
