/**
 * Deduplication and chains of stateful operators (a stream-stream join over two aggregations too), killed right after each step of a batch (one with
 * data, or the batch without data that follows it and closes windows) and restarted cold on the same
 * checkpoint: the sink ends with exactly the batch query's result.
 */
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  col,
  count,
  type DataFrame,
  type RowObject,
  SluiceSession,
  sum,
  window,
  window_time,
} from '../../core/index.js';
import { at, clickSchema } from '../support/events.js';
import { crashAndRestart } from '../support/crash-and-restart.js';

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

const click = (time: string, category: string, user: string): RowObject => ({
  ts: at(time),
  category,
  user,
});
const chunks: RowObject[][] = [
  [
    click('10:01:00', 'books', 'a'),
    click('10:03:00', 'games', 'b'),
    click('10:12:00', 'books', 'c'),
  ],
  [
    click('10:01:00', 'books', 'a'), // a duplicate of the first click
    click('10:08:00', 'books', 'd'),
    click('10:24:00', 'games', 'e'),
    click('10:24:00', 'games', 'e'), // a duplicate in the same batch
    click('10:26:00', 'books', 'f'),
  ],
  [
    click('10:02:00', 'books', 'late'),
    click('10:31:00', 'books', 'g'),
    click('10:47:00', 'games', 'h'),
  ],
];
/** An event far ahead that moves the watermark past every window above. */
const flush = click('13:00:00', 'flush', 'z');

type Query = (df: DataFrame) => DataFrame;

const queries: ReadonlyArray<readonly [string, Query]> = [
  [
    'dropDuplicates then a windowed count',
    (df) =>
      df
        .withWatermark('ts', '10 minutes')
        .dropDuplicates('user', 'ts')
        .groupBy(window(col('ts'), '10 minutes'), col('category'))
        .agg(count().alias('n')),
  ],
  [
    'a windowed count of windowed counts',
    (df) =>
      df
        .withWatermark('ts', '10 minutes')
        .groupBy(window(col('ts'), '10 minutes'), col('category'))
        .agg(count().alias('n'))
        .groupBy(window(window_time('window'), '30 minutes'))
        .agg(count().alias('windows'), sum('n').alias('clicks')),
  ],
  [
    'a full outer join of two windowed counts on the window',
    (df) => {
      const perCategory = (category: string, as: string, windowAs: string) =>
        df
          .withWatermark('ts', '10 minutes')
          .filter(col('category').eq(category))
          .groupBy(window(col('ts'), '10 minutes').alias(windowAs))
          .agg(count().alias(as));
      return perCategory('books', 'books', 'window').join(
        perCategory('games', 'games', 'gamesWindow'),
        col('window').eq(col('gamesWindow')),
        'full',
      );
    },
  ],
];

function canonical(rows: RowObject[]): string[] {
  return rows.map((r) => JSON.stringify(r)).sort();
}

async function expectedResult(query: Query): Promise<string[]> {
  const all = chunks.flat().filter((r) => r.user !== 'late');
  return canonical(await query(new SluiceSession().createDataFrame(all, clickSchema)).collect());
}

describe('a chain of stateful operators killed at any step and restarted', () => {
  for (const [name, query] of queries) {
    for (const skip of [0, 1]) {
      const batch = skip === 0 ? 'a batch with data' : 'the batch without data after it';
      for (const step of STEPS) {
        it(`${name}: gives the batch result when ${batch} is killed after '${step}'`, async () => {
          const { rows, progress } = await crashAndRestart({
            query: (session, events) => query(session.readStream.memory(events)),
            schema: clickSchema,
            chunks,
            flush,
            step,
            skip,
          });
          expect(rows.length).toBeGreaterThan(1);
          expect(canonical(rows)).toEqual(await expectedResult(query));
          expect(progress[0].stateLoad).toBe('cold');
        });
      }
    }
  }
});
