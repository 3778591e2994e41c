/**
 * An estimate of the memory a state entry takes in V8's heap, for the progress's
 * `memoryUsedBytes` (Spark's name). It is an estimate in the way Spark's SizeEstimator is one:
 * it counts what a value holds (characters, numbers, elements and the objects around them) with
 * the sizes V8 gives them on 64-bit platforms, not what the allocator actually reserved. A store
 * measures a sample of its entries once a batch and scales it to all of them (keyed-state-store.ts).
 */

/** A heap object's header (map pointer, properties, elements, length). */
const OBJECT_HEADER_BYTES = 16;
/** One slot: a pointer, or an unboxed double in a double array. */
const SLOT_BYTES = 8;
/** An entry of a Map or Set's hash table: key, value, chain link, and its share of the buckets. */
const HASH_ENTRY_BYTES = 32;
/** A Map or Set beside its entries; a Uint8Array beside its bytes (the view and its buffer). */
const COLLECTION_BYTES = 64;

/** The estimated bytes of one entry of a state store: its key, its value and its slot in the store. */
export function stateEntryBytes(key: string, value: unknown): number {
  return HASH_ENTRY_BYTES + stringBytes(key) + stateValueBytes(value);
}

/** The estimated bytes of a state value (state-value.ts's plain data), beyond the slot holding it. */
export function stateValueBytes(v: unknown): number {
  if (v === null || v === undefined || typeof v === 'boolean') return 0; // shared constants
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 30 ? 0 : 16;
  if (typeof v === 'string') return stringBytes(v);
  if (typeof v !== 'object') return OBJECT_HEADER_BYTES;
  if (Array.isArray(v)) {
    let bytes = OBJECT_HEADER_BYTES + v.length * SLOT_BYTES;
    // a number element lives in its slot: unboxed in a double array, or a small integer; an
    // indexed loop, as every put of an array value walks it
    for (let i = 0; i < v.length; i++) {
      const element: unknown = v[i];
      if (typeof element !== 'number') bytes += stateValueBytes(element);
    }
    return bytes;
  }
  if (v instanceof Uint8Array) return COLLECTION_BYTES + v.byteLength;
  if (v instanceof Map) {
    let bytes = COLLECTION_BYTES + v.size * HASH_ENTRY_BYTES;
    for (const [k, x] of v) bytes += stateValueBytes(k) + stateValueBytes(x);
    return bytes;
  }
  if (v instanceof Set) {
    let bytes = COLLECTION_BYTES + v.size * HASH_ENTRY_BYTES;
    for (const x of v) bytes += stateValueBytes(x);
    return bytes;
  }
  return OBJECT_HEADER_BYTES;
}

/** A string: its header and hash, then its code units (two bytes each, the wider of V8's forms). */
function stringBytes(s: string): number {
  return OBJECT_HEADER_BYTES + 2 * s.length;
}
