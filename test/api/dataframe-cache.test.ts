import { describe, expect, it } from 'vitest';
import { col, SluiceSession, udf } from '../../core/index.js';

const session = new SluiceSession();

/** A DataFrame whose rows count how often they are computed. */
function counted() {
  const calls = { n: 0 };
  const tick = udf((id: number | null) => {
    calls.n++;
    return id === null ? null : id * 10;
  }, 'int');
  const df = session
    .createDataFrame([{ id: 1 }, { id: 2 }, { id: null }], 'id INT')
    .select(col('id'), tick(col('id')).alias('x'));
  return { df, calls };
}

describe('cache, persist and unpersist', () => {
  it('an uncached DataFrame computes its rows on every action', async () => {
    const { df, calls } = counted();
    await df.collect();
    await df.count();
    expect(calls.n).toBe(6);
  });

  it('cache computes the rows on the first action only, and DataFrames built on it reuse them', async () => {
    const { df, calls } = counted();
    const cached = df.cache();
    expect(calls.n).toBe(0); // lazy, as in Spark
    const rows = await cached.collect();
    expect(rows).toEqual([
      { id: 1, x: 10 },
      { id: 2, x: 20 },
      { id: null, x: null },
    ]);
    expect(await cached.filter(col('id').gt(1)).collect()).toEqual([{ id: 2, x: 20 }]);
    expect(await cached.count()).toBe(3);
    expect(calls.n).toBe(3);
    expect(cached.cache()).toBe(cached);
    expect(cached.schema).toEqual(df.schema);
  });

  it('persist is cache; unpersist computes again', async () => {
    const { df, calls } = counted();
    const persisted = df.persist();
    await persisted.count();
    await persisted.count();
    expect(calls.n).toBe(3);
    await persisted.unpersist().count();
    expect(calls.n).toBe(6);
    await persisted.count(); // its rows were dropped: computed, and kept, once more
    await persisted.count();
    expect(calls.n).toBe(9);
  });

  it('a first action that fails caches nothing, and a stream is returned as it is', async () => {
    let fail = true;
    const flaky = udf((id: number) => {
      if (fail) throw new Error('not yet');
      return id;
    }, 'int');
    const cached = session
      .createDataFrame([{ id: 1 }], 'id INT')
      .select(flaky(col('id')).alias('id'))
      .cache();
    await expect(cached.collect()).rejects.toThrow(/not yet/);
    fail = false;
    expect(await cached.collect()).toEqual([{ id: 1 }]);
    const stream = session.readStream.memory(session.memoryStream('id INT'));
    expect(stream.cache()).toBe(stream);
  });
});
