/**
 * The process the chaos test kills: runs the windowed count over a directory of JSON-lines files,
 * one file per batch, into an idempotent file sink (one file per batchId), until no input is left.
 * It prints `<step> <batchId>` after each protocol step, so the test can kill it right there.
 * Usage: tsx kill-target.ts <input dir> <checkpoint dir> <output dir>
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { col, count, SluiceSession, window } from '../../core/index.js';

const [input, checkpoint, output] = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));
const session = new SluiceSession();
const counts = session.readStream
  .schema('ts TIMESTAMP, category STRING')
  .option('maxFilesPerTrigger', 1)
  .json(input)
  .withWatermark('ts', '5 minutes')
  .groupBy(window(col('ts'), '10 minutes'), col('category'))
  .agg(count().alias('n'));
const query = await counts.writeStream
  .outputMode('append')
  .foreachBatch(async (batch, batchId) => {
    const file = path.join(output, `${String(batchId).padStart(6, '0')}.json`);
    if (existsSync(file)) return;
    writeFileSync(`${file}.tmp`, JSON.stringify(await batch.collect()));
    renameSync(`${file}.tmp`, file);
  })
  .option('checkpointLocation', checkpoint)
  .trigger({ availableNow: true })
  .afterStep((step, batchId) => {
    process.stdout.write(`${step} ${batchId}\n`);
    // Hold still for a moment, so that the kill lands at this step rather than some steps later.
    Atomics.wait(pause, 0, 0, 25);
  })
  .start();
await query.awaitTermination();
