/**
 * What the unification-law property tests share: random input cut into micro-batches, a stream run
 * over them with its output collected batch by batch, and rows in one canonical order, so a
 * stream's result and a batch query's compare as multisets.
 */
import type { DataFrame, OutputMode, RowObject, SluiceSession } from '../../core/index.js';
import { tempDir } from './temp-dir.js';

/** `rows` cut before each index in `cuts` (any order), without empty batches. */
export function microBatches<T>(rows: readonly T[], cuts: readonly number[]): T[][] {
  const points = [0, ...[...cuts].sort((a, b) => a - b), rows.length];
  return points
    .slice(1)
    .map((end, i) => rows.slice(points[i], end))
    .filter((batch) => batch.length > 0);
}

/** One text per row, sorted: two results are equal as multisets when these are equal. */
export function canonical(rows: readonly RowObject[]): string[] {
  return rows.map((r) => JSON.stringify(r)).sort();
}

/** How a stream under test is fed: its session, the memory stream it reads, and the result query. */
export interface StreamUnderLaw {
  readonly session: SluiceSession;
  readonly schema: string;
  readonly query: (input: DataFrame) => DataFrame;
}

/**
 * The rows each batch of the stream wrote, when `parts` were added one micro-batch at a time
 * (4 state partitions, a fresh local checkpoint).
 */
export async function streamOutputs(
  { session, schema, query }: StreamUnderLaw,
  mode: OutputMode,
  parts: readonly RowObject[][],
): Promise<RowObject[][]> {
  const input = session.memoryStream(schema);
  const outputs: RowObject[][] = [];
  const running = await query(session.readStream.memory(input))
    .writeStream.outputMode(mode)
    .foreachBatch(async (batch) => {
      outputs.push(await batch.collect());
    })
    .option('checkpointLocation', tempDir())
    .option('numStatePartitions', 4)
    .start();
  for (const part of parts) {
    input.addData(part);
    await running.processAllAvailable();
  }
  await running.stop();
  return outputs;
}

/** What a stream's sink holds at the end: the last batch in complete mode, every row otherwise. */
export function finalResult(mode: OutputMode, outputs: readonly RowObject[][]): RowObject[] {
  return mode === 'complete' ? [...(outputs[outputs.length - 1] ?? [])] : outputs.flat();
}
