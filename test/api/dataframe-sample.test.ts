import { describe, expect, it } from 'vitest';
import { InvalidOptionError, SluiceSession } from '../../core/index.js';

const session = new SluiceSession();
const ids = session.createDataFrame(
  Array.from({ length: 4000 }, (_, id) => ({ id })),
  'id INT',
);
const idsOf = async (df: typeof ids) => (await df.collect()).map((r) => r.id as number);

describe('sample', () => {
  it('keeps each row with probability fraction, the same rows for the same seed', async () => {
    const first = await idsOf(ids.sample(0.3, 7));
    expect(await idsOf(ids.sample(0.3, 7))).toEqual(first);
    expect(await idsOf(ids.sample(0.3, 8))).not.toEqual(first);
    // 4000 draws at 0.3: the count is within 5 standard deviations (~145) of 1200
    expect(Math.abs(first.length - 1200)).toBeLessThan(145);
    expect(new Set(first).size).toBe(first.length);
  });

  it('without a seed draws one and keeps it, so the DataFrame samples alike each run', async () => {
    const sampled = ids.sample(0.5);
    expect(await idsOf(sampled)).toEqual(await idsOf(sampled));
  });

  it('fraction 0 keeps nothing and 1 everything', async () => {
    expect(await ids.sample(0, 1).count()).toBe(0);
    expect(await ids.sample(1, 1).count()).toBe(4000);
  });

  it('with replacement repeats rows a Poisson(fraction) number of times', async () => {
    const rows = await idsOf(ids.sample(true, 2, 3));
    expect(await idsOf(ids.sample(true, 2, 3))).toEqual(rows);
    expect(Math.abs(rows.length - 8000)).toBeLessThan(5 * Math.sqrt(8000));
    expect(new Set(rows).size).toBeLessThan(rows.length);
    expect(ids.sample(true, 2, 3).columns).toEqual(['id']);
  });

  it('refuses a fraction out of range and a seed that is not a whole number', () => {
    expect(() => ids.sample(1.5)).toThrow(InvalidOptionError);
    expect(() => ids.sample(1.5)).toThrow(
      /fraction must be a number in \[0, 1\] without replacement, not 1.5/,
    );
    expect(() => ids.sample(true, -1)).toThrow(/at least 0 with replacement, not -1/);
    expect(() => ids.sample(Number.NaN)).toThrow(InvalidOptionError);
    expect(() => ids.sample(0.5, 1.5)).toThrow(/the seed must be a whole number, not 1.5/);
  });

  it('samples each batch of a stream, as Spark allows', async () => {
    const stream = session.memoryStream('id INT', 'sampled_in');
    const query = await session.readStream
      .memory(stream)
      .sample(0.5, 11)
      .writeStream.format('memory')
      .queryName('sampled')
      .start();
    stream.addData(Array.from({ length: 200 }, (_, id) => ({ id })));
    await query.processAllAvailable();
    await query.stop();
    const kept = (await session.table('sampled').collect()).map((r) => r.id);
    const expected = await idsOf(
      session
        .createDataFrame(
          Array.from({ length: 200 }, (_, id) => ({ id })),
          'id INT',
        )
        .sample(0.5, 11),
    );
    expect(kept).toEqual(expected);
    expect(kept.length).toBeGreaterThan(0);
  });
});
