import { snappyUncompress } from 'hyparquet';
import { snappyCompress as referenceCompress } from 'hyparquet-writer/src/snappy.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snappyCompress } from '../../core/io/snappy-compress.js';

/**
 * Compresses, decompresses with hyparquet's decoder (which Sluice reads SNAPPY pages with), and
 * returns the first index where the result differs from `input`, -1 when none does. (Comparing
 * arrays of 100,000s of bytes with toEqual takes seconds.)
 */
function roundTripDifference(input: Uint8Array): number {
  const output = new Uint8Array(input.length);
  snappyUncompress(snappyCompress(input), output);
  for (let i = 0; i < input.length; i++) if (output[i] !== input[i]) return i;
  return -1;
}

const text = (s: string) => new TextEncoder().encode(s);

/** Deterministic bytes with no repeats worth a copy. */
function noise(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = 12345;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

describe('snappyCompress', () => {
  it('round-trips inputs around every boundary: empty, below the 15-byte margin, around the 64 KiB copy reach', () => {
    for (const length of [0, 1, 14, 15, 16, 65_535, 65_536, 65_537, 200_000]) {
      const input = text('abcd'.repeat(Math.ceil(length / 4))).subarray(0, length);
      expect(roundTripDifference(input)).toBe(-1);
      const random = noise(length);
      expect(roundTripDifference(random)).toBe(-1);
    }
  });

  it('emits long runs as copies, so repetitive pages shrink', () => {
    const input = text(`${'x'.repeat(1000)}${'the same words again, '.repeat(500)}`);
    const compressed = snappyCompress(input);
    expect(compressed.length).toBeLessThan(input.length / 20);
    expect(roundTripDifference(input)).toBe(-1);
  });

  it('compresses as well as the snappyjs port shipped with hyparquet-writer, within 1%', () => {
    const input = text(
      Array.from({ length: 20_000 }, (_, i) => `u${(i * 7919) % 5000},/p/${i % 300};`).join(''),
    );
    expect(snappyCompress(input).length).toBeLessThanOrEqual(
      referenceCompress(input).length * 1.01,
    );
  });

  it('keeps incompressible input within the worst-case bound of the format', () => {
    const input = noise(100_000);
    expect(snappyCompress(input).length).toBeLessThanOrEqual(32 + input.length + input.length / 6);
  });

  it('round-trips any bytes, with repeats at any distance', () => {
    const chunks = fc.array(
      fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(text('repeat me '), noise(70))),
      { maxLength: 400 },
    );
    fc.assert(
      fc.property(chunks, (parts) => {
        const input = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let offset = 0;
        for (const p of parts) {
          input.set(p, offset);
          offset += p.length;
        }
        expect(roundTripDifference(input)).toBe(-1);
      }),
      { numRuns: 200 },
    );
  });
});
