/**
 * The statistical aggregates' state through crashes and restarts: a windowed aggregation and a
 * session-window aggregation killed after any step of a batch and restarted cold (their sketches,
 * summaries and moments read back from the checkpoint's state files) emit the batch query's rows;
 * a restart with another rsd or accuracy, which shape the state, is refused naming it.
 */
import { describe, expect, it } from 'vitest';
import {
  approx_count_distinct,
  type BatchStep,
  col,
  collect_set,
  type Column,
  type MemoryStream,
  percentile_approx,
  type RowObject,
  session_window,
  SluiceSession,
  stddev_pop,
  variance,
  window,
} from '../../core/index.js';
import { CheckpointError } from '../../core/errors.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';
import { comparableRows } from '../support/comparable-rows.js';
import { crashAndRestart } from '../support/crash-and-restart.js';

const SCHEMA = 'ts TIMESTAMP, user STRING, amount INT';
const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

const event = (time: string, user: string, amount: number | null): RowObject => ({
  ts: at(time),
  user,
  amount,
});

const chunks: RowObject[][] = [
  [event('10:00:00', 'a', 1), event('10:01:00', 'a', 5), event('10:02:00', 'b', 4)],
  [event('10:04:00', 'a', 5), event('10:03:00', 'b', null), event('10:12:00', 'a', 9)],
  [event('10:07:00', 'a', 2), event('10:13:00', 'b', 8), event('10:14:00', 'b', 8)],
];
const flush = event('13:00:00', 'flush', null);

const statistics = () => [
  collect_set('amount').alias('amounts'),
  approx_count_distinct('amount').alias('distinct'),
  percentile_approx('amount', [0.5, 1]).alias('median_max'),
  variance('amount').alias('var'),
  stddev_pop('amount').alias('sd'),
];

const queries = {
  'a windowed aggregation': (df: ReturnType<SluiceSession['createDataFrame']>) =>
    df
      .withWatermark('ts', '10 minutes')
      .groupBy(window(col('ts'), '10 minutes'), col('user'))
      .agg(...statistics()),
  'a session-window aggregation': (df: ReturnType<SluiceSession['createDataFrame']>) =>
    df
      .withWatermark('ts', '10 minutes')
      .groupBy(session_window(col('ts'), '5 minutes'), col('user'))
      .agg(...statistics()),
};

for (const [name, query] of Object.entries(queries)) {
  describe(`${name} over statistical aggregates, killed at any step and restarted`, () => {
    for (const step of STEPS) {
      it(`emits the batch query's rows when killed right after '${step}'`, async () => {
        const { rows, progress } = await crashAndRestart({
          query: (session: SluiceSession, events: MemoryStream) =>
            query(session.readStream.memory(events)),
          schema: SCHEMA,
          chunks,
          flush,
          step,
        });
        const batch = query(new SluiceSession().createDataFrame(chunks.flat(), SCHEMA));
        expect(rows.length).toBeGreaterThan(0);
        expect(comparableRows(rows)).toEqual(comparableRows(await batch.collect()));
        expect(progress[0].stateLoad).toBe('cold');
      });
    }
  });
}

describe('restarting a query over statistical aggregates with other parameters', () => {
  const changes = [
    {
      name: "approx_count_distinct's rsd",
      was: approx_count_distinct('amount'),
      now: approx_count_distinct('amount', 0.01),
      text: /now .*approx_count_distinct\(amount, 0\.01\b/,
    },
    {
      name: "percentile_approx's accuracy",
      was: percentile_approx('amount', 0.5),
      now: percentile_approx('amount', 0.5, 100),
      text: /now .*percentile_approx\(amount, 0\.5\S*, 100\b/,
    },
  ];
  for (const c of changes) {
    it(`is refused when ${c.name} changed, naming the aggregate it had and the one it has`, async () => {
      const checkpoint = tempDir();
      const session = new SluiceSession();
      const events = session.memoryStream(SCHEMA);
      const run = (statistic: Column) =>
        session.readStream
          .memory(events)
          .groupBy('user')
          .agg(statistic.alias('s'))
          .writeStream.outputMode('update')
          .option('checkpointLocation', checkpoint)
          .start();
      const first = await run(c.was);
      events.addData(chunks[0]);
      await first.processAllAvailable();
      await first.stop();
      const restart = run(c.now);
      await expect(restart).rejects.toThrow(CheckpointError);
      await expect(restart).rejects.toThrow(c.text);
    });
  }
});
