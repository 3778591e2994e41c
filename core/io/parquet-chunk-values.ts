/**
 * The values of one column chunk of a flat leaf (an atomic column, or one inside structs only) in the
 * form hyparquet-writer's column writer takes, and the encoding they call for.
 *
 * Encoding: hyparquet-writer decides on a dictionary from a sample of 1,000 values spread over the
 * chunk. A column of medium cardinality with locality, like the window start of the canonical query's
 * output (5,000 distinct values in a batch of 100,000, one run per window), looks all distinct in such
 * a sample and was written PLAIN, 8 bytes a value. Here the decision sees every value, counted while
 * the values are converted anyway: a chunk is dictionary-encoded when its distinct values take at most
 * a quarter of the bytes of all of them. Then the dictionary and its bit-packed indexes take about
 * half the bytes of PLAIN values. The writer's own bar, half, saves little more than compression
 * does, and building a dictionary of that many values cost more than writing the rest of the column.
 *
 * Numbers stop counting when, at any 4,096th value, the distinct values seen so far predict more than
 * a quarter of the chunk distinct (see expectedDistinct), so a high-cardinality column pays for a few
 * thousand set lookups, not one per value, while a medium-cardinality one in random order, whose first
 * values are mostly distinct too, is still counted to the end. Booleans and binary values are left to
 * the writer (it run-length encodes booleans; binary values are compared by content, not identity).
 *
 * Values: longs become BigInt (the writer's INT64 form); strings become UTF-8 bytes, each distinct
 * string of the chunk encoded once. Given strings, the writer calls TextEncoder once per value of a
 * column it does not dictionary-encode, at about a microsecond a call; given the same bytes object
 * for equal strings, its dictionary finds repeats by identity, without hashing bytes.
 */
import type { DataType } from '../types/data-types.js';

/** The encodings chosen for a chunk's values. */
export type ChunkEncoding = 'PLAIN' | 'RLE_DICTIONARY';

/** Collects a chunk's non-null values one by one. */
export interface ChunkValues {
  /** Notes a non-null engine value and returns its writer form. */
  add(value: unknown): unknown;
  /** The encoding for the values added, or undefined to leave the choice to the writer. */
  encoding(): ChunkEncoding | undefined;
}

/** How often a distinct count is checked for giving up. */
const PROBE_INTERVAL = 4096;

/** A dictionary is chosen when the distinct values take at most 1/DICTIONARY_SHARE of all bytes. */
const DICTIONARY_SHARE = 4;

/** A new collector for a chunk of up to `size` values of a leaf of atomic type `t`. */
export function chunkValues(t: DataType, size: number): ChunkValues {
  switch (t.kind) {
    case 'string':
      return new Utf8Values();
    case 'long':
      return new CountedValues((v) => BigInt(v as number), size);
    case 'boolean':
    case 'binary':
      return UNCOUNTED;
    default:
      return new CountedValues((v) => v, size);
  }
}

const UNCOUNTED: ChunkValues = {
  add: (value) => value,
  encoding: () => undefined,
};

/** Fixed-width values, with a distinct count that gives up on high cardinality. */
class CountedValues implements ChunkValues {
  private readonly distinct = new Set<unknown>();
  private added = 0;
  private counting = true;

  constructor(
    private readonly convert: (value: unknown) => unknown,
    private readonly size: number,
  ) {}

  add(value: unknown): unknown {
    if (this.counting) {
      this.distinct.add(value);
      this.added++;
      if (
        this.added % PROBE_INTERVAL === 0 &&
        DICTIONARY_SHARE * expectedDistinct(this.added, this.distinct.size, this.size) > this.size
      ) {
        this.counting = false;
        this.distinct.clear();
      }
    }
    return this.convert(value);
  }

  encoding(): ChunkEncoding | undefined {
    if (this.added === 0) return undefined;
    return this.counting && DICTIONARY_SHARE * this.distinct.size <= this.added
      ? 'RLE_DICTIONARY'
      : 'PLAIN';
  }
}

/**
 * How many distinct values `n` values hold when the first `k` held `d`, were they drawn uniformly at
 * random from a set of unknown size u: d = u (1 - e^(-k/u)) gives u (solved for x = k/u by
 * bisection, (1 - e^-x) / x falling from 1 towards 0), and then u (1 - e^(-n/u)). With no repeat yet
 * it is `n`. Sorted or clustered columns defy the model, but only by holding fewer distinct values
 * early than late, which keeps them counted, never given up wrongly.
 */
export function expectedDistinct(k: number, d: number, n: number): number {
  if (d >= k) return n;
  const ratio = d / k;
  let low = 0;
  let high = 64;
  for (let i = 0; i < 40; i++) {
    const x = (low + high) / 2;
    if ((1 - Math.exp(-x)) / x > ratio) low = x;
    else high = x;
  }
  const u = k / ((low + high) / 2);
  return u * (1 - Math.exp(-n / u));
}

const textEncoder = new TextEncoder();

/** Strings as UTF-8 bytes, each distinct one encoded once, with the bytes of both kinds counted. */
class Utf8Values implements ChunkValues {
  private readonly cache = new Map<string, Uint8Array>();
  /** Bytes of a PLAIN page: a 4-byte length and the bytes, per value. */
  private totalBytes = 0;
  private distinctBytes = 0;

  add(value: unknown): unknown {
    const s = value as string;
    let bytes = this.cache.get(s);
    if (bytes === undefined) {
      bytes = asciiBytes(s) ?? textEncoder.encode(s);
      this.cache.set(s, bytes);
      this.distinctBytes += 4 + bytes.length;
    }
    this.totalBytes += 4 + bytes.length;
    return bytes;
  }

  encoding(): ChunkEncoding | undefined {
    if (this.totalBytes === 0) return undefined;
    return DICTIONARY_SHARE * this.distinctBytes <= this.totalBytes ? 'RLE_DICTIONARY' : 'PLAIN';
  }
}

/**
 * The bytes of an all-ASCII string, or undefined. Copying the units is several times faster than
 * TextEncoder for short strings, and a small new array is cheaper than a view into a shared buffer.
 */
function asciiBytes(s: string): Uint8Array | undefined {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return undefined;
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}
