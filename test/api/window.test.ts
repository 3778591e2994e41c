import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  col,
  count,
  dense_rank,
  first_value,
  lag,
  last_value,
  lead,
  ntile,
  rank,
  row_number,
  SluiceSession,
  sum,
  UnsupportedOperationError,
  Window,
} from '../../core/index.js';
import { MemorySink } from '../../core/sinks/memory-sink.js';

function scores() {
  const session = new SluiceSession();
  const df = session.createDataFrame(
    [
      { id: 1, team: 'a', score: 10 },
      { id: 2, team: 'a', score: 20 },
      { id: 3, team: 'a', score: 20 },
      { id: 4, team: 'a', score: null },
      { id: 5, team: 'b', score: 5 },
    ],
    'id INT, team STRING, score INT',
  );
  return { session, df };
}

const byId = (rows: Record<string, unknown>[]) =>
  [...rows].sort((x, y) => (x.id as number) - (y.id as number));

describe('ranking functions over Window.partitionBy().orderBy()', () => {
  it('number, rank and dense-rank rows per partition, peers sharing a rank', async () => {
    const { df } = scores();
    const w = Window.partitionBy('team').orderBy(col('score').desc());
    const rows = await df
      .select(
        'id',
        row_number().over(w).alias('rn'),
        rank().over(w).alias('r'),
        dense_rank().over(w).alias('dr'),
        ntile(2).over(w).alias('half'),
      )
      .collect();
    expect(byId(rows)).toEqual([
      { id: 1, rn: 3, r: 3, dr: 2, half: 2 },
      { id: 2, rn: 1, r: 1, dr: 1, half: 1 },
      { id: 3, rn: 2, r: 1, dr: 1, half: 1 },
      { id: 4, rn: 4, r: 4, dr: 3, half: 2 },
      { id: 5, rn: 1, r: 1, dr: 1, half: 1 },
    ]);
  });

  it('lag and lead read neighbouring rows, with a default past the edge', async () => {
    const { df } = scores();
    const w = Window.partitionBy('team').orderBy('id');
    const rows = await df
      .select('id', lag('score').over(w).alias('prev'), lead('score', 2, -1).over(w).alias('next2'))
      .collect();
    expect(byId(rows)).toEqual([
      { id: 1, prev: null, next2: 20 },
      { id: 2, prev: 10, next2: null },
      { id: 3, prev: 20, next2: -1 },
      { id: 4, prev: 20, next2: -1 },
      { id: 5, prev: null, next2: -1 },
    ]);
  });

  it('need an ordered window, as in Spark', () => {
    const { df } = scores();
    expect(() => df.select(row_number().over(Window.partitionBy('team')))).toThrow(AnalysisError);
    expect(() => df.select(row_number().over(Window.partitionBy('team')))).toThrow(
      /requires the window to be ordered/,
    );
  });
});

describe('aggregates and values over frames', () => {
  it('default to a running total with peers when ordered, the whole partition when not', async () => {
    const { df } = scores();
    const ordered = Window.partitionBy('team').orderBy('score');
    const whole = Window.partitionBy('team');
    const rows = await df
      .select(
        'id',
        sum('score').over(ordered).alias('running'),
        count().over(whole).alias('n'),
        last_value('score').over(ordered).alias('last'),
      )
      .collect();
    expect(byId(rows)).toEqual([
      { id: 1, running: 10, n: 4, last: 10 },
      { id: 2, running: 50, n: 4, last: 20 },
      { id: 3, running: 50, n: 4, last: 20 },
      { id: 4, running: null, n: 4, last: null },
      { id: 5, running: 5, n: 1, last: 5 },
    ]);
  });

  it('take ROWS and RANGE frames with offsets', async () => {
    const { df } = scores();
    const rows3 = Window.partitionBy('team').orderBy('id').rowsBetween(-1, 1);
    const range = Window.partitionBy('team').orderBy('score').rangeBetween(-10, 0);
    const rows = await df
      .select(
        'id',
        sum('score').over(rows3).alias('moving'),
        count('score').over(range).alias('within10'),
        first_value('score', true).over(rows3).alias('first'),
      )
      .collect();
    expect(byId(rows)).toEqual([
      { id: 1, moving: 30, within10: 1, first: 10 },
      { id: 2, moving: 50, within10: 3, first: 10 },
      { id: 3, moving: 40, within10: 3, first: 20 },
      { id: 4, moving: 20, within10: 0, first: 20 },
      { id: 5, moving: 5, within10: 1, first: 5 },
    ]);
  });

  it('refuses a frame whose start comes after its end, and a range over a string order', () => {
    const { df } = scores();
    const backwards = Window.orderBy('id').rowsBetween(1, -1);
    expect(() => df.select(sum('score').over(backwards))).toThrow(/lower bound/);
    const stringRange = Window.orderBy('team').rangeBetween(-1, 0);
    expect(() => df.select(sum('score').over(stringRange))).toThrow(/RANGE frame with offsets/);
  });

  it('refuses a scalar function with over()', () => {
    expect(() => col('score').over(Window.orderBy('id'))).toThrow(/not a window function/);
  });
});

describe('window functions on streams', () => {
  it('are refused when the query starts, as Spark refuses non-time-based windows', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream('id INT, team STRING');
    const ranked = session.readStream
      .memory(events)
      .select('id', row_number().over(Window.partitionBy('team').orderBy('id')).alias('rn'));
    expect(ranked.isStreaming).toBe(true);
    const start = ranked.writeStream.sink(new MemorySink(ranked.schema)).start();
    await expect(start).rejects.toThrow(UnsupportedOperationError);
    await expect(ranked.writeStream.sink(new MemorySink(ranked.schema)).start()).rejects.toThrow(
      /Non-time-based windows are not supported on streaming DataFrames\/Datasets/,
    );
  });
});
