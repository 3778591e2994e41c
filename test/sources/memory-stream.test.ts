import { describe, expect, it } from 'vitest';
import { batchToRows } from '../../core/columnar/column-batch.js';
import { InvalidOptionError } from '../../core/errors.js';
import { MemoryStream } from '../../core/sources/memory-stream.js';
import type { RowObject } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';

const schema = parseSchema('id INT, name STRING');

describe('MemoryStream', () => {
  it('has no offset before any data is added', async () => {
    const stream = new MemoryStream(schema);
    expect(await stream.latestOffset(undefined)).toBeUndefined();
  });

  it('uses the number of rows added so far as its offset', async () => {
    const stream = new MemoryStream(schema);
    expect(
      stream.addData([
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ]),
    ).toBe(2);
    expect(await stream.latestOffset(undefined)).toBe(2);
    expect(stream.addData([{ id: 3, name: 'c' }])).toBe(3);
    expect(await stream.latestOffset(2)).toBe(3);
  });

  it('returns the start offset when nothing was added since', async () => {
    const stream = new MemoryStream(schema);
    stream.addData([{ id: 1, name: 'a' }]);
    expect(await stream.latestOffset(1)).toBe(1);
  });

  it('reads the rows between two offsets as engine rows in schema order, missing fields as null', async () => {
    const stream = new MemoryStream(schema);
    stream.addData([{ name: 'a', id: 1 }, { id: 2 }]);
    stream.addData([{ id: 3, name: 'c' }]);
    expect(await stream.getBatch(undefined, 2)).toEqual([
      [1, 'a'],
      [2, null],
    ]);
    expect(await stream.getBatch(2, 3)).toEqual([[3, 'c']]);
  });

  it('reads a range that spans several addData calls', async () => {
    const stream = new MemoryStream(schema);
    stream.addData([{ id: 1 }, { id: 2 }]);
    stream.addData([]);
    stream.addData([{ id: 3 }]);
    stream.addData([{ id: 4 }, { id: 5 }]);
    const ids = async (start: number | undefined, end: number) =>
      (await stream.getBatch(start, end)).map((row) => row[0]);
    expect(await ids(1, 4)).toEqual([2, 3, 4]);
    expect(await ids(undefined, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(await ids(2, 3)).toEqual([3]);
    expect(await ids(3, 3)).toEqual([]);
  });

  it('hands a range over as one column batch holding the same rows as getBatch', async () => {
    const stream = new MemoryStream(schema);
    stream.addData([{ id: 1, name: 'a' }, { id: 2 }]);
    stream.addData([{ id: 3, name: 'c' }]);
    stream.addData([{ id: 4, name: 'd' }]);
    const batch = await stream.getColumnBatch(1, 4);
    expect(batch.numRows).toBe(3);
    expect(batch.columns.map((c) => c.length)).toEqual([3, 3]);
    expect(batchToRows(batch)).toEqual(await stream.getBatch(1, 4));
    expect(batchToRows(batch)).toEqual([
      [2, null],
      [3, 'c'],
      [4, 'd'],
    ]);
    expect((await stream.getColumnBatch(2, 2)).numRows).toBe(0);
  });

  it('replays the same rows for the same offsets, however much was added later', async () => {
    const stream = new MemoryStream(schema);
    stream.addData([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    const first = await stream.getBatch(1, 2);
    stream.addData([{ id: 3, name: 'c' }]);
    expect(await stream.getBatch(1, 2)).toEqual(first);
  });

  it('refuses a row that is not an object, naming its position and the stream, and adds none of the call', async () => {
    const stream = new MemoryStream(schema, 'clicks');
    stream.addData([{ id: 1, name: 'a' }]);
    expect(() => stream.addData([{ id: 2 }, [3, 'c'] as unknown as RowObject])).toThrow(
      InvalidOptionError,
    );
    expect(() => stream.addData([null as unknown as RowObject])).toThrow(
      /MemoryStream\[clicks\]\.addData: row 0/,
    );
    expect(await stream.latestOffset(undefined)).toBe(1);
  });

  it('refuses a value of the wrong type, naming the row and the column, and adds none of the call', async () => {
    const stream = new MemoryStream(schema, 'clicks');
    expect(() =>
      stream.addData([
        { id: 1, name: 'a' },
        { id: '2', name: 'b' },
      ]),
    ).toThrow(
      /MemoryStream\[clicks\]\.addData: row 1, column 'id' expects an integer .* the string "2"/,
    );
    expect(await stream.latestOffset(undefined)).toBeUndefined();
  });

  it('takes a Date for a timestamp column, as microseconds since the epoch', async () => {
    const stream = new MemoryStream(parseSchema('ts TIMESTAMP'));
    stream.addData([{ ts: new Date(Date.UTC(2026, 0, 1, 10)) }]);
    expect(await stream.getBatch(undefined, 1)).toEqual([[Date.UTC(2026, 0, 1, 10) * 1000]]);
  });
});
