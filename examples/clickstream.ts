/**
 * The canonical Sluice job, run locally (`npm start`):
 *
 *   clickstream JSON  ->  from_json with a schema  ->  10-minute event-time tumbling windows,
 *   counted per category, 15-minute watermark  ->  append mode  ->  finalized windows on disk
 *
 * Events arrive as JSON-lines files in `in/` (out of order, some very late), one file per trigger.
 * The query runs as micro-batches against a checkpoint directory. Halfway through, the first run is
 * killed right after its sink wrote a batch but before that batch committed; a second run on the same
 * checkpoint resumes, re-runs that batch with the same offsets, and the sink recognizes the batchId.
 * At the end the finalized windows are compared with a batch query over the same input.
 */
import { mkdirSync, rmSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { type DataFrame, progressLine, SluiceSession } from '../core/index.js';
import { clickstreamFiles } from './clickstream-events.js';
import { clickCounts } from './clickstream-query.js';

const WORK_DIR = path.resolve('.sluice/clickstream');
const INPUT = path.join(WORK_DIR, 'in');
const OUTPUT = path.join(WORK_DIR, 'out');
const CHECKPOINT = path.join(WORK_DIR, 'checkpoint');

/** Late events the stream dropped, over the committed batches of both runs. */
let lateEventsDropped = 0;

/** The sink: one file per batchId, written atomically and skipped when it exists, so a re-run batch lands once. */
async function writeWindows(batch: DataFrame, batchId: number): Promise<void> {
  const rows = await batch.collect();
  const file = path.join(OUTPUT, `batch-${String(batchId).padStart(5, '0')}.json`);
  if (existsSync(file)) {
    console.log(`  sink: batch ${batchId} is already in ${path.relative(WORK_DIR, file)}; skipped`);
    return;
  }
  const windows = rows.map((r) => {
    const w = r.window as { start: Date; end: Date };
    return {
      window_start: w.start.toISOString(),
      window_end: w.end.toISOString(),
      category: r.category,
      count: r.count,
    };
  });
  const temp = `${file}.tmp`;
  writeFileSync(temp, windows.map((w) => `${JSON.stringify(w)}\n`).join(''));
  renameSync(temp, file);
  for (const w of windows) {
    console.log(
      `  batch ${batchId} finalized ${w.window_start.slice(0, 16)}..${w.window_end.slice(11, 16)}  ${String(w.category).padEnd(8)} ${w.count}`,
    );
  }
}

async function run(label: string, killAfterSinkOfBatch?: number): Promise<void> {
  console.log(`\n=== ${label}`);
  const session = new SluiceSession();
  const query = await clickCounts(session.readStream.option('maxFilesPerTrigger', 1).text(INPUT))
    .writeStream.outputMode('append')
    .foreachBatch(writeWindows)
    .option('checkpointLocation', CHECKPOINT)
    .trigger({ availableNow: true })
    .onProgress((p) => {
      lateEventsDropped += p.lateRowsDropped;
      console.log(progressLine(p));
    })
    .afterStep((step, batchId) => {
      if (step === 'sink' && batchId === killAfterSinkOfBatch) {
        throw new Error(`simulated crash after the sink of batch ${batchId}, before its commit`);
      }
    })
    .start();
  try {
    await query.awaitTermination();
  } catch (e) {
    console.log(`  !! ${(e as Error).message}`);
  }
}

async function main(): Promise<void> {
  rmSync(WORK_DIR, { recursive: true, force: true });
  mkdirSync(INPUT, { recursive: true });
  mkdirSync(OUTPUT, { recursive: true });
  const files = clickstreamFiles({ files: 8, eventsPerFile: 2_500, seed: 7 });
  files.slice(0, 5).forEach((lines, i) => writeInput(i, lines));
  await run('first run: 5 files arrive; the process dies during batch 3', 3);

  files.slice(5).forEach((lines, i) => writeInput(i + 5, lines));
  await run('second run on the same checkpoint: 3 more files arrive');

  await verify();
}

function writeInput(i: number, lines: string[]): void {
  writeFileSync(
    path.join(INPUT, `clicks-${String(i).padStart(3, '0')}.json`),
    lines.join('\n') + '\n',
  );
}

/** Compares the streamed windows with the batch query over the same input. */
async function verify(): Promise<void> {
  const session = new SluiceSession();
  const streamed = await session.read
    .schema('window_start TIMESTAMP, window_end TIMESTAMP, category STRING, count LONG')
    .json(OUTPUT)
    .collect();
  const key = (start: Date, category: unknown) => `${start.toISOString()}|${category}`;
  const streamedKeys = new Set(streamed.map((r) => key(r.window_start as Date, r.category)));
  // The batch query over all input, restricted to the windows the final watermark has closed.
  const closedUntil = Math.max(...streamed.map((r) => (r.window_end as Date).getTime()));
  const batch = (await clickCounts(session.read.text(INPUT)).collect())
    .map((r) => ({
      start: (r.window as { start: Date }).start,
      end: (r.window as { end: Date }).end.getTime(),
      category: r.category,
      count: r.count,
    }))
    .filter((r) => r.end <= closedUntil);
  const streamedTotal = streamed.reduce((n, r) => n + (r.count as number), 0);
  const batchTotal = batch.reduce((n, r) => n + (r.count as number), 0);
  console.log('\n=== result');
  console.log(
    `  finalized windows written by the stream: ${streamed.length} (${streamedKeys.size} distinct)`,
  );
  console.log(
    `  closed windows in a batch query over all input: ${batch.length} (the rest held only late events)`,
  );
  console.log(
    `  events counted by the stream: ${streamedTotal}, dropped as late: ${lateEventsDropped}`,
  );
  console.log(`  events in those windows by the batch query: ${batchTotal}`);
  const exact =
    streamed.length === streamedKeys.size && streamedTotal + lateEventsDropped === batchTotal;
  console.log(
    exact ? '  => no window written twice, no event counted twice or lost' : '  => MISMATCH',
  );
  if (!exact) process.exitCode = 1;
}

await main();
