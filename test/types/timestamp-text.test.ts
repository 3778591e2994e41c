import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../core/types/timestamp-text.js';

/** Milliseconds from 1000-01-01 to 9999-12-31, the years an ISO instant writes with four digits. */
const instantMillis = fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) });

describe('parseTimestamp of ISO instants', () => {
  it('reads toISOString text, with and without milliseconds, as Date.parse does', () => {
    fc.assert(
      fc.property(instantMillis, (millis) => {
        const iso = new Date(millis).toISOString();
        expect(parseTimestamp(iso)).toBe(millis * 1000);
        const seconds = `${iso.slice(0, 19)}Z`;
        expect(parseTimestamp(seconds)).toBe(Math.floor(millis / 1000) * 1_000_000);
      }),
    );
  });

  it('agrees with the general pattern, which reads the same instant written with a space', () => {
    fc.assert(
      fc.property(instantMillis, (millis) => {
        const iso = new Date(millis).toISOString();
        expect(parseTimestamp(iso)).toBe(parseTimestamp(iso.replace('T', ' ')));
      }),
    );
  });

  it('refuses dates and times that do not exist', () => {
    expect(parseTimestamp('2026-02-29T00:00:00.000Z')).toBeNull();
    expect(parseTimestamp('2024-02-29T00:00:00.000Z')).toBe(Date.UTC(2024, 1, 29) * 1000);
    expect(parseTimestamp('2026-04-31T00:00:00Z')).toBeNull();
    expect(parseTimestamp('2026-13-01T00:00:00Z')).toBeNull();
    expect(parseTimestamp('2026-00-01T00:00:00Z')).toBeNull();
    expect(parseTimestamp('2026-01-00T00:00:00Z')).toBeNull();
    expect(parseTimestamp('2026-01-01T24:00:00Z')).toBeNull();
    expect(parseTimestamp('2026-01-01T23:60:00Z')).toBeNull();
    expect(parseTimestamp('2026-01-01T23:59:60Z')).toBeNull();
  });

  it('leaves other forms to the general pattern', () => {
    expect(parseTimestamp('2026-01-0xT00:00:00.000Z')).toBeNull();
    expect(parseTimestamp('2026-01-01t10:00:00z')).toBe(Date.UTC(2026, 0, 1, 10) * 1000);
    expect(parseTimestamp('2026-01-01T10:00:00.123456Z')).toBe(
      Date.UTC(2026, 0, 1, 10) * 1000 + 123456,
    );
    expect(parseTimestamp('2026-01-01T10:00:00+01:00')).toBe(Date.UTC(2026, 0, 1, 9) * 1000);
  });
});
