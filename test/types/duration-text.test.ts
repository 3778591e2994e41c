import { describe, expect, it } from 'vitest';
import { durationText } from '../../core/types/duration-text.js';

describe('a duration as text', () => {
  it.each([
    [600_000_000, '10 minutes'],
    [5_400_000_000, '1 hour 30 minutes'],
    [86_400_000_000 + 1_000, '1 day 1 millisecond'],
    [1_000_000, '1 second'],
    [7, '7 microseconds'],
    [-120_000_000, '-2 minutes'],
    [0, '0 seconds'],
  ])('%d µs is %s', (micros, text) => {
    expect(durationText(micros)).toBe(text);
  });
});
