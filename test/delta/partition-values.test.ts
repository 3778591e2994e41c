import { describe, expect, it } from 'vitest';
import { DeltaTableError } from '../../core/index.js';
import {
  formatPartitionValue,
  parsePartitionValue,
  partitionDirectory,
} from '../../core/delta/partition-values.js';
import { parseTypeName } from '../../core/types/type-names.js';
import { atMicros } from '../support/events.js';

describe('partition values', () => {
  const cases: [string, unknown, string | null][] = [
    ['STRING', 'books', 'books'],
    ['INT', -42, '-42'],
    ['LONG', 9007199254740991, '9007199254740991'],
    ['DOUBLE', 2.5, '2.5'],
    ['BOOLEAN', false, 'false'],
    ['DATE', 20454, '2026-01-01'],
    ['TIMESTAMP', atMicros('10:20:30') + 123456, '2026-01-01T10:20:30.123456Z'],
    ['TIMESTAMP', atMicros('10:20:30'), '2026-01-01T10:20:30.000000Z'],
    ['BINARY', new Uint8Array([1, 2, 255]), '\u0001\u0002\u00ff'],
    ['STRING', null, null],
  ];
  for (const [type, value, text] of cases) {
    it(`write ${type} ${String(value)} as ${JSON.stringify(text)} and read it back`, () => {
      const t = parseTypeName(type);
      expect(formatPartitionValue(value, t)).toBe(text);
      expect(parsePartitionValue(text, t, 'c', 'tbl')).toEqual(value);
    });
  }

  it('read the other forms the protocol allows: timestamps without T or Z, empty strings as NULL', () => {
    const ts = parseTypeName('TIMESTAMP');
    expect(parsePartitionValue('2026-01-01 10:20:30.5', ts, 'c', 't')).toBe(
      atMicros('10:20:30') + 500000,
    );
    expect(parsePartitionValue('2026-01-01 10:20:30', ts, 'c', 't')).toBe(atMicros('10:20:30'));
    expect(parsePartitionValue('', parseTypeName('INT'), 'c', 't')).toBeNull();
    expect(formatPartitionValue('', parseTypeName('STRING'))).toBeNull();
  });

  it('fail naming table, column and value when the text is not of the column type', () => {
    expect(() => parsePartitionValue('1.5', parseTypeName('INT'), 'n', 'tbl')).toThrow(
      DeltaTableError,
    );
    expect(() => parsePartitionValue('yes', parseTypeName('BOOLEAN'), 'flag', 'tbl')).toThrow(
      /Delta table tbl: partition value "yes" of column 'flag' is not a boolean/,
    );
  });

  it('name directories as Hive does: special characters as %XX, NULL as the default partition', () => {
    expect(partitionDirectory('category', 'books')).toBe('category=books');
    expect(partitionDirectory('category', 'a=b/c%d:e')).toBe('category=a%3Db%2Fc%25d%3Ae');
    expect(partitionDirectory('category', 'music & film')).toBe('category=music & film');
    expect(partitionDirectory('category', null)).toBe('category=__HIVE_DEFAULT_PARTITION__');
    expect(partitionDirectory('day', '2026-01-01T10:20:30.000000Z')).toBe(
      'day=2026-01-01T10%3A20%3A30.000000Z',
    );
  });
});
