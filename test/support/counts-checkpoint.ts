/**
 * A checkpoint of `groupBy('k').count()` over a memory stream, for tests that read a checkpoint's
 * state from outside its query: in a local directory, or wherever a given backend keeps it.
 */
import {
  type CheckpointBackend,
  col,
  type DataStreamWriter,
  SluiceSession,
} from '../../core/index.js';
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
  snapshotInterval?: number,
): Promise<string> {
  const checkpoint = tempDir('sluice-counts-');
  await runCounts(batches, (writer) => {
    writer.option('checkpointLocation', checkpoint);
    if (inlineStateMaxBytes !== undefined)
      writer.option('inlineStateMaxBytes', inlineStateMaxBytes);
    if (snapshotInterval !== undefined) writer.option('snapshotInterval', snapshotInterval);
  });
  return checkpoint;
}

/** The same query committed through `backend`, with `options` for its writer (snapshotInterval...). */
export async function countsOnBackend(
  backend: CheckpointBackend,
  batches: readonly string[][],
  options: Readonly<Record<string, number>> = {},
): Promise<void> {
  await runCounts(batches, (writer) => {
    writer.checkpoint(backend);
    for (const [name, value] of Object.entries(options)) writer.option(name, value);
  });
}

/** Runs the query, one batch per element of `batches`, with its writer set up by `configure`. */
async function runCounts(
  batches: readonly string[][],
  configure: (writer: DataStreamWriter) => void,
): Promise<void> {
  const session = new SluiceSession();
  const input = session.memoryStream('k STRING');
  const writer = session.readStream
    .memory(input)
    .filter(col('k').neq('noise'))
    .groupBy('k')
    .count()
    .writeStream.outputMode('complete')
    .format('memory')
    .option('numStatePartitions', 3);
  configure(writer);
  const query = await writer.start();
  for (const keys of batches) {
    input.addData(keys.map((k) => ({ k })));
    await query.processAllAvailable();
  }
  await query.stop();
}
