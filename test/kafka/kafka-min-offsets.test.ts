/**
 * minOffsetsPerTrigger and maxTriggerDelay: triggers with too few new offsets run no batch until the
 * delay since the last committed batch has passed. On the source's planning alone, then across
 * "invocations" (a new execution per trigger, as scheduled Lambda invocations are) on the mock
 * cluster with a controlled clock: the delay is measured from the checkpoint, not from memory.
 */
import { describe, expect, inject, it } from 'vitest';
import {
  FileCheckpointStore,
  LocalDirectoryStore,
  MemorySink,
  SluiceSession,
} from '../../core/index.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import { produceToAllPartitions } from '../support/kafka-producer.js';
import { MemoryKafkaReader } from '../support/memory-kafka-reader.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import { memorySource } from './memory-source.js';

describe("the Kafka source's minOffsetsPerTrigger", () => {
  function setup(options: Record<string, string | number> = {}) {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    const source = memorySource(reader, {
      startingOffsets: 'earliest',
      minOffsetsPerTrigger: 10,
      maxTriggerDelay: '1m',
      ...options,
    });
    return { reader, source };
  }

  it('never holds back the first batch of a checkpoint', async () => {
    const { reader, source } = setup();
    reader.append('clicks', 0, 3);
    expect(await source.latestOffset(undefined, { batchTimestampMs: 1_000 })).toEqual({
      clicks: { 0: 3, 1: 0 },
    });
  });

  it('holds a batch back until the partitions together hold the minimum of new offsets', async () => {
    const { reader, source } = setup();
    const start = { clicks: { 0: 0, 1: 0 } };
    const times = { batchTimestampMs: 30_000, previousBatchTimestampMs: 0 };
    reader.append('clicks', 1, 6);
    reader.append('clicks', 0, 3);
    expect(await source.latestOffset(start, times)).toBe(start); // 9 new: no batch
    reader.append('clicks', 0, 1);
    expect(await source.latestOffset(start, times)).toEqual({ clicks: { 0: 4, 1: 6 } });
  });

  it('runs whatever is new once maxTriggerDelay has passed since the last batch, and nothing when nothing is new', async () => {
    const { reader, source } = setup();
    const start = { clicks: { 0: 0, 1: 0 } };
    reader.append('clicks', 1, 1);
    const at = (batchTimestampMs: number) => ({ batchTimestampMs, previousBatchTimestampMs: 0 });
    expect(await source.latestOffset(start, at(59_999))).toBe(start);
    expect(await source.latestOffset(start, at(60_000))).toEqual({ clicks: { 0: 0, 1: 1 } });
    const caughtUp = { clicks: { 0: 0, 1: 1 } };
    expect(await source.latestOffset(caughtUp, at(600_000))).toBe(caughtUp);
  });

  it('caps a batch that is not held back at maxOffsetsPerTrigger', async () => {
    const { reader, source } = setup({ maxOffsetsPerTrigger: 12 });
    reader.append('clicks', 0, 20);
    reader.append('clicks', 1, 20);
    const start = { clicks: { 0: 0, 1: 0 } };
    expect(
      await source.latestOffset(start, { batchTimestampMs: 1, previousBatchTimestampMs: 0 }),
    ).toEqual({ clicks: { 0: 6, 1: 6 } });
  });
});

describe('minOffsetsPerTrigger across invocations of a query', () => {
  it('holds small batches back from one invocation to the next until maxTriggerDelay has passed since the last committed batch', async () => {
    const topic = uniqueName('min-offsets');
    const store = new LocalDirectoryStore(tempDir());
    const df = new SluiceSession().readStream
      .format('kafka')
      .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
      .option('subscribe', topic)
      .option('startingOffsets', 'earliest')
      .option('minOffsetsPerTrigger', 40)
      .option('maxTriggerDelay', '1 minute')
      .load();
    const sink = new MemorySink(df.schema, uniqueName('sink'));
    /** One invocation at clock time `nowMs`: a new execution, one trigger, then stop. */
    const invoke = async (nowMs: number) => {
      const execution = await MicroBatchExecution.start({
        plan: df.plan,
        outputMode: 'append',
        sink,
        checkpoint: new FileCheckpointStore(store),
        stateObjects: store,
        numStatePartitions: 1,
        snapshotInterval: 10,
        clock: () => nowMs,
      });
      try {
        const outcome = await execution.runNextBatch();
        return outcome.kind === 'committed' ? outcome.progress.numInputRows : outcome.kind;
      } finally {
        await execution.stop();
      }
    };

    await produceToAllPartitions(topic, 2); // 8 offsets
    expect(await invoke(0)).toBe(8); // a checkpoint's first batch is never held back
    await produceToAllPartitions(topic, 5); // 20 pending
    expect(await invoke(10_000)).toBe('idle');
    await produceToAllPartitions(topic, 5); // 40 pending
    expect(await invoke(20_000)).toBe(40);
    await produceToAllPartitions(topic, 1); // 4 pending
    expect(await invoke(30_000)).toBe('idle');
    expect(await invoke(79_999)).toBe('idle'); // 59.999 s after the batch at 20 s
    expect(await invoke(80_000)).toBe(4);
    expect(sink.rows()).toHaveLength(52);
  });
});
