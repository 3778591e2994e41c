/**
 * The SQL lexer: text to tokens, as Spark's SqlBaseLexer cuts it.
 *
 * - Identifiers are letters, digits and `_` not starting with a digit, or backquoted (`` `a b` ``,
 *   a doubled backquote standing for one); keywords are identifiers the parser recognizes by their
 *   uppercase text, so a quoted identifier is never a keyword.
 * - Strings are single- or double-quoted (Spark reads `"x"` as a string, not a name), with
 *   backslash escapes (`\n`, `\t`, `\\`, `\'`, `\uXXXX`, ...) and a doubled quote for one quote;
 *   an `r` prefix (`r'C:\x'`) turns escapes off.
 * - Numbers keep their text and suffix (`1L`, `1S`, `1Y`, `1.5D`, `1F`, `1BD`, `1e3`); the parser
 *   gives them their type.
 * - `--` comments run to the end of the line, `/* *\/` comments nest, as in Spark.
 *
 * Every token knows its line and column (1-based) for error messages.
 */
import { ParseError } from '../errors.js';

/** What a token is. */
export type TokenKind = 'identifier' | 'string' | 'number' | 'operator' | 'end';

/** One token of SQL text. */
export interface Token {
  readonly kind: TokenKind;
  /** An identifier's name, a string's value, a number's digits and suffix, an operator's symbol. */
  readonly text: string;
  /** True for a backquoted identifier: never a keyword. */
  readonly quoted: boolean;
  /** Offsets into the SQL text: the token is `sql.slice(start, end)`. */
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
}

/** Operators, longest first so that `<=>` wins over `<=` and `<`. */
const OPERATORS = [
  '<=>',
  '::',
  '<=',
  '>=',
  '<>',
  '!=',
  '==',
  '||',
  '<',
  '>',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  ',',
  '.',
  ':',
  ';',
  '!',
  '[',
  ']',
  '&',
  '|',
  '^',
  '~',
];

const ESCAPES: Record<string, string> = {
  '0': '\0',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  '%': '\\%',
  _: '\\_',
};

/** Cuts `sql` into tokens, ending with an `end` token; a character that starts no token is a ParseError. */
export function tokenize(sql: string): Token[] {
  return new Lexer(sql).tokens();
}

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  /** Where the token being read starts (a string may span lines). */
  private tokenLine = 1;
  private tokenColumn = 1;

  constructor(private readonly sql: string) {}

  tokens(): Token[] {
    const tokens: Token[] = [];
    for (;;) {
      this.skipSpaceAndComments();
      const token = this.next();
      tokens.push(token);
      if (token.kind === 'end') return tokens;
    }
  }

  private next(): Token {
    const start = this.pos;
    this.tokenLine = this.line;
    this.tokenColumn = start - this.lineStart + 1;
    const c = this.sql[start];
    if (c === undefined) return this.token('end', '', start, false);
    if ((c === 'r' || c === 'R') && (this.sql[start + 1] === "'" || this.sql[start + 1] === '"')) {
      this.pos++;
      return this.string(start, false);
    }
    if (c === "'" || c === '"') return this.string(start, true);
    if (c === '`') return this.quotedIdentifier(start);
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(this.sql[start + 1] ?? ''))) {
      return this.number(start);
    }
    const word = /[A-Za-z_][A-Za-z0-9_]*/y;
    word.lastIndex = start;
    const m = word.exec(this.sql);
    if (m) {
      this.pos += m[0].length;
      return this.token('identifier', m[0], start, false);
    }
    const op = OPERATORS.find((o) => this.sql.startsWith(o, start));
    if (!op) this.fail(start, `unexpected character '${c}'`);
    this.pos += op.length;
    return this.token('operator', op, start, false);
  }

  private string(start: number, escapes: boolean): Token {
    const quote = this.sql[this.pos];
    let value = '';
    this.pos++;
    for (;;) {
      const c = this.sql[this.pos];
      if (c === undefined)
        this.fail(start, `the string starting here is never closed with ${quote}`);
      if (c === quote) {
        if (this.sql[this.pos + 1] !== quote) break;
        value += quote;
        this.pos += 2;
        continue;
      }
      if (c === '\\' && escapes) {
        value += this.escape(start);
        continue;
      }
      if (c === '\n') this.newLine(this.pos + 1);
      value += c;
      this.pos++;
    }
    this.pos++;
    return this.token('string', value, start, false);
  }

  /** The character an escape at `pos` stands for (Spark's unescapeSQLString). */
  private escape(start: number): string {
    const c = this.sql[this.pos + 1];
    if (c === undefined) this.fail(start, 'the string starting here is never closed');
    if (c === 'u') {
      const hex = /^[0-9a-fA-F]{4}/.exec(this.sql.slice(this.pos + 2, this.pos + 6));
      if (hex) {
        this.pos += 6;
        return String.fromCharCode(parseInt(hex[0], 16));
      }
    }
    this.pos += 2;
    return ESCAPES[c] ?? c;
  }

  private quotedIdentifier(start: number): Token {
    let name = '';
    this.pos++;
    for (;;) {
      const c = this.sql[this.pos];
      if (c === undefined) this.fail(start, 'the identifier starting here is never closed with `');
      if (c === '`') {
        if (this.sql[this.pos + 1] !== '`') break;
        this.pos++;
      }
      name += c;
      this.pos++;
    }
    this.pos++;
    return this.token('identifier', name, start, true);
  }

  private number(start: number): Token {
    const number =
      /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?:BD|[LSYDF])?(?![A-Za-z0-9_])/iy;
    number.lastIndex = start;
    const m = number.exec(this.sql);
    if (!m) {
      const word = /[0-9A-Za-z_.]*/y;
      word.lastIndex = start;
      this.fail(start, `'${word.exec(this.sql)?.[0]}' is not a number`);
    }
    this.pos += m[0].length;
    return this.token('number', m[0], start, false);
  }

  private skipSpaceAndComments(): void {
    for (;;) {
      const c = this.sql[this.pos];
      if (c === '\n') {
        this.newLine(this.pos + 1);
        this.pos++;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        this.pos++;
      } else if (c === '-' && this.sql[this.pos + 1] === '-') {
        while (this.pos < this.sql.length && this.sql[this.pos] !== '\n') this.pos++;
      } else if (c === '/' && this.sql[this.pos + 1] === '*') {
        this.bracketedComment();
      } else {
        return;
      }
    }
  }

  private bracketedComment(): void {
    const start = this.pos;
    let depth = 0;
    do {
      if (this.pos >= this.sql.length)
        this.fail(start, 'the comment starting here is never closed');
      if (this.sql.startsWith('/*', this.pos)) {
        depth++;
        this.pos += 2;
      } else if (this.sql.startsWith('*/', this.pos)) {
        depth--;
        this.pos += 2;
      } else {
        if (this.sql[this.pos] === '\n') this.newLine(this.pos + 1);
        this.pos++;
      }
    } while (depth > 0);
  }

  private newLine(lineStart: number): void {
    this.line++;
    this.lineStart = lineStart;
  }

  private token(kind: TokenKind, text: string, start: number, quoted: boolean): Token {
    const [line, column] = [this.tokenLine, this.tokenColumn];
    return { kind, text, quoted, start, end: this.pos, line, column };
  }

  /** Errors are rare: the position of `offset` is counted from the text rather than tracked. */
  private fail(offset: number, problem: string): never {
    const before = this.sql.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    throw new ParseError(
      `Syntax error at line ${line}, column ${column}: ${problem}.`,
      line,
      column,
    );
  }
}
