/**
 * A string record's UTF-8 bytes, written into one reused buffer for the JSON cursor. Reading a
 * string code unit by code unit (`charCodeAt`) cost several times what reading bytes costs, and
 * `TextEncoder.encodeInto` writes a record's bytes for a fraction of that, so the decoder scans
 * the bytes of every string record and the JSON cursor's hot loops see one form only.
 *
 * The bytes are exact: the cursor decodes what it slices from them back to the same characters,
 * because a well-formed string and its UTF-8 bytes hold the same code points. A string with a lone
 * surrogate is not well-formed (UTF-8 has no bytes for it; `encodeInto` would write U+FFFD in its
 * place), so it is refused and the decoder reads that record as a string.
 */

/** Surrogates not part of a pair: with the `u` flag a pair is one code point, never matched. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The smallest buffer; it grows to three bytes per code unit of the longest record written. */
const INITIAL_BYTES = 4096;

/** Holds the UTF-8 bytes of the last string written, or a copy of the last bytes copied. */
export class TextBytes {
  private readonly encoder = new TextEncoder();
  /** The buffer; the last string's bytes are its first `length` bytes. */
  bytes = new Uint8Array(INITIAL_BYTES);
  /**
   * A view of `bytes`, for reading four bytes at once: the shape decoder (json-shape-decoder.ts)
   * compares and scans a record a word at a time, which a DataView does at any offset.
   */
  view = new DataView(this.bytes.buffer);
  /** How many bytes the last string took. */
  length = 0;

  /**
   * Writes `text`'s UTF-8 bytes at the start of `bytes`; false, writing nothing, when `text` has a
   * lone surrogate, which has no UTF-8 form.
   */
  write(text: string): boolean {
    // A code unit takes at most three bytes (a pair, two units, takes four).
    if (text.length * 3 > this.bytes.length) this.grow(text.length * 3);
    const written = this.encoder.encodeInto(text, this.bytes).written;
    // Fewer bytes than code units is impossible; more means a character beyond ASCII, maybe a surrogate.
    if (written !== text.length && LONE_SURROGATE.test(text)) return false;
    this.length = written;
    return true;
  }

  /**
   * Copies `record` to the start of `bytes`: a record's own bytes (a Kafka value) come in buffers
   * of their own, and one buffer with one view costs a copy where a view per record costs an
   * object and keeps V8 from specialising the reads.
   */
  copy(record: Uint8Array): void {
    if (record.length > this.bytes.length) this.grow(record.length * 2);
    this.bytes.set(record);
    this.length = record.length;
  }

  private grow(size: number): void {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }
}
