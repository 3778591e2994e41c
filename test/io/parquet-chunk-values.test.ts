import { parquetMetadata } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { chunkValues, expectedDistinct } from '../../core/io/parquet-chunk-values.js';
import { writeParquet } from '../../core/io/parquet.js';
import { LongType, StringType, type DataType } from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';

/** Adds every value to a new collector for a chunk of them; returns the writer forms and encoding. */
function collect(type: DataType, values: readonly unknown[]) {
  const chunk = chunkValues(type, values.length);
  const added = values.map((v) => chunk.add(v));
  return { added, encoding: chunk.encoding() };
}

/** `n` values in 0..m-1 as from uniform random draws: a hash of the index, deterministic. */
const scrambled = (n: number, m: number) =>
  Array.from({ length: n }, (_, i) => {
    let x = Math.imul(i ^ (i >>> 16), 0x45d9f3b);
    x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
    return ((x ^ (x >>> 16)) >>> 0) % m;
  });

describe('the encoding of a column chunk', () => {
  it('is a dictionary when the distinct values take at most a quarter of the bytes of all values', () => {
    expect(collect(LongType, scrambled(100_000, 5_000)).encoding).toBe('RLE_DICTIONARY');
    expect(collect(LongType, scrambled(1_000, 100)).encoding).toBe('RLE_DICTIONARY');
    const words = Array.from({ length: 40 }, (_, i) => ['books', 'games', 'toys'][i % 3]);
    expect(collect(StringType, words).encoding).toBe('RLE_DICTIONARY');
  });

  it('is PLAIN when they take more, however the values are ordered', () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => i);
    expect(collect(LongType, ids).encoding).toBe('PLAIN');
    expect(collect(LongType, scrambled(100_000, 40_000)).encoding).toBe('PLAIN');
    // a distinct long string outweighs the short repeated ones
    const strings = [...Array.from({ length: 10 }, () => 'a'), 'a long string, seen once'];
    expect(collect(StringType, strings).encoding).toBe('PLAIN');
  });

  it('is left to the writer for booleans, binary values and chunks without a value', () => {
    expect(collect(parseSchema('b BOOLEAN').fields[0].dataType, [true, true]).encoding).toBe(
      undefined,
    );
    const binary = parseSchema('b BINARY').fields[0].dataType;
    expect(collect(binary, [new Uint8Array([1])]).encoding).toBe(undefined);
    expect(collect(LongType, []).encoding).toBe(undefined);
    expect(collect(StringType, []).encoding).toBe(undefined);
  });
});

describe('the values of a column chunk', () => {
  it('are BigInt for longs, the INT64 form of the writer', () => {
    expect(collect(LongType, [1, -9007199254740991]).added).toEqual([1n, -9007199254740991n]);
  });

  it('are UTF-8 bytes for strings, the same bytes object for every equal string', () => {
    const texts = ['books', 'héllo ✓', '', '\u{1f600}', 'books', 'lone \ud800'];
    const { added } = collect(StringType, texts);
    const encoder = new TextEncoder();
    expect(added).toEqual(texts.map((s) => encoder.encode(s)));
    expect(added[4]).toBe(added[0]);
  });
});

describe('expectedDistinct', () => {
  it('predicts the distinct values of uniform random draws from the first few thousand', () => {
    for (const universe of [1_000, 5_000, 50_000, 500_000]) {
      const draws = scrambled(100_000, universe);
      const seen = new Set(draws.slice(0, 4096)).size;
      const actual = new Set(draws).size;
      expect(expectedDistinct(4096, seen, 100_000)).toBeGreaterThan(actual * 0.8);
      expect(expectedDistinct(4096, seen, 100_000)).toBeLessThan(actual * 1.2);
    }
  });

  it('predicts every value distinct while none has repeated', () => {
    expect(expectedDistinct(4096, 4096, 100_000)).toBe(100_000);
  });
});

describe('files written with the chosen encodings', () => {
  it('dictionary-encode the canonical output: window starts in runs, counts in random order', () => {
    const schema = parseSchema('window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, n LONG, id LONG');
    const counts = scrambled(20_000, 1_000);
    const rows = counts.map((n, i) => {
      const start = Math.floor(i / 20) * 600_000_000;
      return [[start, start + 600_000_000], n, i];
    });
    const metadata = parquetMetadata(writeParquet(rows, schema));
    const encodings = metadata.row_groups[0].columns.map((c) => [
      c.meta_data?.path_in_schema.join('.'),
      c.meta_data?.encodings.includes('RLE_DICTIONARY'),
    ]);
    expect(encodings).toEqual([
      ['window.start', true],
      ['window.end', true],
      ['n', true],
      ['id', false],
    ]);
  });
});
