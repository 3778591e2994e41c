import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, Timestamp } from '../../core/index.js';

/** Microseconds over Spark's range of timestamps, 0001-01-01 to 9999-12-31, as bigints. */
const sparkRangeMicros = fc.bigInt({
  min: BigInt(Date.UTC(1, 0, 1)) * 1000n,
  max: BigInt(Date.UTC(9999, 11, 31, 23, 59, 59, 999)) * 1000n + 999n,
});

describe('Timestamp, the value user code sees for a timestamp', () => {
  it('is a Date of its whole milliseconds, with the microseconds after them kept', () => {
    const t = Timestamp.fromEpochMicros(1_767_261_600_123_456);
    expect(t).toBeInstanceOf(Date);
    expect(t.getTime()).toBe(1_767_261_600_123);
    expect(t.getMilliseconds()).toBe(123);
    expect(t.getMicroseconds()).toBe(456);
    expect(t.epochMicros).toBe(1_767_261_600_123_456n);
    expect(t.toISOString()).toBe('2026-01-01T10:00:00.123Z');
    expect(t.toISOStringMicros()).toBe('2026-01-01T10:00:00.123456Z');
    expect(JSON.stringify({ t })).toBe('{"t":"2026-01-01T10:00:00.123Z"}');
  });

  it('splits microseconds before the epoch into a millisecond below and the µs after it', () => {
    const t = Timestamp.fromEpochMicros(-1);
    expect(t.getTime()).toBe(-1);
    expect(t.getMicroseconds()).toBe(999);
    expect(t.epochMicros).toBe(-1n);
    expect(t.toISOStringMicros()).toBe('1969-12-31T23:59:59.999999Z');
  });

  it('holds every microsecond of years 0001 to 9999 exactly, given as a bigint', () => {
    fc.assert(
      fc.property(sparkRangeMicros, (micros) => {
        expect(Timestamp.fromEpochMicros(micros).epochMicros).toBe(micros);
      }),
    );
  });

  it('compares and subtracts by value to the microsecond, as test matchers do', () => {
    const [a, b] = [Timestamp.fromEpochMicros(1_000_001), Timestamp.fromEpochMicros(1_000_002)];
    expect(a < b).toBe(true);
    expect(+b - +a).toBeCloseTo(0.001, 9);
    expect(a).not.toEqual(b);
    expect(a).toEqual(Timestamp.fromEpochMicros(1_000_001));
    expect(Timestamp.fromEpochMicros(5_000)).toEqual(new Date(5));
  });

  it('drops its microseconds when setTime gives it a new instant', () => {
    const t = Timestamp.fromEpochMicros(1_001);
    t.setTime(7);
    expect(t.epochMicros).toBe(7_000n);
  });

  it('refuses parts that are not whole, or microseconds beyond a millisecond', () => {
    expect(() => new Timestamp(1.5)).toThrow(InvalidOptionError);
    expect(() => new Timestamp(0, 1000)).toThrow(/microsOfMilli 1000 is not a whole number/);
    expect(() => Timestamp.fromEpochMicros(0.5)).toThrow(/0.5 is not a whole number/);
  });
});
