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

  it('leaves new data to the next scheduled invocation once its period is over', async () => {
    const { input, execution } = setup();
    input.addData([{ k: 'a' }]);
    const result = await runInvocation(await execution(), {
      remainingMs: budget(10_000),
      safetyMarginMs: 100,
      triggerIntervalMs: 60_000,
      runForMs: 60_000,
      onProgress: () => input.addData([{ k: 'b' }]),
    });
    expect(result.batches.map((b) => b.batchId)).toEqual([0]);
    expect(result.stoppedBecause).toBe('period-over');
  });
});
