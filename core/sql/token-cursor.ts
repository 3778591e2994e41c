/**
 * The parser's position in the token list: look at the next token, take it when it is the
 * expected keyword or operator, or fail naming where and what was expected.
 */
import { ParseError } from '../errors.js';
import { type Token, tokenize } from './sql-lexer.js';

/** A cursor over the tokens of one SQL text. */
export class TokenCursor {
  private readonly tokens: Token[];
  private index = 0;

  constructor(readonly sql: string) {
    this.tokens = tokenize(sql);
  }

  /** The next token, not taken (`ahead` tokens further on when given). */
  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
  }

  /** Takes the next token. */
  next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  /** True when the next token (or the one `ahead` further) is one of the keywords, unquoted. */
  isKeyword(keywords: string | readonly string[], ahead = 0): boolean {
    const token = this.peek(ahead);
    if (token.kind !== 'identifier' || token.quoted) return false;
    const upper = token.text.toUpperCase();
    return typeof keywords === 'string' ? upper === keywords : keywords.includes(upper);
  }

  /** True when the next token is the operator. */
  isOperator(op: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'operator' && token.text === op;
  }

  /** Takes the next token when it is the keyword. */
  acceptKeyword(keyword: string): boolean {
    if (!this.isKeyword(keyword)) return false;
    this.index++;
    return true;
  }

  /** Takes the next token when it is the operator. */
  acceptOperator(op: string): boolean {
    if (!this.isOperator(op)) return false;
    this.index++;
    return true;
  }

  /** Takes the keyword, or fails naming it as expected. */
  expectKeyword(keyword: string): Token {
    if (!this.isKeyword(keyword)) this.fail(keyword);
    return this.next();
  }

  /** Takes the operator, or fails naming it as expected. */
  expectOperator(op: string): Token {
    if (!this.isOperator(op)) this.fail(`'${op}'`);
    return this.next();
  }

  /** The source text from the start of `first` to the end of the last token taken. */
  textFrom(first: Token): string {
    return this.sql.slice(first.start, this.tokens[Math.max(this.index - 1, 0)].end);
  }

  /** A ParseError at the next token: "expected X, found 'Y'". */
  fail(expected: string, at: Token = this.peek()): never {
    throw errorAt(at, `expected ${expected}, found ${describe(at)}`);
  }
}

/** A ParseError at `token`, with `problem` after the position. */
export function errorAt(token: Token, problem: string): ParseError {
  return new ParseError(
    `Syntax error at line ${token.line}, column ${token.column}: ${problem}.`,
    token.line,
    token.column,
  );
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the text';
  if (token.kind === 'string') return `the string '${token.text}'`;
  return `'${token.text}'`;
}
