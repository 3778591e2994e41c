/**
 * The columnar JSON decoder specialised to one record shape: the keys of a record, in their order,
 * and the exact text around its values (`{"ts":`, `,"category":`, ..., `}`). Records of one
 * producer nearly all have one shape (a serializer writes an object's keys in one order, with the
 * same spacing), so the decoder learns it from a record the general fast path has read
 * (json-column-plan.ts) and then reads each record by comparing the bytes between values with the
 * shape's and reading each value by its field's type, with no key lookup, no whitespace skipping
 * and no exception per record.
 *
 * A shape only ever reads a record the general fast path would read the same way: the text around
 * the values is that of a record that path read, the values are read as that path reads them, and
 * a value the shape's own readers do not take (an escaped string, a number with a fraction for an
 * integer field, a nested struct, an array) is read by that path's decoder of the field, through
 * the cursor. Anything else makes the shape give up on the record (false), which the caller then
 * reads the general way: another key order, a missing or repeated key (the text between values
 * differs), other spacing, malformed text (a value reader or the closing text refuses it).
 *
 * The bytes between values are compared as written, so a repeated key can never slip through: a
 * record of the shape has exactly its keys, once each, and a shape is only learned from a record
 * whose keys are distinct.
 */
import { MICROS } from '../types/time-units.js';
import { scanIsoTimestamp } from '../types/iso-timestamp.js';
import { parseTimestampSlice } from '../types/timestamp-text.js';
import type { DataType } from '../types/data-types.js';
import { type RecordPlan, RecordSlots, type ValueDecoder } from './json-column-plan.js';
import { JsonStringCache } from './json-string-cache.js';
import { JSON_CODES, JsonTextCursor, LeaveFastPath } from './json-text-cursor.js';

/** How a shape reads one key's value. */
const STRING = 0;
/** A string field the query does not read: checked, not built. */
const SKIPPED_STRING = 1;
const TIMESTAMP = 2;
const DATE = 3;
const INT = 4;
const LONG = 5;
const DOUBLE = 6;
const BOOLEAN = 7;
/** Any other value (a struct, an array, a key the schema lacks): the general fast path's decoder, through the cursor. */
const BY_CURSOR = 8;

const { quote, minus, zero, nine, closeBrace, lowerT, lowerF, lowerN } = JSON_CODES;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const FIRST_NON_ASCII = 0x80;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
/** Where the closing quote of a timestamp in `toISOString`'s form is, from its opening quote. */
const INSTANT_END = 25;
/** Integers of at most this many digits are exact in a double, so the reader adds them up itself. */
const EXACT_DIGITS = 15;

/** One top-level field of the schema, as a shape reads it. */
export interface ShapeField {
  readonly name: string;
  readonly dataType: DataType;
  /** True when the query reads the field. */
  readonly read: boolean;
}

/** The decoder of one shape of records. */
export interface RecordShape {
  /**
   * Reads the record held in `bytes` from `start` to `end` into `slots`, as the general fast path
   * would; false when the record is not of the shape, or is anything the general fast path does
   * not read (the slots then hold nothing of use). `view` is a DataView of `bytes` (of its whole
   * buffer, `bytes` starting at its offset 0).
   */
  decode(
    view: DataView,
    bytes: Uint8Array,
    start: number,
    end: number,
    slots: RecordSlots,
  ): boolean;
}

/**
 * Learns the shape of the record in `bytes` from `start` to `end`, a record the general fast path
 * of `plan` has read: null when it has none worth keeping (it is not an object with keys, a key
 * repeats, a key names two fields of the schema) or when the shape does not read the record itself.
 */
export function learnRecordShape(
  plan: RecordPlan,
  fields: readonly ShapeField[],
  bytes: Uint8Array,
  start: number,
  end: number,
): RecordShape | null {
  const layout = recordLayout(bytes, start, end);
  if (layout === null) return null;
  const names = fields.map((f) => f.name);
  if (new Set(layout.keys).size !== layout.keys.length) return null;
  const keyFields: number[] = [];
  for (const key of layout.keys) {
    const f = names.indexOf(key);
    if (f >= 0 && names.indexOf(key, f + 1) >= 0) return null;
    keyFields.push(f);
  }
  const shape = new ShapeDecoder(plan, fields, keyFields, layout.texts);
  const copy = bytes.slice(start, end);
  const view = new DataView(copy.buffer);
  return shape.decode(view, copy, 0, copy.length, new RecordSlots(plan.slotCount)) ? shape : null;
}

/** A record's keys, and the texts around its values: before the first, between each two, after the last. */
interface RecordLayout {
  readonly keys: readonly string[];
  readonly texts: readonly Uint8Array[];
}

/** The layout of the standard JSON object in `bytes`, null when it is not one with at least one key. */
function recordLayout(bytes: Uint8Array, start: number, end: number): RecordLayout | null {
  const cursor = new JsonTextCursor();
  cursor.resetBytes(bytes, start, end);
  const keys: string[] = [];
  const texts: Uint8Array[] = [];
  let textStart = start;
  try {
    cursor.skipWhitespace();
    if (cursor.codeAt(cursor.pos) !== JSON_CODES.openBrace) return null;
    cursor.enterContainer();
    if (cursor.skipWhitespace() === closeBrace) return null;
    do {
      if (cursor.codeAt(cursor.pos) !== quote) return null;
      cursor.readString();
      keys.push(cursor.stringValue());
      cursor.expectColon();
      texts.push(bytes.slice(textStart, cursor.pos));
      cursor.skipValue();
      textStart = cursor.pos;
    } while (cursor.nextMember(closeBrace));
    cursor.expectEnd();
  } catch (e) {
    if (e instanceof LeaveFastPath) return null;
    throw e;
  }
  texts.push(bytes.slice(textStart, end));
  return { keys, texts };
}

/** How a shape reads the value of a field of type `t`. */
function readerKind(t: DataType, read: boolean): number {
  switch (t.kind) {
    case 'string':
      return read ? STRING : SKIPPED_STRING;
    case 'timestamp':
      return TIMESTAMP;
    case 'date':
      return DATE;
    case 'int':
      return INT;
    case 'long':
      return LONG;
    case 'double':
      return DOUBLE;
    case 'boolean':
      return BOOLEAN;
    default:
      return BY_CURSOR;
  }
}

/** A key the schema lacks: its value is checked to be JSON, as the general fast path checks it. */
const SKIP_VALUE: ValueDecoder = (cursor) => cursor.skipValue();

class ShapeDecoder implements RecordShape {
  /** The texts around the values, one after the other; text `k` is from `textStarts[k]` to `textStarts[k + 1]`. */
  private readonly texts: Uint8Array;
  private readonly textStarts: Int32Array;
  /**
   * The texts' whole 4-byte words, as little-endian int32s, compared a word at a time: text `k`'s
   * are from `wordStarts[k]` to `wordStarts[k + 1]`, and its bytes after them are compared one by one.
   */
  private readonly words: Int32Array;
  private readonly wordStarts: Int32Array;
  /** Per key of the shape: how its value is read, its slot (-1: none) and the general decoder of its field. */
  private readonly kinds: Int32Array;
  private readonly slots: Int32Array;
  private readonly decoders: readonly ValueDecoder[];
  /** Per key: the cache of its strings (read string fields only). */
  private readonly caches: readonly (JsonStringCache | null)[];
  /** The slots of the top-level fields the shape has no key for: their values are missing, null. */
  private readonly absentSlots: Int32Array;
  private readonly cursor = new JsonTextCursor();

  constructor(
    plan: RecordPlan,
    fields: readonly ShapeField[],
    keyFields: readonly number[],
    texts: readonly Uint8Array[],
  ) {
    this.texts = new Uint8Array(texts.reduce((n, t) => n + t.length, 0));
    this.textStarts = new Int32Array(texts.length + 1);
    let at = 0;
    texts.forEach((t, k) => {
      this.texts.set(t, at);
      this.textStarts[k] = at;
      at += t.length;
    });
    this.textStarts[texts.length] = at;
    this.wordStarts = new Int32Array(texts.length + 1);
    const words: number[] = [];
    texts.forEach((t, k) => {
      this.wordStarts[k] = words.length;
      const view = new DataView(t.buffer, t.byteOffset, t.byteLength);
      for (let w = 0; w + 4 <= t.length; w += 4) words.push(view.getInt32(w, true));
    });
    this.wordStarts[texts.length] = words.length;
    this.words = Int32Array.from(words);
    this.kinds = Int32Array.from(keyFields, (f) => {
      // the corrupt-record column has no slot: its key is skipped, as the general fast path skips it
      if (f < 0 || plan.fields[f].slot < 0) return BY_CURSOR;
      return readerKind(fields[f].dataType, fields[f].read);
    });
    this.slots = Int32Array.from(keyFields, (f) => (f < 0 ? -1 : plan.fields[f].slot));
    this.decoders = keyFields.map((f) => (f < 0 ? SKIP_VALUE : plan.fields[f].decode));
    this.caches = Array.from(this.kinds, (kind) =>
      kind === STRING ? new JsonStringCache() : null,
    );
    this.absentSlots = Int32Array.from(
      plan.fields.flatMap((v, f) => (v.slot >= 0 && !keyFields.includes(f) ? [v.slot] : [])),
    );
  }

  decode(
    view: DataView,
    bytes: Uint8Array,
    start: number,
    end: number,
    slots: RecordSlots,
  ): boolean {
    const present = slots.present;
    const absent = this.absentSlots;
    for (let i = 0; i < absent.length; i++) present[absent[i]] = 0;
    const texts = this.texts;
    const textStarts = this.textStarts;
    const words = this.words;
    const wordStarts = this.wordStarts;
    const keys = this.kinds.length;
    let pos = start;
    for (let k = 0; k <= keys; k++) {
      let j = textStarts[k];
      const to = textStarts[k + 1];
      if (pos + to - j > end) return false;
      const lastWord = wordStarts[k + 1];
      for (let w = wordStarts[k]; w < lastWord; w++) {
        if (view.getInt32(pos, true) !== words[w]) return false;
        pos += 4;
        j += 4;
      }
      for (; j < to; j++) {
        if (bytes[pos++] !== texts[j]) return false;
      }
      if (k === keys) break;
      pos = this.readValue(k, view, bytes, pos, end, slots);
      if (pos < 0) return false;
    }
    return pos === end;
  }

  /** Reads the value of key `k` at `pos`; returns the position after it, or -1 to give up on the record. */
  private readValue(
    k: number,
    view: DataView,
    bytes: Uint8Array,
    pos: number,
    end: number,
    slots: RecordSlots,
  ): number {
    const kind = this.kinds[k];
    if (kind === BY_CURSOR) return this.readByCursor(k, bytes, pos, end, slots);
    const slot = this.slots[k];
    const c = bytes[pos];
    if (c === lowerN) {
      if (bytes[pos + 1] !== 0x75 || bytes[pos + 2] !== 0x6c || bytes[pos + 3] !== 0x6c) return -1;
      slots.present[slot] = 0;
      return pos + 4;
    }
    switch (kind) {
      case STRING:
      case SKIPPED_STRING:
      case TIMESTAMP:
      case DATE: {
        if (c !== quote) break;
        if (kind === TIMESTAMP && bytes[pos + INSTANT_END] === quote && pos + INSTANT_END < end) {
          // `toISOString`'s form, the commonest by far, read without scanning for the quote first:
          // every form the reader takes is plain ASCII without a quote, so a time read means the
          // string is those 24 characters
          const micros = scanIsoTimestamp(bytes, pos + 1, pos + INSTANT_END);
          if (typeof micros === 'number') {
            slots.numbers[slot] = micros;
            slots.present[slot] = 1;
            return pos + INSTANT_END + 1;
          }
        }
        const close = asciiStringEnd(view, bytes, pos + 1, end);
        // an escape, a character beyond ASCII: the general decoder reads them
        if (close < 0) break;
        if (kind === STRING) {
          slots.values[slot] = (this.caches[k] as JsonStringCache).valueOfAscii(
            bytes,
            pos + 1,
            close,
          );
        } else if (kind !== SKIPPED_STRING) {
          const micros = parseTimestampSlice(bytes, pos + 1, close);
          if (micros === null) return -1;
          slots.numbers[slot] = kind === DATE ? Math.floor(micros / MICROS.day) : micros;
        }
        slots.present[slot] = 1;
        return close + 1;
      }
      case INT:
      case LONG:
      case DOUBLE: {
        const negative = c === minus;
        let i = negative ? pos + 1 : pos;
        const first = i;
        let value = 0;
        let d = bytes[i];
        if (d === zero) {
          d = bytes[++i];
        } else {
          while (d >= zero && d <= nine) {
            value = value * 10 + d - zero;
            d = bytes[++i];
          }
        }
        // no digit, a fraction, an exponent, too many digits to add up exactly: the general decoder
        if (
          i === first ||
          i - first > EXACT_DIGITS ||
          d === DOT ||
          d === LOWER_E ||
          d === UPPER_E
        ) {
          break;
        }
        if (negative) value = -value;
        if (kind === INT && (value < INT_MIN || value > INT_MAX)) return -1;
        slots.numbers[slot] = value;
        slots.present[slot] = 1;
        return i;
      }
      case BOOLEAN: {
        if (c === lowerT) {
          if (bytes[pos + 1] !== 0x72 || bytes[pos + 2] !== 0x75 || bytes[pos + 3] !== 0x65) {
            return -1;
          }
          slots.numbers[slot] = 1;
          slots.present[slot] = 1;
          return pos + 4;
        }
        if (c === lowerF) {
          const a = bytes[pos + 1] === 0x61 && bytes[pos + 2] === 0x6c;
          if (!a || bytes[pos + 3] !== 0x73 || bytes[pos + 4] !== 0x65) return -1;
          slots.numbers[slot] = 0;
          slots.present[slot] = 1;
          return pos + 5;
        }
        break;
      }
    }
    return this.readByCursor(k, bytes, pos, end, slots);
  }

  /** Reads the value of key `k` at `pos` with its field's general decoder. */
  private readByCursor(
    k: number,
    bytes: Uint8Array,
    pos: number,
    end: number,
    slots: RecordSlots,
  ): number {
    const cursor = this.cursor;
    // the value is inside the record's object, which counts towards the nesting limit
    cursor.resetBytes(bytes, pos, end, 1);
    try {
      this.decoders[k](cursor, slots);
    } catch (e) {
      if (e instanceof LeaveFastPath) return -1;
      throw e;
    }
    return cursor.pos;
  }
}

/**
 * The bytes that end a plain ASCII string's content: the quote, and those that make it other than
 * plain (a backslash, a control character, a byte beyond 0x7f). One table load per byte is the
 * scan's whole test.
 */
const NOT_PLAIN = Uint8Array.from({ length: 256 }, (_, c) =>
  c === quote || c === BACKSLASH || c < SPACE || c >= FIRST_NON_ASCII ? 1 : 0,
);

/**
 * The position of the quote closing the string whose content starts at `i`, when the content is
 * plain ASCII (no escape, no control character, nothing beyond 0x7f); -1 otherwise, or when the
 * text ends first.
 */
function asciiStringEnd(view: DataView, bytes: Uint8Array, i: number, end: number): number {
  // four bytes at a time while none is a quote, a backslash, a control character or beyond ASCII
  // (each test is the "has a zero byte" trick: it may flag a word wrongly, never miss one)
  while (i + 4 <= end) {
    const w = view.getInt32(i, true);
    const q = w ^ 0x22222222;
    const b = w ^ 0x5c5c5c5c;
    const flagged = ((q - 0x01010101) & ~q) | ((b - 0x01010101) & ~b) | ((w - 0x20202020) & ~w) | w;
    if ((flagged & 0x80808080) !== 0) break;
    i += 4;
  }
  while (i < end && NOT_PLAIN[bytes[i]] === 0) i++;
  return i < end && bytes[i] === quote ? i : -1;
}
