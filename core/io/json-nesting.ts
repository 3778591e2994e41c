/**
 * The nesting limit of JSON records. Spark's JSON parser (Jackson's StreamReadConstraints) refuses
 * documents nested deeper than 1000 arrays and objects, and so do the readers here: such a record
 * is malformed and follows the parse mode. Without a limit, a deep record would overflow the stack
 * of every recursive step after `JSON.parse` (rendering a value as text, inferring its type), with
 * a RangeError that no parse mode can handle.
 */

/** How many arrays and objects a record may nest, as in Spark. */
export const MAX_JSON_NESTING_DEPTH = 1000;

/**
 * The position of the first `[` or `{` of `text` that opens a level deeper than
 * MAX_JSON_NESTING_DEPTH, outside strings; -1 when there is none. Text shorter than the limit
 * cannot nest that deep, so the common record costs no scan.
 */
export function tooDeepAt(text: string): number {
  if (text.length <= MAX_JSON_NESTING_DEPTH) return -1;
  let depth = 0;
  let quote = 0; // the code of the quote that opened the string we are in, 0 outside strings
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === BACKSLASH) i++;
      else if (c === quote) quote = 0;
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      quote = c;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > MAX_JSON_NESTING_DEPTH) return i;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return -1;
}

const BACKSLASH = 0x5c;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
