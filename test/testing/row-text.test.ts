import { describe, expect, it } from 'vitest';
import { parseSchema, parseTypeName, Timestamp } from '../../core/index.js';
import { rowDifference, rowText } from '../../core/testing/index.js';

describe('rowText gives one text per row, whatever the order of its keys', () => {
  const cases: readonly { value: unknown; type?: string; text: string }[] = [
    { value: { b: 1, a: 'x' }, text: '{a: "x", b: 1}' },
    { value: null, text: 'null' },
    { value: Number.NaN, text: 'NaN' },
    { value: -Infinity, text: '-Infinity' },
    { value: [1, null, 2], text: '[1, null, 2]' },
    { value: new Uint8Array([1, 255]), text: '0x01ff' },
    {
      value: new Map([
        ['z', 1],
        ['a', 2],
      ]),
      text: 'map("a" -> 2, "z" -> 1)',
    },
    { value: new Date('2026-01-01T10:00:00Z'), type: 'TIMESTAMP', text: '2026-01-01 10:00:00' },
    {
      value: Timestamp.fromEpochMicros(1767261600000001),
      type: 'TIMESTAMP',
      text: '2026-01-01 10:00:00.000001',
    },
    { value: Timestamp.fromEpochMicros(1767261600000001), text: '2026-01-01 10:00:00.000001' },
    { value: new Date('2026-01-01T23:59:00Z'), type: 'DATE', text: '2026-01-01' },
    { value: 1767261600000000, type: 'TIMESTAMP', text: '1767261600000000' },
    { value: 20454, type: 'DATE', text: '20454' },
    {
      value: { start: new Date('2026-01-01T10:00:00Z'), end: new Date('2026-01-01T10:10:00Z') },
      type: 'STRUCT<start: TIMESTAMP, end: TIMESTAMP>',
      text: '{end: 2026-01-01 10:10:00, start: 2026-01-01 10:00:00}',
    },
  ];
  it.each(cases)('$text', ({ value, type, text }) => {
    expect(rowText(value, type === undefined ? undefined : parseTypeName(type))).toBe(text);
  });
});

describe('rowDifference compares rows as multisets', () => {
  it('ignores order and counts duplicates', () => {
    const a = { k: 'a' };
    const b = { k: 'b' };
    expect(rowDifference([a, b], [b, a])).toEqual({ missing: [], unexpected: [] });
    expect(rowDifference([a, a, b], [a, b, b])).toEqual({
      missing: ['{k: "b"}'],
      unexpected: ['{k: "a"}'],
    });
  });

  it('reads the rows as of their schema', () => {
    const schema = parseSchema('t TIMESTAMP');
    expect(
      rowDifference([{ t: Timestamp.fromEpochMicros(1) }], [{ t: new Date(0) }], schema),
    ).toEqual({
      missing: ['{t: 1970-01-01 00:00:00}'],
      unexpected: ['{t: 1970-01-01 00:00:00.000001}'],
    });
    expect(
      rowDifference([{ t: Timestamp.fromEpochMicros(1000) }], [{ t: new Date(1) }], schema),
    ).toEqual({ missing: [], unexpected: [] });
  });
});
