import { describe, expect, it } from 'vitest';
import { batchToRows } from '../../core/columnar/column-batch.js';
import type { Offset, Source } from '../../core/sources/source.js';
import { MemoryStream } from '../../core/sources/memory-stream.js';
import { readSourceBatch } from '../../core/streaming/source-batch.js';
import { parseSchema } from '../../core/types/type-names.js';

const schema = parseSchema('id INT');

/** A source of rows only (no column batches) that fails if asked for a range. */
function rowSourceThatMustNotBeRead(): Source {
  const stream = new MemoryStream(schema, 'rows-only');
  return {
    schema,
    description: stream.description,
    latestOffset: (start: Offset | undefined) => stream.latestOffset(start),
    getBatch: () => Promise.reject(new Error('read a range that is empty')),
  } as unknown as Source;
}

describe('readSourceBatch', () => {
  it('reads nothing from a source an intent records as never having had data (null to null)', async () => {
    const batch = await readSourceBatch(rowSourceThatMustNotBeRead(), null, null, schema);
    expect(batch.numRows).toBe(0);
  });

  it('reads nothing when the range is empty', async () => {
    const batch = await readSourceBatch(rowSourceThatMustNotBeRead(), 3, 3, schema);
    expect(batch.numRows).toBe(0);
  });

  it('reads (start, end] of a column source as the relation schema', async () => {
    const stream = new MemoryStream(schema);
    stream.addData([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const batch = await readSourceBatch(stream, 1, 3, schema);
    expect(batch.schema).toBe(schema);
    expect(batchToRows(batch).map((r) => r[0])).toEqual([2, 3]);
  });

  it('reads from the beginning when the start is null', async () => {
    const stream = new MemoryStream(schema);
    stream.addData([{ id: 7 }]);
    expect((await readSourceBatch(stream, null, 1, schema)).numRows).toBe(1);
  });
});
