/**
 * Timestamps and dates as user code sees and gives them: a Timestamp (a Date carrying its
 * microseconds) and a Date at UTC midnight, the same in every place rows cross the API.
 */
import { describe, expect, it } from 'vitest';
import {
  col,
  lit,
  MemorySink,
  type RowObject,
  SluiceSession,
  Timestamp,
  udf,
} from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const SCHEMA = 'ts TIMESTAMP, day DATE, stamps ARRAY<TIMESTAMP>, w STRUCT<start: TIMESTAMP>';
const TS = Timestamp.fromEpochMicros(1_767_261_600_123_456); // 2026-01-01 10:00:00.123456
const DAY = new Date('2026-01-01T00:00:00Z');
const ROW: RowObject = { ts: TS, day: DAY, stamps: [TS, null], w: { start: TS } };

/** Checks that `row` holds ROW's values as user code sees them, microseconds included. */
function expectUserValues(row: RowObject): void {
  expect(row.ts).toBeInstanceOf(Timestamp);
  expect((row.ts as Timestamp).epochMicros).toBe(1_767_261_600_123_456n);
  expect(row.day).toBeInstanceOf(Date);
  expect((row.day as Date).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  expect(((row.stamps as Timestamp[])[0] as Timestamp).toISOStringMicros()).toBe(
    '2026-01-01T10:00:00.123456Z',
  );
  expect(((row.w as RowObject).start as Timestamp).getMicroseconds()).toBe(456);
  expect(row).toEqual(ROW);
}

describe('timestamps and dates in rows user code sees', () => {
  it('collect() and take() give Timestamps and Dates, nested ones too', async () => {
    const df = new SluiceSession().createDataFrame([ROW], SCHEMA);
    expectUserValues((await df.collect())[0]);
    expectUserValues((await df.take(1))[0]);
  });

  it('a date given at any hour is its UTC day, and comes back at midnight', async () => {
    const df = new SluiceSession().createDataFrame(
      [{ day: new Date('2026-01-01T23:59:59.999Z') }],
      'day DATE',
    );
    expect(await df.collect()).toEqual([{ day: DAY }]);
  });

  it('lit(Timestamp) keeps its microseconds', async () => {
    const df = new SluiceSession().createDataFrame([{ n: 1 }], 'n INT');
    const [row] = await df.select(lit(TS).alias('t')).collect();
    expect((row.t as Timestamp).epochMicros).toBe(TS.epochMicros);
  });

  it('a UDF takes Timestamps and Dates and may return them', async () => {
    const df = new SluiceSession().createDataFrame([ROW], SCHEMA);
    const seen: unknown[] = [];
    const nextMicro = udf((t: unknown, d: unknown) => {
      seen.push(t, d);
      return Timestamp.fromEpochMicros((t as Timestamp).epochMicros + 1n);
    }, 'timestamp');
    const [row] = await df.select(nextMicro(col('ts'), col('day')).alias('next')).collect();
    expect(seen).toEqual([TS, DAY]);
    expect(seen[0]).toBeInstanceOf(Timestamp);
    expect((row.next as Timestamp).epochMicros).toBe(1_767_261_600_123_457n);
  });

  it('a UDF returning a number for a timestamp fails naming the UDF', async () => {
    const df = new SluiceSession().createDataFrame([ROW], SCHEMA);
    const micros = udf(() => 5, 'timestamp');
    await expect(df.select(micros().alias('m')).collect()).rejects.toThrow(
      /User-defined function '.*' returned 5, which is not its return type timestamp/,
    );
  });

  it("foreachBatch's DataFrame and a memory sink give Timestamps and Dates", async () => {
    const session = new SluiceSession();
    const input = session.memoryStream(SCHEMA);
    const batches: RowObject[] = [];
    const viaBatch = await session.readStream
      .memory(input)
      .writeStream.foreachBatch(async (batch) => {
        batches.push(...(await batch.collect()));
      })
      .option('checkpointLocation', tempDir())
      .start();
    const sink = new MemorySink(session.readStream.memory(input).schema);
    const viaSink = await session.readStream
      .memory(input)
      .writeStream.sink(sink)
      .option('checkpointLocation', tempDir())
      .start();
    input.addData([ROW]);
    await viaBatch.processAllAvailable();
    await viaSink.processAllAvailable();
    await viaBatch.stop();
    await viaSink.stop();
    expect(batches).toHaveLength(1);
    expectUserValues(batches[0]);
    expect(sink.rows()).toHaveLength(1);
    expectUserValues(sink.rows()[0]);
  });
});
