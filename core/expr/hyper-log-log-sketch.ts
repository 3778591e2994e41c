/**
 * The HyperLogLog sketch behind `approx_count_distinct`. Its precision follows Spark's
 * HyperLogLogPlusPlus (p = ceil(2 log2(1.106 / rsd)), dense registers, at least 4 bits), and
 * sketches merge by taking each register's maximum, so partial sketches of a session window or of
 * successive micro-batches combine into the sketch of all their rows.
 *
 * A deliberate difference from Spark: instead of HLL++'s empirical bias-correction tables, the
 * estimate is Ertl's improved raw estimator ("New cardinality estimation algorithms for
 * HyperLogLog sketches", 2017), which is unbiased over the whole range without tables and has the
 * same relative standard deviation (about 1.04 / sqrt(2^p)); the counts differ from Spark's within
 * that error. Values are hashed to 64 bits as two 32-bit halves: the first picks the register, the
 * second gives the rank (1 + its leading zeros, at most 33).
 */
import { AnalysisError } from '../errors.js';
import { encodeKey } from './group-key.js';

/** The registers: a plain array of ranks, so the state store can keep and encode it. */
export type HyperLogLogSketch = number[];

/** The largest rank a register can hold: 32 zero bits, then the implied one. */
const MAX_RANK = 33;

/** The sketch's precision for a relative standard deviation, by Spark's rule. */
export function sketchPrecision(rsd: number, name: string): number {
  if (!(rsd > 0)) {
    throw new AnalysisError(
      `${name}: the relative standard deviation must be a positive number, got ${rsd}.`,
    );
  }
  const p = Math.ceil(2 * Math.log2(1.106 / rsd));
  if (p < 4) {
    throw new AnalysisError(
      `${name}: rsd ${rsd} is too large; HyperLogLog++ needs at least 4 bits of addressing, so use an rsd of at most 0.39.`,
    );
  }
  if (p > 18) {
    throw new AnalysisError(
      `${name}: rsd ${rsd} is too small (it needs ${2 ** p} registers); use an rsd of at least 0.0043.`,
    );
  }
  return p;
}

/** A sketch of no values at precision `p`. */
export function emptySketch(p: number): HyperLogLogSketch {
  return new Array<number>(2 ** p).fill(0);
}

/** Adds a non-null value to the sketch. */
export function addToSketch(sketch: HyperLogLogSketch, value: unknown): HyperLogLogSketch {
  hashValue(value);
  const p = Math.log2(sketch.length);
  const index = hashHigh >>> (32 - p);
  const rank = Math.clz32(hashLow) + 1;
  if (rank > sketch[index]) sketch[index] = rank;
  return sketch;
}

/** Merges `b`'s registers into `a` (each register's maximum). */
export function mergeSketches(a: HyperLogLogSketch, b: HyperLogLogSketch): HyperLogLogSketch {
  for (let i = 0; i < a.length; i++) if (b[i] > a[i]) a[i] = b[i];
  return a;
}

/** The estimated number of distinct values (Ertl's improved raw estimator), rounded as Spark does. */
export function sketchEstimate(sketch: HyperLogLogSketch): number {
  const m = sketch.length;
  const histogram = new Array<number>(MAX_RANK + 1).fill(0);
  for (const rank of sketch) histogram[rank]++;
  let z = m * tau(1 - histogram[MAX_RANK] / m);
  for (let k = MAX_RANK - 1; k >= 1; k--) z = 0.5 * (z + histogram[k]);
  z += m * sigma(histogram[0] / m);
  return Math.round((m * m) / (2 * Math.LN2) / z);
}

/** Ertl's sigma: the share of empty registers' contribution (infinite when all are empty). */
function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  for (;;) {
    x *= x;
    const previous = z;
    z += x * y;
    y += y;
    if (z === previous) return z;
  }
}

/** Ertl's tau: the correction for registers at the largest rank. */
function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  for (;;) {
    x = Math.sqrt(x);
    const previous = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
    if (z === previous) return z / 3;
  }
}

// The two 32-bit halves of the last hash; module state so hashing allocates nothing per value.
let hashHigh = 0;
let hashLow = 0;
const doubleView = new Float64Array(1);
const wordView = new Uint32Array(doubleView.buffer);

/** Hashes a value into `hashHigh`/`hashLow`: numbers by their double's bits, strings by code units. */
function hashValue(value: unknown): void {
  if (typeof value === 'number') {
    doubleView[0] = value === 0 ? 0 : value; // -0 and 0 are one value
    mixWords(wordView[0], wordView[1]);
  } else {
    const text = typeof value === 'string' ? value : encodeKey([value]);
    let a = 0x9747b28c ^ text.length;
    let b = 0x5bd1e995 ^ text.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0xcc9e2d51);
      a = (a << 15) | (a >>> 17);
      b = Math.imul(b ^ c, 0x1b873593);
      b = (b << 13) | (b >>> 19);
    }
    mixWords(a, b);
  }
}

/** Two rounds of Murmur3's finalizer over both words, so each half depends on all 64 input bits. */
function mixWords(lo: number, hi: number): void {
  const a = fmix32(lo ^ 0x9e3779b9);
  const b = fmix32(hi ^ 0x7f4a7c15);
  hashHigh = fmix32(a ^ Math.imul(b, 0x85ebca6b)) >>> 0;
  hashLow = fmix32(b ^ Math.imul(a, 0xc2b2ae35) ^ 0x27d4eb2f) >>> 0;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
