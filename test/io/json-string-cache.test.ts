import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonStringCache } from '../../core/io/json-string-cache.js';
import { JsonTextCursor } from '../../core/io/json-text-cursor.js';

/** Few characters, so values repeat and share a slot without being equal. */
const fieldValue = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', 'é', '"', '\\'), maxLength: 5 }),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
);

/** Reads each of `values`, written as JSON, through one cache on the form `encode` gives. */
function throughCache(values: readonly string[], encode: (text: string) => string | Uint8Array) {
  const cache = new JsonStringCache();
  const cursor = new JsonTextCursor();
  return values.map((value) => {
    cursor.reset(encode(JSON.stringify(value)));
    cursor.readString();
    return cache.valueOf(cursor);
  });
}

describe("a JSON field's string cache", () => {
  it('gives each string exactly as JSON.parse does, repeats, collisions, escapes and non-ASCII included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(fieldValue, { maxLength: 60 }), (values) => {
        expect(throughCache(values, (text) => text)).toEqual(values);
        expect(throughCache(values, (text) => encoder.encode(text))).toEqual(values);
      }),
      { numRuns: 500 },
    );
  });
});
