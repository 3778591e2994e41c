/**
 * A small cache of the strings one JSON field has decoded, looked up by the text in place: a
 * field with few distinct values (a category, a country, an event type) then gives back the same
 * string for each repeat, with no slice allocated, nothing for the garbage collector, and a hash
 * V8 already holds when the dictionary builder looks the string up.
 *
 * Direct-mapped: a slot per cheap hash of the text (its length and three of its codes); a miss
 * overwrites the slot, so a field of nearly all distinct values (user ids) costs one failed
 * comparison per value and the cache never grows. A hit is checked code by code, so the cache
 * always gives exactly the text's own string.
 */
import type { JsonTextCursor } from './json-text-cursor.js';

/** Slots of the cache: a field with more distinct values than this mostly misses, which is only slower. */
const SLOTS = 256;

/** Strings longer than this are sliced each time: long texts rarely repeat, and comparing them costs. */
const LONGEST_CACHED = 64;

/** Decoded strings of one field, reused when its text repeats. */
export class JsonStringCache {
  private readonly strings = new Array<string>(SLOTS).fill('');
  /** Each slot's string as bytes (its codes: it is ASCII), compared with bytes: `charCodeAt` costs more than a byte read. */
  private readonly codes = new Array<Uint8Array>(SLOTS).fill(NO_CODES);

  /**
   * The string whose UTF-8 bytes are `bytes` from `start` to `end`, all ASCII (no escape, no
   * character beyond 0x7f): the shape decoder (json-shape-decoder.ts) reads a value this way,
   * without a cursor.
   */
  valueOfAscii(bytes: Uint8Array, start: number, end: number): string {
    const length = end - start;
    if (length > LONGEST_CACHED) return asciiText(bytes, start, end);
    const slot =
      length === 0
        ? 0
        : (length * 7 +
            bytes[start] * 31 +
            bytes[start + (length >> 1)] * 131 +
            bytes[end - 1] * 17) &
          (SLOTS - 1);
    const cached = this.strings[slot];
    if (cached.length === length) {
      const codes = this.codes[slot];
      if (codes.length === length) {
        let k = 0;
        while (k < length && bytes[start + k] === codes[k]) k++;
        if (k === length) return cached;
      } else if (matchesCodeUnitsOf(bytes, start, cached)) {
        return cached;
      }
    }
    const value = asciiText(bytes, start, end);
    this.strings[slot] = value;
    this.codes[slot] = bytes.slice(start, end);
    return value;
  }

  /** The content of the string the cursor read last, as `cursor.stringValue()` gives it. */
  valueOf(cursor: JsonTextCursor): string {
    const start = cursor.stringStart;
    const length = cursor.stringEnd - start;
    if (cursor.stringEscaped || (cursor.isBytes && cursor.stringWide) || length > LONGEST_CACHED) {
      return cursor.stringValue();
    }
    const slot = slotOf(cursor, start, length);
    const cached = this.strings[slot];
    if (cached.length === length && this.matches(cursor, start, slot)) return cached;
    const value = cursor.stringValue();
    this.strings[slot] = value;
    this.codes[slot] = cursor.isBytes ? cursor.bytes.slice(start, start + length) : NO_CODES;
    return value;
  }

  /** True when the text at `start` is the string of `slot` (of the same length), compared in place. */
  private matches(cursor: JsonTextCursor, start: number, slot: number): boolean {
    if (!cursor.isBytes) return cursor.text.startsWith(this.strings[slot], start);
    const codes = this.codes[slot];
    // a string cached from text has no codes: compare it by code units
    if (codes.length !== this.strings[slot].length)
      return matchesCodeUnits(cursor, start, this.strings[slot]);
    const bytes = cursor.bytes;
    for (let k = 0; k < codes.length; k++) {
      if (bytes[start + k] !== codes[k]) return false;
    }
    return true;
  }
}

const NO_CODES = new Uint8Array(0);

function slotOf(cursor: JsonTextCursor, start: number, length: number): number {
  if (length === 0) return 0;
  const first = cursor.codeAt(start);
  const middle = cursor.codeAt(start + (length >> 1));
  const last = cursor.codeAt(start + length - 1);
  return (length * 7 + first * 31 + middle * 131 + last * 17) & (SLOTS - 1);
}

/** True when the bytes at `start` are the code units of `cached`. */
function matchesCodeUnits(cursor: JsonTextCursor, start: number, cached: string): boolean {
  return matchesCodeUnitsOf(cursor.bytes, start, cached);
}

function matchesCodeUnitsOf(bytes: Uint8Array, start: number, cached: string): boolean {
  for (let k = 0; k < cached.length; k++) {
    if (bytes[start + k] !== cached.charCodeAt(k)) return false;
  }
  return true;
}

/** ASCII bytes as a string: short runs are faster by char codes than by a decoder. */
function asciiText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > LONGEST_CACHED) return longText.decode(bytes.subarray(start, end));
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

const longText = new TextDecoder();
