import { describe, expect, it } from 'vitest';
import { JsonTextCursor, keyToken, LEAVE_FAST_PATH } from '../../core/io/json-text-cursor.js';

/** The cursor on `text` as a string and as UTF-8 bytes. */
function cursors(text: string): JsonTextCursor[] {
  return [text, new TextEncoder().encode(text)].map((form) => {
    const cursor = new JsonTextCursor();
    cursor.reset(form);
    return cursor;
  });
}

/** What skipping the value at the start of `text` gives: the position after it, or 'leave'. */
function skipped(cursor: JsonTextCursor): number | 'leave' {
  try {
    cursor.skipValue();
    return cursor.pos;
  } catch (e) {
    if (e === LEAVE_FAST_PATH) return 'leave';
    throw e;
  }
}

describe('the JSON text cursor', () => {
  it.each([
    ['0', 1],
    ['-0.5e+3,', 7],
    ['12345678901234567890]', 20],
    ['"a\\u00e9\\n"}', 11],
    ['[1, [true, false], {"k": null}]', 31],
    ['{}', 2],
    ['01', 1], // the 1 is left for the caller, who finds no comma there
  ])('moves past the standard JSON value at the start of %j', (text, end) => {
    for (const cursor of cursors(text)) expect(skipped(cursor)).toBe(end);
  });

  it.each([
    ['-'],
    ['1.'],
    ['.5'],
    ['1e'],
    ['+1'],
    ["'single'"],
    ['NaN'],
    ['tru'],
    ['"bad \\x escape"'],
    ['"\\u12g4"'],
    ['"raw \u0001 control"'],
    ['"never closed'],
    ['[1,]'],
    ['{"k" 1}'],
    ['/* comment */ 1'],
    [`${'['.repeat(1001)}${']'.repeat(1001)}`],
  ])(
    'leaves the fast path at %j, which JSON.parse refuses or only the general reading reads',
    (text) => {
      for (const cursor of cursors(text)) expect(skipped(cursor)).toBe('leave');
    },
  );

  it.each([
    ['0', 0],
    ['-0', -0],
    ['123456789012345', 123456789012345],
    ['9007199254740993', 9007199254740992],
    ['1.5e3', 1500],
    ['1e400', Infinity],
  ])('reads the number %s as JSON.parse does', (text, value) => {
    for (const cursor of cursors(text)) {
      cursor.readNumber();
      expect(cursor.numberValue()).toBe(value);
      expect(cursor.numberValue()).toBe(JSON.parse(text));
    }
  });

  it.each([
    ['"plain"', 'plain', false],
    ['"é€😀"', 'é€😀', false],
    ['"tab\\tquote\\"\\u00e9"', 'tab\tquote"é', true],
    ['"\ufeffbom"', '\ufeffbom', false],
  ])('reads the string %s as JSON.parse does', (text, value, escaped) => {
    for (const cursor of cursors(text)) {
      cursor.readString();
      expect([cursor.stringValue(), cursor.stringEscaped]).toEqual([value, escaped]);
      expect(cursor.stringIs(value)).toBe(true);
      expect(cursor.stringIs(`${value}x`)).toBe(false);
    }
  });
});

describe('the whole-key token', () => {
  it.each([
    ['ts', '"ts":'],
    ['a b', '"a b":'],
  ])('of %j is its quoted name and colon', (name, token) => {
    expect(keyToken(name)).toBe(token);
  });

  it.each([
    ['"ts":1', true, 5],
    ['"ts" :1', false, 0],
    ['"t\\u0073":1', false, 0],
    ['"tsx":1', false, 0],
    ['"ts"', false, 0],
  ])('is matched at the start of %j: %s, moving to %d', (text, matched, pos) => {
    for (const cursor of cursors(text)) {
      expect(cursor.skipToken('"ts":')).toBe(matched);
      expect(cursor.pos).toBe(pos);
    }
  });

  it.each([['a"b'], ['a\\b'], ['é'], ['\n']])(
    'of %j does not exist: the key is read the general way',
    (name) => {
      expect(keyToken(name)).toBeUndefined();
    },
  );
});
