/**
 * MicroBatchExecution acts on the protocol's decisions: a batch that another attempt planned first
 * runs exactly that attempt's intent, which the losing write returned, with no read of its own.
 */
import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_FORMAT_VERSION,
  type OffsetIntent,
} from '../../core/checkpoint/checkpoint-store.js';
import {
  FileCheckpointStore,
  LocalDirectoryStore,
  MemorySink,
  SluiceSession,
} from '../../core/index.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import { tempDir } from '../support/temp-dir.js';

/** A local checkpoint that counts the intents read from it. */
class CountingCheckpoint extends FileCheckpointStore {
  intentReads = 0;

  override getIntent(batchId: number): Promise<OffsetIntent | undefined> {
    this.intentReads++;
    return super.getIntent(batchId);
  }
}

describe('MicroBatchExecution', () => {
  it('runs the intent a rival wrote first for the batch, learned from the losing write, and reads no intent', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('k STRING');
    const df = session.readStream.memory(input).select('k');
    const store = new LocalDirectoryStore(tempDir());
    const checkpoint = new CountingCheckpoint(store);
    const sink = new MemorySink(df.schema);
    const execution = await MicroBatchExecution.start({
      plan: df.plan,
      outputMode: 'append',
      sink,
      checkpoint,
      stateObjects: store,
      numStatePartitions: 2,
      snapshotInterval: 5,
    });
    input.addData([{ k: 'a' }, { k: 'b' }, { k: 'c' }]);
    // the rival saw only the first row when it planned batch 0
    const rival: OffsetIntent = {
      formatVersion: CHECKPOINT_FORMAT_VERSION,
      batchId: 0,
      start: [null],
      end: [1],
      batchTimestampMs: 1_767_261_600_000,
      watermarkMicros: null,
    };
    expect(await checkpoint.putIntent(rival)).toEqual({ kind: 'created' });

    const outcome = await execution.runNextBatch();
    await execution.stop();

    if (outcome.kind !== 'committed') throw new Error(`batch 0 ended ${outcome.kind}`);
    expect(outcome.progress.sources[0]).toMatchObject({ startOffset: null, endOffset: 1 });
    expect(sink.rows()).toEqual([{ k: 'a' }]);
    expect(checkpoint.intentReads).toBe(0);
  });
});
