/**
 * What the watermark may evict from each side of a stream-stream join, read from its condition as
 * Spark's StreamingJoinHelper reads it: a watermarked join key evicts both sides; a time range
 * bounds a side's time by the other side's watermarked column.
 */
import { describe, expect, it } from 'vitest';
import { col, type Column, interval, lit, SluiceSession, window } from '../../core/index.js';
import { joinStateEviction } from '../../core/plan/join-state-watermark.js';
import type { Join } from '../../core/plan/logical-plan.js';

const MINUTE = 60_000_000;
const session = new SluiceSession();

function sides(watermarks: { left: boolean; right: boolean }) {
  const left = session.readStream.memory(session.memoryStream('k INT, lt TIMESTAMP, lx INT'));
  const right = session.readStream.memory(session.memoryStream('rk INT, rt TIMESTAMP'));
  return {
    left: watermarks.left ? left.withWatermark('lt', '5 minutes') : left,
    right: watermarks.right ? right.withWatermark('rt', '5 minutes') : right,
  };
}

function eviction(on: Column, watermarks = { left: true, right: true }) {
  const { left, right } = sides(watermarks);
  return joinStateEviction(left.join(right, on).plan as Join);
}

const keys = col('k').eq(col('rk'));

describe('join state eviction', () => {
  it.each([
    {
      condition: 'rt between lt and lt + 1 hour',
      on: keys.and(col('rt').between(col('lt'), col('lt').plus(interval('1 hour')))),
      // lt >= rt - 1 hour: left rows at or below W - 1 hour go; rt >= lt: right rows at or below W go
      expected: {
        left: { column: 1, offsetMicros: -60 * MINUTE },
        right: { column: 1, offsetMicros: 0 },
      },
    },
    {
      condition: 'lt > rt + 10 minutes (the left side only)',
      on: keys.and(col('lt').gt(col('rt').plus(interval('10 minutes')))),
      expected: { left: { column: 1, offsetMicros: 10 * MINUTE } },
    },
    {
      condition: 'rt - 10 minutes < lt, written the other way round',
      on: keys.and(col('rt').minus(interval('10 minutes')).lt(col('lt'))),
      expected: { left: { column: 1, offsetMicros: -10 * MINUTE } },
    },
    {
      condition: 'two lower bounds on the left: the tighter wins',
      on: keys
        .and(col('lt').geq(col('rt').minus(interval('1 hour'))))
        .and(col('lt').geq(col('rt').minus(interval('1 day')))),
      expected: { left: { column: 1, offsetMicros: -60 * MINUTE } },
    },
    { condition: 'keys alone', on: keys, expected: {} },
    {
      condition: 'a month interval (no fixed length)',
      on: keys.and(col('lt').geq(col('rt').minus(interval('1 month')))),
      expected: {},
    },
    {
      condition: 'a range over a non-time column',
      on: keys.and(col('lx').geq(lit(3))),
      expected: {},
    },
  ])('$condition', ({ on, expected }) => {
    expect(eviction(on)).toEqual(expected);
  });

  it("derives a side's bound only when the other side's column is watermarked", () => {
    const range = keys.and(col('rt').between(col('lt'), col('lt').plus(interval('1 hour'))));
    // without a watermark on the right, future right rows may be of any time: the left keeps all
    expect(eviction(range, { left: true, right: false })).toEqual({
      right: { column: 1, offsetMicros: 0 },
    });
    expect(eviction(range, { left: false, right: false })).toEqual({});
  });

  it('evicts both sides by a watermarked window key', () => {
    const { left, right } = sides({ left: true, right: true });
    const join = left
      .select(col('k'), window(col('lt'), '10 minutes').alias('w'))
      .join(
        right.select(col('rk'), window(col('rt'), '10 minutes').alias('rw')),
        keys.and(col('w').eq(col('rw'))),
      );
    expect(joinStateEviction(join.plan as Join)).toEqual({
      key: { left: { index: 1, isWindow: true }, right: { index: 1, isWindow: true } },
    });
  });
});
