/**
 * Snappy compression (the raw format Parquet's SNAPPY codec uses), after the reference
 * implementation's algorithm: a hash table of 4-byte sequences finds earlier occurrences, emitted as
 * copies (at most 64 KiB back, so 2 or 3 bytes each), and what lies between as literals. Lookups
 * skip ahead faster the longer no match is found, so incompressible data costs little.
 *
 * Like the snappyjs port that hyparquet-writer ships, it hashes across the whole input rather than
 * per 64 KiB block (the reference's choice), which finds more matches. Unlike it, it writes into an
 * output sized for the worst case up front instead of appending byte by byte through a growable
 * buffer: about twice as fast on the pages of the sink benchmark. The output is valid Snappy that
 * any decoder reads, not byte-identical to other compressors'.
 */

/** The furthest back a copy reaches (its offset is 2 bytes). */
const MAX_OFFSET = 0xffff;
/** The hash table has at most 2^14 entries (the reference's limit). */
const MAX_HASH_BITS = 14;
/** Matching stops this many bytes before the end, so 4-byte loads stay inside the input. */
const INPUT_MARGIN = 15;
/** Literals up to this long are copied by a loop: cheaper than a subarray and a set. */
const SHORT_LITERAL = 16;

/** One reusable hash table per size, of input positions. */
const hashTables: Uint32Array[] = [];

/** Compresses `input` as one Snappy-compressed buffer (a varint length, then literals and copies). */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(32 + input.length + Math.ceil(input.length / 6));
  const op = compress(input, out, writeVarint(out, 0, input.length));
  return out.subarray(0, op);
}

function writeVarint(out: Uint8Array, op: number, value: number): number {
  let v = value;
  while (v >= 0x80) {
    out[op++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[op++] = v;
  return op;
}

/** Compresses `input` into `out` from `op`; returns the end of the output. */
function compress(input: Uint8Array, out: Uint8Array, op: number): number {
  const end = input.length;
  if (end < INPUT_MARGIN) return emitLiteral(input, 0, end, out, op);
  let bits = 8;
  while (bits < MAX_HASH_BITS && 1 << bits < end) bits++;
  const shift = 32 - bits;
  const table = (hashTables[bits] ??= new Uint32Array(1 << bits));
  table.fill(0);
  const ipLimit = end - INPUT_MARGIN;
  let nextEmit = 0;
  let ip = 1;
  let nextHash = hash(load32(input, ip), shift);
  for (;;) {
    // Look for a 4-byte match, stepping further apart the longer none turns up.
    let skip = 32;
    let nextIp = ip;
    let candidate: number;
    do {
      ip = nextIp;
      const h = nextHash;
      nextIp = ip + (skip++ >>> 5);
      if (nextIp > ipLimit) return emitLiteral(input, nextEmit, end, out, op);
      nextHash = hash(load32(input, nextIp), shift);
      candidate = table[h];
      table[h] = ip;
    } while (ip - candidate > MAX_OFFSET || load32(input, ip) !== load32(input, candidate));
    op = emitLiteral(input, nextEmit, ip, out, op);
    // Emit copies while the bytes right after a copy match again.
    do {
      let matched = 4;
      while (ip + matched < end && input[ip + matched] === input[candidate + matched]) matched++;
      op = emitCopy(out, op, ip - candidate, matched);
      ip += matched;
      nextEmit = ip;
      if (ip >= ipLimit) return emitLiteral(input, nextEmit, end, out, op);
      table[hash(load32(input, ip - 1), shift)] = ip - 1;
      const h = hash(load32(input, ip), shift);
      candidate = table[h];
      table[h] = ip;
    } while (ip - candidate <= MAX_OFFSET && load32(input, ip) === load32(input, candidate));
    nextHash = hash(load32(input, ++ip), shift);
  }
}

function load32(input: Uint8Array, i: number): number {
  return input[i] | (input[i + 1] << 8) | (input[i + 2] << 16) | (input[i + 3] << 24);
}

function hash(bytes: number, shift: number): number {
  return Math.imul(bytes, 0x1e35a7bd) >>> shift;
}

/** Emits input[from, to) as a literal (nothing when empty). */
function emitLiteral(
  input: Uint8Array,
  from: number,
  to: number,
  out: Uint8Array,
  op: number,
): number {
  const length = to - from;
  if (length === 0) return op;
  const n = length - 1;
  if (n < 60) {
    out[op++] = n << 2;
  } else {
    // Tags 60 to 63: the length follows in 1 to 4 little-endian bytes.
    const bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
    out[op++] = (59 + bytes) << 2;
    for (let i = 0; i < bytes; i++) out[op++] = (n >>> (8 * i)) & 0xff;
  }
  if (length <= SHORT_LITERAL) {
    for (let i = from; i < to; i++) out[op++] = input[i];
    return op;
  }
  out.set(input.subarray(from, to), op);
  return op + length;
}

/** Emits a copy of `length` bytes from `offset` (at most MAX_OFFSET) back, in pieces of at most 64. */
function emitCopy(out: Uint8Array, op: number, offset: number, length: number): number {
  let rest = length;
  while (rest >= 68) {
    op = emitShortCopy(out, op, offset, 64);
    rest -= 64;
  }
  if (rest > 64) {
    op = emitShortCopy(out, op, offset, 60);
    rest -= 60;
  }
  return emitShortCopy(out, op, offset, rest);
}

/** A copy of 4 to 64 bytes: the 2-byte form when it fits (4-11 bytes, offset below 2048). */
function emitShortCopy(out: Uint8Array, op: number, offset: number, length: number): number {
  if (length < 12 && offset < 2048) {
    out[op++] = 1 | ((length - 4) << 2) | ((offset >>> 8) << 5);
    out[op++] = offset & 0xff;
  } else {
    out[op++] = 2 | ((length - 1) << 2);
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
  }
  return op;
}
