/**
 * The plan fingerprint covers every parameter that shapes a query's state, so restarting a
 * checkpoint with a query that changed one of them is refused, naming the old and the new value.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CheckpointError,
  col,
  count,
  type DataFrame,
  max,
  MemorySink,
  min,
  SluiceSession,
  sum,
  window,
} from '../../core/index.js';
import { planPhysical } from '../../core/exec/physical-planner.js';
import { checkPlanFingerprint, planFingerprint } from '../../core/streaming/plan-fingerprint.js';
import { parseSchema } from '../../core/types/type-names.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const session = new SluiceSession();
const schemaWithNumbers = parseSchema('category STRING, a LONG, b LONG');

/** A windowed count per category over a click stream, with the parts a test changes as parameters. */
function windowed(
  options: {
    duration?: string;
    slide?: string;
    start?: string;
    watermarkColumn?: string;
    delay?: string;
  } = {},
): DataFrame {
  return session.readStream
    .memory(session.memoryStream(clickSchema))
    .select(col('ts'), col('ts').alias('seen'), col('category'), col('user'))
    .withWatermark(options.watermarkColumn ?? 'ts', options.delay ?? '10 minutes')
    .groupBy(
      window(col('ts'), options.duration ?? '10 minutes', options.slide, options.start),
      col('category'),
    )
    .agg(count().alias('n'));
}

/** The error of restarting a checkpoint of `before` with `after`, or undefined when it is accepted. */
function restart(before: DataFrame, after: DataFrame, recorded = planFingerprint(before.plan, 4)) {
  try {
    const physical = planPhysical(after.plan, true, { batchTimestampMicros: 0 });
    checkPlanFingerprint(recorded, after.plan, physical, 4, '/checkpoints/q');
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

describe('the plan fingerprint', () => {
  it('refuses a restart whose window duration changed from 10 to 5 minutes, naming both', async () => {
    const checkpoint = tempDir();
    const first = windowed();
    const events = session.memoryStream(clickSchema);
    const run = (minutes: string) =>
      session.readStream
        .memory(events)
        .withWatermark('ts', '10 minutes')
        .groupBy(window(col('ts'), minutes), col('category'))
        .agg(count().alias('n'));
    const q = await run('10 minutes')
      .writeStream.outputMode('append')
      .sink(new MemorySink(first.schema))
      .option('checkpointLocation', checkpoint)
      .start();
    events.addData([{ ts: at('10:01:00'), category: 'books', user: 'a' }]);
    await q.processAllAvailable();
    await q.stop();
    const error = await run('5 minutes')
      .writeStream.outputMode('append')
      .sink(new MemorySink(first.schema))
      .option('checkpointLocation', checkpoint)
      .start()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toContain(
      'was #0 aggregate(keys: window(ts, 10 minutes, 10 minutes, 0 µs): struct<start:timestamp,end:timestamp>',
    );
    expect((error as Error).message).toContain(
      'now #0 aggregate(keys: window(ts, 5 minutes, 5 minutes, 0 µs): struct<start:timestamp,end:timestamp>',
    );
  });

  it('refuses a restart whose window slide or start changed', () => {
    expect(
      restart(windowed({ slide: '5 minutes' }), windowed({ slide: '2 minutes' }))?.message,
    ).toMatch(
      /was .*window\(ts, 10 minutes, 5 minutes, 0 µs\).*, now .*window\(ts, 10 minutes, 2 minutes, 0 µs\)/,
    );
    expect(restart(windowed(), windowed({ start: '3 minutes' }))?.message).toMatch(
      /was .*window\(ts, 10 minutes, 10 minutes, 0 µs\).*, now .*window\(ts, 10 minutes, 10 minutes, 3 minutes\)/,
    );
  });

  it('refuses a restart whose aggregate function or its input changed, though names and types stay', () => {
    const stream = () => session.readStream.memory(session.memoryStream(schemaWithNumbers));
    const agg = (value: ReturnType<typeof max>) =>
      stream().groupBy(col('category')).agg(value.alias('v'));
    expect(restart(agg(max('a')), agg(min('a')))?.message).toMatch(
      /was .*max\(a\) AS v: long.*, now .*min\(a\) AS v: long/,
    );
    expect(restart(agg(sum('a')), agg(sum('b')))?.message).toMatch(
      /was .*sum\(a\) AS v: long.*, now .*sum\(b\) AS v: long/,
    );
  });

  it('refuses a restart whose grouping key expression changed under the same name and type', () => {
    const stream = () => session.readStream.memory(session.memoryStream(clickSchema));
    const before = stream().groupBy(col('category')).count();
    const after = stream().groupBy(col('user').alias('category')).count();
    expect(restart(before, after)?.message).toMatch(
      /was .*keys: category: string.*, now .*keys: user AS category: string/,
    );
  });

  it('refuses a restart whose watermark column changed', () => {
    const error = restart(windowed(), windowed({ watermarkColumn: 'seen' }));
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error?.message).toContain('was watermark #0 on ts, now watermark #0 on seen');
  });

  it('accepts a restart whose watermark delay changed, as Spark does: the delay does not shape state', () => {
    expect(restart(windowed(), windowed({ delay: '1 hour' }))).toBeUndefined();
  });

  it('accepts a restart of an unchanged query', () => {
    expect(restart(windowed(), windowed())).toBeUndefined();
  });

  it('accepts a checkpoint of an earlier Sluice (first fingerprint format) while the query still has its description', async () => {
    const checkpoint = tempDir();
    const events = session.memoryStream(clickSchema);
    const counts = session.readStream
      .memory(events)
      .withWatermark('ts', '10 minutes')
      .groupBy(window(col('ts'), '10 minutes'), col('category'))
      .agg(count().alias('n'));
    // metadata.json as Sluice wrote it before fingerprints had a version
    writeFileSync(
      path.join(checkpoint, 'metadata.json'),
      JSON.stringify({
        formatVersion: 1,
        queryId: 'earlier-query',
        planFingerprint:
          '#0 aggregate(keys: window:struct<start:timestamp,end:timestamp>, category:string; values: n:long); partitions: 4',
        numStatePartitions: 4,
      }),
    );
    const q = await counts.writeStream
      .outputMode('append')
      .sink(new MemorySink(counts.schema))
      .option('checkpointLocation', checkpoint)
      .option('numStatePartitions', 4)
      .start();
    expect(q.id).toBe('earlier-query');
    await q.stop();
    const byUser = session.readStream
      .memory(events)
      .withWatermark('ts', '10 minutes')
      .groupBy(window(col('ts'), '10 minutes'), col('user'))
      .agg(count().alias('n'));
    await expect(
      byUser.writeStream
        .outputMode('append')
        .sink(new MemorySink(byUser.schema))
        .option('checkpointLocation', checkpoint)
        .option('numStatePartitions', 4)
        .start(),
    ).rejects.toThrow(
      /was #0 aggregate\(keys: window:struct<.*>, category:string; .*, now #0 aggregate\(keys: window:struct<.*>, user:string;/,
    );
  });
});
