import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admitOffsets, holdsBatchBack } from '../../core/kafka/offset-admission.js';

describe('maxOffsetsPerTrigger admission', () => {
  it('admits everything pending when it fits the limit, or without a limit', () => {
    const pending = [
      { start: 10, latest: 15 },
      { start: 0, latest: 0 },
    ];
    expect(admitOffsets(pending, 5)).toEqual([15, 0]);
    expect(admitOffsets(pending)).toEqual([15, 0]);
  });

  it('splits the limit in proportion to lag, after one offset for each lagging partition', () => {
    // lags 300, 100, 0: one each, then 398 split 299:99
    expect(
      admitOffsets(
        [
          { start: 0, latest: 300 },
          { start: 50, latest: 150 },
          { start: 7, latest: 7 },
        ],
        100,
      ),
    ).toEqual([75, 75, 7]);
  });

  it('does not starve a partition with a small lag', () => {
    expect(
      admitOffsets(
        [
          { start: 0, latest: 1_000_000 },
          { start: 0, latest: 1 },
        ],
        10,
      ),
    ).toEqual([9, 1]);
  });

  it('admits exactly the limit when fewer offsets than lagging partitions are allowed', () => {
    const ends = admitOffsets(
      [
        { start: 0, latest: 5 },
        { start: 0, latest: 4 },
        { start: 0, latest: 1 },
      ],
      2,
    );
    expect(ends).toEqual([1, 1, 0]);
  });

  it('stays exact for lags beyond 2^53 / limit', () => {
    const big = 2 ** 50;
    const ends = admitOffsets(
      [
        { start: 0, latest: big },
        { start: 0, latest: big / 2 },
      ],
      3_000_001,
    );
    expect(ends[0] + ends[1]).toBe(3_000_001);
    expect(ends).toEqual([2_000_000, 1_000_001]); // 1 each, then 1999999.33 : 999999.67
  });

  it('always admits exactly min(limit, pending), never past latest nor before start', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ start: fc.nat(1_000), lag: fc.nat(10_000) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 20_000 }),
        (parts, limit) => {
          const pending = parts.map((p) => ({ start: p.start, latest: p.start + p.lag }));
          const ends = admitOffsets(pending, limit);
          const total = parts.reduce((a, p) => a + p.lag, 0);
          const admitted = ends.reduce((a, e, i) => a + e - pending[i].start, 0);
          expect(admitted).toBe(Math.min(limit, total));
          ends.forEach((e, i) => {
            expect(e).toBeGreaterThanOrEqual(pending[i].start);
            expect(e).toBeLessThanOrEqual(pending[i].latest);
          });
          expect(admitOffsets(pending, limit)).toEqual(ends); // deterministic
        },
      ),
    );
  });
});

describe('minOffsetsPerTrigger admission with maxTriggerDelay', () => {
  const minimum = { minOffsets: 100, maxDelayMs: 60_000 };
  const pending = (...lags: number[]) => lags.map((lag) => ({ start: 1_000, latest: 1_000 + lag }));

  it('holds a batch back while fewer offsets than the minimum are pending, summed over partitions', () => {
    const times = { nowMs: 10_000, previousMs: 0 };
    expect(holdsBatchBack(pending(40, 59), minimum, times)).toBe(true);
    expect(holdsBatchBack(pending(40, 60), minimum, times)).toBe(false);
    expect(holdsBatchBack(pending(0, 0), minimum, times)).toBe(true);
  });

  it('lets the batch run once maxTriggerDelay has passed since the last batch, however small', () => {
    expect(holdsBatchBack(pending(1), minimum, { nowMs: 59_999, previousMs: 0 })).toBe(true);
    expect(holdsBatchBack(pending(1), minimum, { nowMs: 60_000, previousMs: 0 })).toBe(false);
  });

  it('never holds back the first batch of a checkpoint', () => {
    expect(holdsBatchBack(pending(1), minimum, { nowMs: 5 })).toBe(false);
  });

  it('decides the same way for more offsets or a later time (a re-planned batch is not withdrawn)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(80), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(50), { minLength: 6, maxLength: 6 }),
        fc.nat(120_000),
        fc.nat(120_000),
        (lags, more, elapsed, later) => {
          const now = { nowMs: elapsed, previousMs: 0 };
          if (holdsBatchBack(pending(...lags), minimum, now)) return;
          const grown = pending(...lags.map((lag, i) => lag + more[i]));
          expect(holdsBatchBack(grown, minimum, { nowMs: elapsed + later, previousMs: 0 })).toBe(
            false,
          );
        },
      ),
    );
  });
});
