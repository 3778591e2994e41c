import { describe, expect, it } from 'vitest';
import { col, count, SluiceSession, Timestamp, window, window_time } from '../../core/index.js';
import { AnalysisError } from '../../core/errors.js';

const session = new SluiceSession();
const sec = (n: number) => n * 1_000_000;

describe('window_time', () => {
  it("is the window's end minus one microsecond", async () => {
    const windows = session
      .createDataFrame([{ ts: new Date(12_000) }, { ts: new Date(3_000) }], 'ts TIMESTAMP')
      .select(window(col('ts'), '10 seconds').alias('w'))
      .select(window_time('w').alias('t'));
    const times = (await windows.collect()).map((r) => r.t as Timestamp);
    expect(times.map((t) => t.epochMicros)).toEqual([BigInt(sec(20) - 1), BigInt(sec(10) - 1)]);
    expect(times.map((t) => t.toISOStringMicros())).toEqual([
      '1970-01-01T00:00:19.999999Z',
      '1970-01-01T00:00:09.999999Z',
    ]);
  });

  it("keeps the window's watermark, so that windowing by it gives an event-time key", () => {
    const counts = session.readStream
      .memory(session.memoryStream('ts TIMESTAMP'))
      .withWatermark('ts', '5 seconds')
      .groupBy(window(col('ts'), '10 seconds'))
      .agg(count().alias('n'))
      .select(window_time('window').alias('t'), col('n'));
    expect(counts.schema.fields[0].metadata?.eventTimeDelayMicros).toBe(sec(5));
    expect(counts.schema.fields[1].metadata?.eventTimeDelayMicros).toBeUndefined();
  });

  it('refuses a column that is not a window, naming its type', () => {
    const df = session.createDataFrame([{ ts: new Date(1_000) }], 'ts TIMESTAMP');
    expect(() => df.select(window_time('ts'))).toThrow(AnalysisError);
    expect(() => df.select(window_time('ts'))).toThrow(
      /window_time needs a window column .* got timestamp/,
    );
  });
});
