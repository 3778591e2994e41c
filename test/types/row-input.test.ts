import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import { rowInputConverter } from '../../core/types/row-input.js';
import { parseSchema } from '../../core/types/type-names.js';
import { Timestamp } from '../../core/types/timestamp.js';

const convert = (ddl: string, rows: unknown[]) => {
  const row = rowInputConverter(parseSchema(ddl), 'createDataFrame');
  return rows.map(row);
};

/** The message of the error converting `rows` throws, which must be an InvalidOptionError. */
function refusal(ddl: string, rows: unknown[]): string {
  try {
    convert(ddl, rows);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidOptionError);
    return (e as Error).message;
  }
  throw new Error(`rows ${JSON.stringify(rows)} of ${ddl} were accepted`);
}

describe('rows from the program, checked against the schema', () => {
  it('keeps values of their column type as they are, and missing columns as null', () => {
    expect(
      convert('s STRING, b BOOLEAN, i INT, l BIGINT, d DOUBLE', [
        { s: 'x', b: true, i: -7, l: 2 ** 40, d: 0.5 },
        { s: null },
      ]),
    ).toEqual([
      ['x', true, -7, 2 ** 40, 0.5],
      [null, null, null, null, null],
    ]);
  });

  it('converts a Date to microseconds for a timestamp and to its UTC day for a date', () => {
    const when = new Date(Date.UTC(2026, 0, 2, 13, 45, 0, 123));
    expect(convert('ts TIMESTAMP, day DATE', [{ ts: when, day: when }])).toEqual([
      [when.getTime() * 1000, Math.floor(when.getTime() / 86_400_000)],
    ]);
    const midnights = [Date.UTC(2026, 0, 1), Date.UTC(2255, 11, 31), Date.UTC(1900, 0, 1)];
    for (const ms of midnights) {
      expect(convert('day DATE', [{ day: new Date(ms) }])).toEqual([[ms / 86_400_000]]);
    }
    expect(convert('day DATE', [{ day: new Date(Date.UTC(1969, 11, 31, 12)) }])).toEqual([[-1]]);
  });

  it('takes the microseconds a Timestamp carries, on either side of the epoch', () => {
    expect(
      convert('ts TIMESTAMP', [
        { ts: Timestamp.fromEpochMicros(1_767_225_600_123_456) },
        { ts: Timestamp.fromEpochMicros(-1) },
        { ts: new Timestamp(Date.UTC(1, 0, 1), 999) },
      ]),
    ).toEqual([[1_767_225_600_123_456], [-1], [Date.UTC(1, 0, 1) * 1000 + 999]]);
  });

  it('refuses a string timestamp, naming the row, the column, the type expected and the value', () => {
    const message = refusal('id INT, ts TIMESTAMP', [
      { id: 1, ts: new Date(5) },
      { id: 2, ts: '2026-01-01T00:00:00Z' },
    ]);
    expect(message).toMatch(
      /^createDataFrame: row 1, column 'ts' expects a timestamp \(a Date: .*\) but got the string "2026-01-01T00:00:00Z"/,
    );
  });

  it('refuses a number for a timestamp or a date, which could mean ms, µs or days, naming the column', () => {
    expect(refusal('id INT, ts TIMESTAMP', [{ id: 1, ts: 1_000_001 }])).toMatch(
      /^createDataFrame: row 0, column 'ts' expects a timestamp \(a Date: new Date\(ms\), or Timestamp.fromEpochMicros\(µs\) for microseconds\) but got the number 1000001/,
    );
    expect(refusal('day DATE', [{ day: 3 }])).toMatch(
      /^createDataFrame: row 0, column 'day' expects a date \(a Date, whose UTC day is taken: .*\) but got the number 3/,
    );
    expect(refusal('w STRUCT<start: TIMESTAMP>', [{ w: { start: 0 } }])).toMatch(
      /column 'w\.start' expects a timestamp/,
    );
  });

  it('refuses a string in a numeric column and numbers out of an integer type', () => {
    expect(refusal('a INT', [{ a: 'abc' }])).toMatch(
      /row 0, column 'a' expects an integer .* the string "abc"/,
    );
    expect(refusal('a INT', [{ a: 1.5 }])).toMatch(
      /column 'a' expects an integer .* the number 1.5/,
    );
    expect(refusal('a INT', [{ a: 2 ** 31 }])).toMatch(/column 'a' expects an integer/);
    expect(refusal('a BIGINT', [{ a: 2 ** 53 }])).toMatch(/column 'a' expects a bigint/);
    expect(refusal('a DOUBLE', [{ a: '1' }])).toMatch(/column 'a' expects a double/);
    expect(refusal('a STRING', [{ a: 1 }])).toMatch(
      /column 'a' expects a string but got the number 1/,
    );
    expect(refusal('a BOOLEAN', [{ a: 'true' }])).toMatch(/column 'a' expects a boolean/);
    expect(refusal('d DATE', [{ d: 1.5 }])).toMatch(/column 'd' expects a date/);
    expect(refusal('d DATE', [{ d: new Date('nonsense') }])).toMatch(/column 'd' expects a date/);
  });

  it('checks nested values, naming their path', () => {
    const ddl = 's STRUCT<x: INT, tags: ARRAY<STRING>>, m MAP<STRING, DOUBLE>';
    expect(convert(ddl, [{ s: { x: 1, tags: ['a'] }, m: { k: 2 } }])).toEqual([
      [[1, ['a']], new Map([['k', 2]])],
    ]);
    expect(refusal(ddl, [{ s: { x: 'one' } }])).toMatch(/column 's\.x' expects an integer/);
    expect(refusal(ddl, [{ s: { x: 1, tags: ['a', 2] } }])).toMatch(
      /column 's\.tags\[1\]' expects a string but got the number 2/,
    );
    expect(refusal(ddl, [{ m: new Map([['k', 'v']]) }])).toMatch(
      /column 'm\["k"\]' expects a double/,
    );
    expect(refusal(ddl, [{ s: 'x' }])).toMatch(
      /column 's' expects struct<x:integer,tags:array<string>>/,
    );
  });

  it('refuses null in a column declared NOT NULL', () => {
    expect(refusal('a INT NOT NULL', [{ a: 1 }, {}])).toMatch(
      /row 1, column 'a' expects a non-null integer but got undefined/,
    );
  });

  it('refuses a row that is not an object keyed by column name', () => {
    expect(refusal('a INT', [[1]])).toMatch(/row 0 is not an object keyed by column name/);
  });
});
