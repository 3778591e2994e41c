/**
 * `foreachBatch` hands each micro-batch's output to user code as a static DataFrame with its
 * batchId, as Spark does: the function can collect it, query it, or write it with a batch writer.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { col, SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

describe('foreachBatch', () => {
  it("hands each batch as a static DataFrame of the batch's output rows, with its batchId", async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('k STRING, n INT');
    const seen: { batchId: number; streaming: boolean; rows: unknown[]; big: number }[] = [];
    const query = await session.readStream
      .memory(input)
      .writeStream.foreachBatch(async (batch, batchId) => {
        seen.push({
          batchId,
          streaming: batch.isStreaming,
          rows: await batch.collect(),
          big: await batch.filter(col('n').gt(1)).count(),
        });
      })
      .option('checkpointLocation', tempDir())
      .start();
    input.addData([
      { k: 'a', n: 1 },
      { k: 'b', n: 2 },
    ]);
    await query.processAllAvailable();
    input.addData([{ k: 'c', n: 3 }]);
    await query.processAllAvailable();
    await query.stop();
    expect(seen).toEqual([
      {
        batchId: 0,
        streaming: false,
        rows: [
          { k: 'a', n: 1 },
          { k: 'b', n: 2 },
        ],
        big: 1,
      },
      { batchId: 1, streaming: false, rows: [{ k: 'c', n: 3 }], big: 1 },
    ]);
  });

  it('lets the function write the batch with a batch writer', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('k STRING');
    const out = tempDir();
    const query = await session.readStream
      .memory(input)
      .writeStream.foreachBatch((batch, batchId) =>
        batch.write.format('json').save(path.join(out, `batch-${batchId}`)),
      )
      .option('checkpointLocation', tempDir())
      .start();
    input.addData([{ k: 'x' }, { k: 'y' }]);
    await query.processAllAvailable();
    await query.stop();
    const dir = path.join(out, 'batch-0');
    const lines = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').trim().split('\n'));
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([{ k: 'x' }, { k: 'y' }]);
  });
});
