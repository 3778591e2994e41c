import { describe, expect, it } from 'vitest';
import { fileStats, STATS_INDEXED_COLUMNS } from '../../core/delta/file-stats.js';
import { parseSchema } from '../../core/types/type-names.js';
import { atMicros } from '../support/events.js';

describe('per-file statistics', () => {
  it('count rows and per column NULLs, min and max, nested like the schema', () => {
    const schema = parseSchema(
      'n LONG, s STRING, d DOUBLE, day DATE, w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, ok BOOLEAN, tags ARRAY<STRING>',
    );
    const rows = [
      [3, 'b', 1.5, 20454, [atMicros('10:00:00'), atMicros('10:10:00')], true, ['x']],
      [1, null, -2, 20455, [atMicros('10:10:00') + 1, atMicros('10:20:00')], null, null],
      [null, 'a', 0, null, null, false, []],
    ];
    expect(JSON.parse(fileStats(rows, schema))).toEqual({
      numRecords: 3,
      minValues: {
        n: 1,
        s: 'a',
        d: -2,
        day: '2026-01-01',
        w: { start: '2026-01-01T10:00:00.000Z', end: '2026-01-01T10:10:00.000Z' },
      },
      maxValues: {
        n: 3,
        s: 'b',
        d: 1.5,
        day: '2026-01-02',
        // the maximum is rounded up to the next millisecond, so it stays above the value
        w: { start: '2026-01-01T10:10:00.001Z', end: '2026-01-01T10:20:00.000Z' },
      },
      nullCount: { n: 1, s: 1, d: 0, day: 1, w: { start: 1, end: 1 }, ok: 1, tags: 1 },
    });
  });

  it('keep only safe string bounds: a cut minimum, no maximum longer than 32 characters', () => {
    const long = 'x'.repeat(40);
    const stats = JSON.parse(fileStats([[long], ['y']], parseSchema('s STRING')));
    expect(stats.minValues.s).toBe('x'.repeat(32));
    expect(stats.maxValues.s).toBe('y');
    const onlyLong = JSON.parse(fileStats([[long]], parseSchema('s STRING')));
    expect(onlyLong.maxValues).toEqual({});
  });

  it('order strings by UTF-8 bytes, as Delta readers do', () => {
    // U+FF5E sorts below U+1F600 in UTF-8, above it in UTF-16 units
    const stats = JSON.parse(fileStats([['\uff5e'], ['\u{1f600}']], parseSchema('s STRING')));
    expect(stats.minValues.s).toBe('\uff5e');
    expect(stats.maxValues.s).toBe('\u{1f600}');
  });

  it('leave out min and max of a double column holding NaN or an infinity', () => {
    const stats = JSON.parse(fileStats([[1], [NaN]], parseSchema('d DOUBLE')));
    expect(stats).toEqual({ numRecords: 2, minValues: {}, maxValues: {}, nullCount: { d: 0 } });
    const infinite = JSON.parse(fileStats([[1], [-Infinity]], parseSchema('d DOUBLE')));
    expect(infinite.minValues).toEqual({});
  });

  it(`cover the first ${STATS_INDEXED_COLUMNS} leaf columns only`, () => {
    const schema = parseSchema(
      Array.from({ length: STATS_INDEXED_COLUMNS + 2 }, (_, i) => `c${i} INT`).join(', '),
    );
    const stats = JSON.parse(fileStats([schema.fields.map((_, i) => i)], schema));
    expect(Object.keys(stats.nullCount)).toHaveLength(STATS_INDEXED_COLUMNS);
    expect(stats.maxValues[`c${STATS_INDEXED_COLUMNS}`]).toBeUndefined();
  });

  it('handle more values than fit on the stack as arguments', () => {
    const rows = Array.from({ length: 400_000 }, (_, i) => [i]);
    expect(JSON.parse(fileStats(rows, parseSchema('n LONG'))).maxValues.n).toBe(399_999);
  });
});
