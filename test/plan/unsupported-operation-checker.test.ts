import { describe, expect, it } from 'vitest';
import type { DataFrame } from '../../core/api/dataframe.js';
import { SluiceSession, UnsupportedOperationError } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const session = new SluiceSession();
const schema = 'user INT, page STRING';
const stream = () => session.readStream.memory(session.memoryStream(schema));
const table = session.createDataFrame([{ user: 1, page: 'home' }], schema);
const start = (df: DataFrame) =>
  df.writeStream.format('memory').option('checkpointLocation', tempDir()).start();

describe('union in a streaming query', () => {
  it('refuses, at start, a union of a stream with a static DataFrame on either side', async () => {
    for (const df of [stream().union(table), table.union(stream())]) {
      const started = start(df);
      await expect(started).rejects.toThrow(UnsupportedOperationError);
      await expect(started).rejects.toThrow(
        /Union between streaming and batch DataFrames is not supported \(operator: union, mode: append\)/,
      );
    }
  });

  it('accepts a union of two streams and emits each row once', async () => {
    const a = session.memoryStream(schema);
    const b = session.memoryStream(schema);
    const query = await session.readStream
      .memory(a)
      .union(session.readStream.memory(b))
      .writeStream.format('memory')
      .queryName('union_of_streams')
      .option('checkpointLocation', tempDir())
      .start();
    a.addData([{ user: 1, page: 'home' }]);
    b.addData([{ user: 2, page: 'cart' }]);
    await query.processAllAvailable();
    a.addData([{ user: 3, page: 'pay' }]);
    await query.processAllAvailable();
    await query.stop();
    const rows = await session.table('union_of_streams').collect();
    expect(rows.map((r) => r.user).sort()).toEqual([1, 2, 3]);
  });
});
