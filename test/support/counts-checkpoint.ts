/**
 * A local checkpoint of `groupBy('k').count()` over a memory stream, for tests that read a
 * checkpoint's state from outside its query.
 */
import { col, SluiceSession } from '../../core/index.js';
import { tempDir } from './temp-dir.js';

/** The state schema the count's store records. */
export const COUNTS_SCHEMA = 'aggregate(keys: k:string; values: count:long)';

/**
 * The checkpoint directory after one batch of each of `batches` (3 state partitions; `noise` rows
 * are filtered out, so a batch of them changes no state). `inlineStateMaxBytes` 0 keeps the state
 * in files rather than in the commits.
 */
export async function countsCheckpoint(
  batches: readonly string[][],
  inlineStateMaxBytes?: number,
): Promise<string> {
  const checkpoint = tempDir('sluice-counts-');
  const session = new SluiceSession();
  const input = session.memoryStream('k STRING');
  const writer = session.readStream
    .memory(input)
    .filter(col('k').neq('noise'))
    .groupBy('k')
    .count()
    .writeStream.outputMode('complete')
    .format('memory')
    .option('checkpointLocation', checkpoint)
    .option('numStatePartitions', 3);
  if (inlineStateMaxBytes !== undefined) writer.option('inlineStateMaxBytes', inlineStateMaxBytes);
  const query = await writer.start();
  for (const keys of batches) {
    input.addData(keys.map((k) => ({ k })));
    await query.processAllAvailable();
  }
  await query.stop();
  return checkpoint;
}
