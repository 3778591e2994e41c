import { describe, expect, it } from 'vitest';
import {
  AdaptiveStringBuilder,
  MAX_DISTINCT_FRACTION,
  PROBE_ROWS,
} from '../../core/columnar/adaptive-string-builder.js';
import { valueAt } from '../../core/columnar/column-batch.js';

const distinctAtProbe = Math.floor(PROBE_ROWS * MAX_DISTINCT_FRACTION);

/** `rows` strings of which `distinct` are different (repeating in turn), a null every `nullEvery` rows. */
function strings(rows: number, distinct: number, nullEvery: number): (string | null)[] {
  return Array.from({ length: rows }, (_, i) =>
    i % nullEvery === nullEvery - 1 ? null : `s${i % distinct}`,
  );
}

describe('AdaptiveStringBuilder', () => {
  it.each([
    [
      'fewer rows than the probe, all distinct',
      strings(PROBE_ROWS - 1, PROBE_ROWS, 7),
      'dictionary',
    ],
    ['a few distinct strings', strings(3 * PROBE_ROWS, 5, 11), 'dictionary'],
    [
      'distinct strings at the limit',
      strings(3 * PROBE_ROWS, distinctAtProbe, PROBE_ROWS * 4),
      'dictionary',
    ],
    ['nearly all distinct strings', strings(3 * PROBE_ROWS, 3 * PROBE_ROWS, 13), 'values'],
    [
      'nearly all distinct, a null at the probe',
      strings(2 * PROBE_ROWS, 2 * PROBE_ROWS, PROBE_ROWS),
      'values',
    ],
  ])('keeps a dictionary only while it pays: %s', (_name, values, kind) => {
    const builder = new AdaptiveStringBuilder(16);
    for (const v of values) builder.append(v);
    const column = builder.finish();
    expect(column.kind).toBe(kind);
    expect(column.length).toBe(values.length);
    expect(values.map((_, i) => valueAt(column, i))).toEqual(values);
  });

  it('counts its rows as it goes, through the switch to values', () => {
    const builder = new AdaptiveStringBuilder();
    for (let i = 0; i < PROBE_ROWS + 2; i++) {
      if (i % 5 === 0) builder.appendNull();
      else builder.append(`u${i}`);
      expect(builder.length).toBe(i + 1);
    }
    expect(builder.finish().kind).toBe('values');
  });
});
