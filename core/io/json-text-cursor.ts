/**
 * A cursor over the text of one JSON record, held as a string or as its UTF-8 bytes, for the
 * columnar decoder: it reads tokens in place and checks, as it moves, that the text is standard
 * JSON as `JSON.parse` reads it, nested at most MAX_JSON_NESTING_DEPTH deep.
 *
 * It reads only what it can read exactly. Anything else makes it throw LEAVE_FAST_PATH, and the
 * decoder reads the whole record the general way (`JSON.parse`, which also decides whether the
 * record is malformed): text that is not standard JSON (single quotes, NaN, comments, truncated
 * text, garbage), a byte order mark, and bytes that are not ASCII outside strings. JSON's
 * structural characters are ASCII, where a UTF-16 code unit and a UTF-8 byte are the same number,
 * so one cursor reads both forms.
 */
import { MAX_JSON_NESTING_DEPTH } from './json-nesting.js';

/** The signal that the record needs the general reading; it carries no stack, like DropRow. */
export class LeaveFastPath {}

/** The shared instance, so leaving the fast path allocates nothing. */
export const LEAVE_FAST_PATH = new LeaveFastPath();

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;
const LOWER_U = 0x75;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const FIRST_NON_ASCII = 0x80;

/** The characters that may follow a backslash in a JSON string, other than `u`: `"\/bfnrt`. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** Integers of at most this many digits are exact in a double, so the cursor adds them up itself. */
const EXACT_DIGITS = 15;

/** A backslash or a control character: a text without any has only strings that end at their next quote. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point: JSON strings may not hold them raw
const ESCAPE_OR_CONTROL = /[\\\u0000-\u001f]/;

const slicedBytes = new TextDecoder('utf-8', { ignoreBOM: true });

/** Reads one record's text; `reset` points it at the next. */
export class JsonTextCursor {
  /** The record's text, when it is a string. */
  text = '';
  /** The record's UTF-8 bytes, when it is bytes. */
  bytes: Uint8Array = new Uint8Array(0);
  /** True when the record is bytes. */
  isBytes = false;
  /** The position of the next character (code unit or byte) to read. */
  pos = 0;
  /** The end of the record. */
  end = 0;
  /** The arrays and objects open at `pos`. */
  private depth = 0;
  /** True when the text has no backslash and no control character, so every string ends at its next quote. */
  private plainText = false;

  /** Where the content of the last string read starts and ends (between its quotes). */
  stringStart = 0;
  stringEnd = 0;
  /** True when the last string read has escapes, so its text is not its content as written. */
  stringEscaped = false;
  /** True when the last string read has a character beyond ASCII. */
  stringWide = false;

  /** Where the last number read starts and ends. */
  private numberStart = 0;
  private numberEnd = 0;
  /** The last number read when it is an integer the cursor added up; NaN when it is not. */
  private numberExact = 0;

  /**
   * Points the cursor at a record held as the UTF-8 bytes from `start` to `end` of `bytes` (the
   * decoder writes a string record's bytes into one reused buffer: scanning bytes is several times
   * faster than reading a string's code units). `depth` is how many arrays and objects are open
   * at `start`: the shape decoder (json-shape-decoder.ts) points the cursor at one value inside a
   * record, and the nesting limit counts from the record's start.
   */
  resetBytes(bytes: Uint8Array, start: number, end: number, depth = 0): void {
    this.bytes = bytes;
    this.isBytes = true;
    this.pos = start;
    this.end = end;
    this.depth = depth;
  }

  /** Points the cursor at the start of a record. */
  reset(record: string | Uint8Array): void {
    if (typeof record === 'string') {
      this.text = record;
      this.isBytes = false;
      this.plainText = !ESCAPE_OR_CONTROL.test(record);
    } else {
      this.bytes = record;
      this.isBytes = true;
    }
    this.pos = 0;
    this.end = record.length;
    this.depth = 0;
  }

  /** The code unit or byte at `i`; NaN past the end, which matches no character. */
  codeAt(i: number): number {
    if (!this.isBytes) return this.text.charCodeAt(i);
    return i < this.end ? this.bytes[i] : NaN;
  }

  /** Moves past JSON whitespace (space, tab, line feed, carriage return) and returns the next code. */
  skipWhitespace(): number {
    let c = this.codeAt(this.pos);
    while (c === SPACE || c === LINE_FEED || c === CARRIAGE_RETURN || c === TAB) {
      c = this.codeAt(++this.pos);
    }
    return c;
  }

  /** Moves past `c`, the next code, or leaves the fast path when the next code is another. */
  expect(c: number): void {
    if (this.codeAt(this.pos) !== c) throw LEAVE_FAST_PATH;
    this.pos++;
  }

  /** Checks that nothing but whitespace follows the record's value. */
  expectEnd(): void {
    this.skipWhitespace();
    if (this.pos !== this.end) throw LEAVE_FAST_PATH;
  }

  /** Enters an array or object at `pos`, checking the nesting limit. */
  enterContainer(): void {
    if (++this.depth > MAX_JSON_NESTING_DEPTH) throw LEAVE_FAST_PATH;
    this.pos++;
  }

  /** Leaves the array or object whose closing character is at `pos`. */
  leaveContainer(): void {
    this.depth--;
    this.pos++;
  }

  /**
   * After a member or element: true when a comma follows (and moves past it), false when `close`
   * does (and leaves the container); any other character leaves the fast path.
   */
  nextMember(close: number): boolean {
    const c = this.skipWhitespace();
    if (c === COMMA) {
      this.pos++;
      this.skipWhitespace();
      return true;
    }
    if (c !== close) throw LEAVE_FAST_PATH;
    this.leaveContainer();
    return false;
  }

  /** After a key: moves past the colon and the whitespace around it. */
  expectColon(): void {
    if (this.skipWhitespace() !== COLON) throw LEAVE_FAST_PATH;
    this.pos++;
    this.skipWhitespace();
  }

  /** Reads the string at `pos` (its opening quote), setting stringStart, stringEnd, stringEscaped and stringWide. */
  readString(): void {
    const start = this.pos + 1;
    let i = this.isBytes ? this.plainBytesEnd(start) : this.plainTextEnd(start);
    let escaped = false;
    let wide = false;
    while (true) {
      const c = this.codeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        i = this.escapeEnd(i);
      } else if (c >= SPACE) {
        if (c >= FIRST_NON_ASCII) wide = true;
        i++;
      } else {
        throw LEAVE_FAST_PATH; // a control character, or the end of the text (NaN)
      }
    }
    this.stringStart = start;
    this.stringEnd = i;
    this.stringEscaped = escaped;
    this.stringWide = wide;
    this.pos = i + 1;
  }

  // The two loops below are the cursor's hottest code: each reads its own form directly, where
  // `codeAt` would test the form at every character.

  /** The end of the characters from `i` that a string holds as written: none is a quote, a backslash or a control character. */
  private plainTextEnd(i: number): number {
    const text = this.text;
    if (this.plainText) {
      const quote = text.indexOf('"', i);
      return quote < 0 ? this.end : quote;
    }
    const end = this.end;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === QUOTE || c === BACKSLASH || c < SPACE) break;
      i++;
    }
    return i;
  }

  /** `plainTextEnd` for bytes, stopping also at a byte beyond ASCII. */
  private plainBytesEnd(i: number): number {
    const bytes = this.bytes;
    const end = this.end;
    while (i < end) {
      const c = bytes[i];
      if (c === QUOTE || c === BACKSLASH || c < SPACE || c >= FIRST_NON_ASCII) break;
      i++;
    }
    return i;
  }

  /** The position after the escape whose backslash is at `i`. */
  private escapeEnd(i: number): number {
    const c = this.codeAt(i + 1);
    if (SIMPLE_ESCAPES.has(c)) return i + 2;
    if (c !== LOWER_U) throw LEAVE_FAST_PATH;
    for (let k = i + 2; k < i + 6; k++) {
      if (!isHexDigit(this.codeAt(k))) throw LEAVE_FAST_PATH;
    }
    return i + 6;
  }

  /** The content of the last string read, as `JSON.parse` gives it. */
  stringValue(): string {
    if (this.stringEscaped) {
      return JSON.parse(this.textOf(this.stringStart - 1, this.stringEnd + 1)) as string;
    }
    return this.stringWide
      ? this.textOf(this.stringStart, this.stringEnd)
      : this.asciiTextOf(this.stringStart, this.stringEnd);
  }

  /**
   * The text from `start` to `end`: a slice of the string, or the bytes decoded as
   * `cast(binary as string)` decodes the whole record (a slice between ASCII characters decodes to
   * the same characters in both).
   */
  textOf(start: number, end: number): string {
    if (!this.isBytes) return this.text.slice(start, end);
    return slicedBytes.decode(this.bytes.subarray(start, end));
  }

  /** `textOf` for a range known to hold only ASCII, which needs no UTF-8 decoding. */
  asciiTextOf(start: number, end: number): string {
    if (!this.isBytes) return this.text.slice(start, end);
    return asciiText(this.bytes, start, end);
  }

  /**
   * True when the last string read is `name`, compared in place when it has no escapes and, in
   * bytes, only ASCII (so that its bytes are its code units).
   */
  stringIs(name: string): boolean {
    if (this.stringEscaped || (this.isBytes && this.stringWide)) return this.stringValue() === name;
    const start = this.stringStart;
    if (this.stringEnd - start !== name.length) return false;
    if (!this.isBytes) return this.text.startsWith(name, start);
    const bytes = this.bytes;
    for (let k = 0; k < name.length; k++) {
      if (bytes[start + k] !== name.charCodeAt(k)) return false;
    }
    return true;
  }

  /**
   * Moves past `token` when the text at `pos` is exactly it, and says whether it was. The struct
   * decoder matches a whole `"key":` this way, one comparison where reading the key as a string,
   * looking it up and expecting the colon took five calls. A token is ASCII and holds no backslash
   * or control character (keyToken), so the match is exact on strings and bytes alike, and a key
   * written any other way (escaped, spaced) is read the general way. `codes` are the token's codes
   * (tokenCodes), compared with bytes: a string's `charCodeAt` costs more than a byte read.
   */
  skipToken(token: string, codes: Uint8Array = tokenCodes(token)): boolean {
    const start = this.pos;
    if (!this.isBytes) {
      if (!this.text.startsWith(token, start)) return false;
    } else {
      if (start + codes.length > this.end) return false;
      const bytes = this.bytes;
      for (let k = 0; k < codes.length; k++) {
        if (bytes[start + k] !== codes[k]) return false;
      }
    }
    this.pos = start + token.length;
    return true;
  }

  /** Reads the number at `pos`, with the grammar of JSON numbers. */
  readNumber(): void {
    const start = this.pos;
    let i = start;
    let c = this.codeAt(i);
    const negative = c === MINUS;
    if (negative) c = this.codeAt(++i);
    let value = 0;
    if (c === ZERO) {
      c = this.codeAt(++i);
    } else if (c >= ONE && c <= NINE) {
      do {
        value = value * 10 + c - ZERO;
        c = this.codeAt(++i);
      } while (c >= ZERO && c <= NINE);
    } else {
      throw LEAVE_FAST_PATH;
    }
    let exact = i - start - (negative ? 1 : 0) <= EXACT_DIGITS;
    if (c === DOT) {
      exact = false;
      i = this.digitsEnd(i + 1);
      c = this.codeAt(i);
    }
    if (c === LOWER_E || c === UPPER_E) {
      exact = false;
      c = this.codeAt(i + 1);
      i = this.digitsEnd(c === PLUS || c === MINUS ? i + 2 : i + 1);
    }
    this.numberStart = start;
    this.numberEnd = i;
    this.numberExact = exact ? (negative ? -value : value) : NaN;
    this.pos = i;
  }

  /** The position after the digits at `i`, of which there must be one at least. */
  private digitsEnd(i: number): number {
    const start = i;
    let c = this.codeAt(i);
    while (c >= ZERO && c <= NINE) c = this.codeAt(++i);
    if (i === start) throw LEAVE_FAST_PATH;
    return i;
  }

  /** The value of the last number read, as `JSON.parse` gives it. */
  numberValue(): number {
    const exact = this.numberExact;
    // NaN marks a number the cursor did not add up: it is not equal to itself
    return exact === exact ? exact : Number(this.asciiTextOf(this.numberStart, this.numberEnd));
  }

  /** Reads `true` or `false` at `pos` and returns it. */
  readBoolean(): boolean {
    if (this.codeAt(this.pos) === LOWER_T) {
      this.readWord(TRUE);
      return true;
    }
    this.readWord(FALSE);
    return false;
  }

  /** Reads `null` at `pos`. */
  readNull(): void {
    this.readWord(NULL);
  }

  private readWord(word: readonly number[]): void {
    for (let k = 0; k < word.length; k++) {
      if (this.codeAt(this.pos + k) !== word[k]) throw LEAVE_FAST_PATH;
    }
    this.pos += word.length;
  }

  /** Moves past the value at `pos`, checking its grammar. */
  skipValue(): void {
    const c = this.codeAt(this.pos);
    if (c === QUOTE) this.readString();
    else if (c === OPEN_BRACE) this.skipObject();
    else if (c === OPEN_BRACKET) this.skipArray();
    else if (c === LOWER_T || c === LOWER_F) this.readBoolean();
    else if (c === LOWER_N) this.readNull();
    else if (c === MINUS || (c >= ZERO && c <= NINE)) this.readNumber();
    else throw LEAVE_FAST_PATH;
  }

  private skipObject(): void {
    this.enterContainer();
    if (this.skipWhitespace() === CLOSE_BRACE) {
      this.leaveContainer();
      return;
    }
    do {
      if (this.codeAt(this.pos) !== QUOTE) throw LEAVE_FAST_PATH;
      this.readString();
      this.expectColon();
      this.skipValue();
    } while (this.nextMember(CLOSE_BRACE));
  }

  private skipArray(): void {
    this.enterContainer();
    if (this.skipWhitespace() === CLOSE_BRACKET) {
      this.leaveContainer();
      return;
    }
    do this.skipValue();
    while (this.nextMember(CLOSE_BRACKET));
  }
}

/** Codes of the first character of each JSON value kind, for the decoders' dispatch. */
export const JSON_CODES = {
  quote: QUOTE,
  minus: MINUS,
  zero: ZERO,
  nine: NINE,
  openBrace: OPEN_BRACE,
  closeBrace: CLOSE_BRACE,
  openBracket: OPEN_BRACKET,
  lowerT: LOWER_T,
  lowerF: LOWER_F,
  lowerN: LOWER_N,
} as const;

const TRUE = [...'true'].map((c) => c.charCodeAt(0));
const FALSE = [...'false'].map((c) => c.charCodeAt(0));
const NULL = [...'null'].map((c) => c.charCodeAt(0));

/**
 * The text `"name":` that skipToken matches for a key, or undefined when the name would need an
 * escape or is not ASCII (a quote, a backslash, a control character, a code beyond 0x7f): such a
 * key never appears as that text, and is read the general way.
 */
export function keyToken(name: string): string | undefined {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < SPACE || c === QUOTE || c === BACKSLASH || c >= FIRST_NON_ASCII) return undefined;
  }
  return `"${name}":`;
}

/** The codes of an ASCII token (keyToken), as bytes, for skipToken. */
export function tokenCodes(token: string): Uint8Array {
  return Uint8Array.from(token, (c) => c.charCodeAt(0));
}

/** ASCII bytes as a string; short runs (keys, categories, numbers) are faster by char codes than by a decoder. */
function asciiText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 64) return slicedBytes.decode(bytes.subarray(start, end));
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

function isHexDigit(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
