/**
 * transformWithState on the AWS backend (DynamoDB Local and s3rver): a processing-time timer
 * recorded by one invocation's commit fires in a later, cold invocation's batch without data.
 */
import { describe, expect, it } from 'vitest';
import {
  MemorySink,
  type RowObject,
  SluiceSession,
  type StatefulProcessor,
  type StatefulProcessorHandle,
  type TimerValues,
  type ValueState,
} from '../../core/index.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import { uniqueName } from '../support/unique-name.js';
import { awsBackend } from './aws-backend.js';

/** Emits a user's click count once 5 s pass without a click. */
class ClickTimeout implements StatefulProcessor {
  private clicks!: ValueState<number>;
  private handle!: StatefulProcessorHandle;

  init(handle: StatefulProcessorHandle): void {
    this.clicks = handle.getValueState<number>('clicks', 'bigint');
    this.handle = handle;
  }

  handleInputRows(_key: RowObject, rows: readonly RowObject[], timers: TimerValues): RowObject[] {
    this.clicks.update((this.clicks.get() ?? 0) + rows.length);
    for (const t of this.handle.listTimers()) this.handle.deleteTimer(t);
    this.handle.registerTimer(timers.getCurrentProcessingTimeInMs() + 5000);
    return [];
  }

  handleExpiredTimer(key: RowObject): RowObject[] {
    const clicks = this.clicks.get();
    this.clicks.clear();
    return [{ user: key.user, clicks }];
  }
}

describe('transformWithState on the AWS backend', () => {
  it('fires a timer recorded in the commit in a cold invocation without new data', async () => {
    const queryId = uniqueName('tws');
    const session = new SluiceSession();
    const input = session.memoryStream('user STRING, page STRING');
    const df = session.readStream
      .memory(input)
      .groupBy('user')
      .transformWithState(new ClickTimeout(), {
        timeMode: 'processingTime',
        outputMode: 'update',
        schema: 'user STRING, clicks BIGINT',
      });
    const sink = new MemorySink(df.schema);
    let now = 1_000;
    const start = async () =>
      MicroBatchExecution.start({
        ...(await awsBackend(queryId)),
        plan: df.plan,
        outputMode: 'update',
        sink,
        numStatePartitions: 2,
        snapshotInterval: 3,
        clock: () => now,
      });
    input.addData([
      { user: 'a', page: '/' },
      { user: 'a', page: '/x' },
    ]);
    const first = await start();
    expect((await first.runNextBatch()).kind).toBe('committed');
    await first.stop();

    now = 5_000; // a's timer is at 6000
    const early = await start();
    expect((await early.runNextBatch()).kind).toBe('idle');
    await early.stop();

    now = 7_000;
    const cold = await start();
    const outcome = await cold.runNextBatch();
    await cold.stop();
    expect(outcome.kind).toBe('committed');
    expect(sink.rows()).toEqual([{ user: 'a', clicks: 2 }]);
  });
});
