import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysFromCivil, daysInMonth } from '../../core/types/calendar.js';
import { scanIsoTimestamp } from '../../core/types/iso-timestamp.js';
import {
  parseTimestamp,
  parseTimestampPattern,
  parseTimestampSlice,
} from '../../core/types/timestamp-text.js';

/** The parts of a timestamp written in one of the common forms. */
interface Written {
  readonly text: string;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly fraction: string;
  readonly zoneMinutes: number;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Valid timestamps of every common form: date only, minutes, seconds, fractions of 1-9 digits, each zone form. */
const commonForm: fc.Arbitrary<Written> = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    dayIndex: fc.nat(),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.stringMatching(/^[0-9]{1,9}$/),
    precision: fc.constantFrom('date', 'minutes', 'seconds', 'fraction'),
    separator: fc.constantFrom('T', 't', ' '),
    zone: fc.constantFrom('none', 'Z', 'z', 'colon', 'compact'),
    zoneHours: fc.integer({ min: 0, max: 99 }),
    zoneMins: fc.integer({ min: 0, max: 99 }),
    zoneSign: fc.constantFrom('+', '-'),
  })
  .map((p) => {
    const day = (p.dayIndex % daysInMonth(p.year, p.month)) + 1;
    let text = `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(day, 2)}`;
    const timed = p.precision !== 'date';
    if (timed) text += `${p.separator}${pad(p.hour, 2)}:${pad(p.minute, 2)}`;
    const seconds = p.precision === 'seconds' || p.precision === 'fraction';
    if (seconds) text += `:${pad(p.second, 2)}`;
    const fraction = p.precision === 'fraction' ? p.fraction : '';
    if (fraction !== '') text += `.${fraction}`;
    const hh = pad(p.zoneHours, 2);
    const mm = pad(p.zoneMins, 2);
    const zoneText = {
      none: '',
      Z: 'Z',
      z: 'z',
      colon: `${p.zoneSign}${hh}:${mm}`,
      compact: `${p.zoneSign}${hh}${mm}`,
    }[p.zone];
    const offset = p.zoneHours * 60 + p.zoneMins;
    const zoneMinutes =
      p.zone === 'colon' || p.zone === 'compact' ? (p.zoneSign === '-' ? -offset : offset) : 0;
    return {
      text: text + zoneText,
      year: p.year,
      month: p.month,
      day,
      hour: timed ? p.hour : 0,
      minute: timed ? p.minute : 0,
      second: seconds ? p.second : 0,
      fraction,
      zoneMinutes,
    };
  });

/** The instant the parts name, computed from Date.UTC (years 100 and later, where Date.UTC reads the year as written). */
function oracle(w: Written): number {
  const millis = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const micros = Number(w.fraction.padEnd(6, '0').slice(0, 6));
  return millis * 1000 + micros - w.zoneMinutes * 60_000_000;
}

/** Text that is nearly a timestamp: a common form with a field out of range, a digit lost, a character changed or added. */
const nearMiss: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(commonForm, fc.nat(), fc.constantFrom('13', '00', '99'))
    .map(([w, , month]) => w.text.slice(0, 5) + month + w.text.slice(7)),
  fc
    .tuple(commonForm, fc.constantFrom('00', '30', '31', '32', '29'))
    .map(([w, day]) => `${w.text.slice(0, 5)}02-${day}${w.text.slice(10)}`),
  commonForm
    .filter((w) => w.text.length > 10)
    .map((w) => `${w.text.slice(0, 11)}24${w.text.slice(13)}`),
  commonForm
    .filter((w) => w.text.length > 13)
    .map((w) => `${w.text.slice(0, 14)}60${w.text.slice(16)}`),
  commonForm
    .filter((w) => w.text.length > 16)
    .map((w) => `${w.text.slice(0, 17)}60${w.text.slice(19)}`),
  fc.tuple(commonForm, fc.nat()).map(([w, at]) => {
    const i = at % w.text.length;
    return w.text.slice(0, i) + w.text.slice(i + 1);
  }),
  fc
    .tuple(commonForm, fc.nat(), fc.constantFrom(...'0123456789-:.+ TZxé\u00a0\t'.split('')))
    .map(([w, at, c]) => {
      const i = at % (w.text.length + 1);
      return w.text.slice(0, i) + c + w.text.slice(i);
    }),
  fc
    .tuple(commonForm, fc.nat(), fc.constantFrom(...'0123456789-:.+ TZxé'.split('')))
    .map(([w, at, c]) => {
      const i = at % w.text.length;
      return w.text.slice(0, i) + c + w.text.slice(i + 1);
    }),
  fc
    .tuple(commonForm, fc.constantFrom(' ', 'Z', 'x', '0', '.', '\n'))
    .map(([w, tail]) => w.text + tail),
  fc.tuple(commonForm, fc.constantFrom(' ', '\t', '\u00a0', '+')).map(([w, head]) => head + w.text),
  fc.string({ maxLength: 30 }),
);

/** The three ways to ask: the whole string, a slice of a longer string, a slice of its UTF-8 bytes. */
function everyEntry(text: string): (number | null)[] {
  const padded = `"${text}",`;
  const bytes = new TextEncoder().encode(padded);
  const end = bytes.length - 2;
  return [
    parseTimestamp(text),
    parseTimestampSlice(padded, 1, padded.length - 2),
    parseTimestampSlice(bytes, 1, end),
  ];
}

describe('the common ISO 8601 forms, read by digit arithmetic', () => {
  it('read every valid timestamp of a common form as the instant it names', () => {
    fc.assert(
      fc.property(
        commonForm.filter((w) => w.year >= 100),
        (w) => {
          expect(scanIsoTimestamp(w.text, 0, w.text.length)).toBe(oracle(w));
          expect(everyEntry(w.text)).toEqual([oracle(w), oracle(w), oracle(w)]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('equal the general pattern on every valid timestamp, years 0-99 included', () => {
    fc.assert(
      fc.property(commonForm, (w) => {
        const expected = parseTimestampPattern(w.text);
        expect(expected).not.toBeNull();
        expect(everyEntry(w.text)).toEqual([expected, expected, expected]);
      }),
      { numRuns: 2000 },
    );
  });

  it('equal the general pattern on near-miss text: fields out of range, digits missing, garbage around', () => {
    fc.assert(
      fc.property(nearMiss, (text) => {
        const expected = parseTimestampPattern(text);
        expect(everyEntry(text)).toEqual([expected, expected, expected]);
      }),
      { numRuns: 5000 },
    );
  });

  it('read the instants toISOString writes, with and without milliseconds, and near misses of them, as the general pattern does', () => {
    const instant = fc
      .tuple(
        fc.integer({
          min: Date.UTC(0, 0, 1) - 1900 * 365 * 86_400_000,
          max: Date.UTC(9999, 11, 31),
        }),
        fc.boolean(),
      )
      .map(([ms, withMillis]) => {
        const text = new Date(ms).toISOString();
        return withMillis ? text : `${text.slice(0, 19)}Z`;
      })
      .filter((text) => text.length === 20 || text.length === 24);
    const changed = fc
      .tuple(instant, fc.nat(), fc.constantFrom(...'09-:.TZtz /\u00e9'.split('')))
      .map(([text, at, c]) => {
        const i = at % text.length;
        return text.slice(0, i) + c + text.slice(i + 1);
      });
    fc.assert(
      fc.property(fc.oneof(instant, changed), (text) => {
        const expected = parseTimestampPattern(text);
        expect(everyEntry(text)).toEqual([expected, expected, expected]);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['2026-12-01T10:15:30Z', Date.UTC(2026, 11, 1, 10, 15, 30) * 1000],
    ['2026-12-01T10:15:30.123456789Z', Date.UTC(2026, 11, 1, 10, 15, 30) * 1000 + 123456],
    ['2026-12-01T10:15:30.5+01:00', Date.UTC(2026, 11, 1, 9, 15, 30, 500) * 1000],
    ['2026-12-01 10:15-0530', Date.UTC(2026, 11, 1, 15, 45) * 1000],
    ['2026-12-01', Date.UTC(2026, 11, 1) * 1000],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29) * 1000],
    ['0000-02-29', daysFromCivil(0, 2, 29) * 86_400_000_000],
    ['0050-06-01T00:00:00Z', daysFromCivil(50, 6, 1) * 86_400_000_000],
  ])('reads %s in place', (text, micros) => {
    expect(scanIsoTimestamp(text, 0, text.length)).toBe(micros);
    expect(parseTimestamp(text)).toBe(micros);
  });

  it.each([
    ['2026-13-01T00:00:00Z', null],
    ['2026-02-30', null],
    ['2026-01-01T24:00:00Z', null],
    ['2026-1-01', undefined],
    ['2026-01-01T10:15:30.Z', undefined],
    ['2026-01-01T10:15:30.1234567890Z', undefined],
    ['2026-01-01T10:15:30Zx', undefined],
    [' 2026-01-01', undefined],
    ['20260-01-01', undefined],
  ])(
    'the fast path gives %s as %s: null for a day or time that does not exist, undefined for the pattern to decide',
    (text, fast) => {
      expect(scanIsoTimestamp(text, 0, text.length)).toBe(fast);
    },
  );

  it('reads years beyond four digits through the pattern, and refuses those Date cannot show', () => {
    expect(parseTimestamp('10000-01-01')).toBe(daysFromCivil(10000, 1, 1) * 86_400_000_000);
    expect(parseTimestamp('300000-01-01')).toBeNull();
  });
});
