/**
 * SQL expressions to the expression tree the DataFrame API builds, with Spark's precedence, from
 * loosest to tightest:
 *
 *   OR < AND < NOT < predicates (BETWEEN, IN, LIKE, RLIKE, IS [NOT] NULL/TRUE/FALSE/DISTINCT FROM)
 *   < comparisons (= == <> != < <= > >= <=>) < + - || < * / % < unary - + < `::`, `.field`
 *
 * Forms the expression tree has no node for are rewritten into ones it has, with Spark's null
 * semantics: `x BETWEEN a AND b` is `x >= a AND x <= b`, `x IN (a, b)` is `x = a OR x = b` (null
 * when no element matches and one is null), `a || b` is `concat(a, b)`, `-x` is `0 - x`,
 * `x IS TRUE` is `x <=> true`, `CASE x WHEN v` is `CASE WHEN x = v`.
 *
 * Literals are typed as in Spark, where the engine has the type: `1` int (bigint beyond 32 bits),
 * `1L` bigint, `1S`/`1Y` int, `1.5`, `1e3`, `1D`, `1F` and `1BD` double (the engine has no
 * decimal type), `TIMESTAMP '...'` and `DATE '...'` checked when parsed. An `INTERVAL` literal is
 * Spark's calendar interval (`ts + INTERVAL 1 hour`), except alone as a call's argument, where it
 * is the duration text `window()` and `session_window()` read.
 */
import type { FunctionLookup } from '../api/sql-front-end.js';
import { InvalidOptionError, ParseError } from '../errors.js';
import { WINDOW_FUNCTION_NAMES, windowed } from '../api/window-expression.js';
import { datePartFieldNames } from '../functions/date-arithmetic-functions.js';
import type {
  BinaryOperator,
  Expression,
  Literal,
  WindowFrame,
  WindowFunctionName,
  WindowOrder,
  WindowSpec,
} from '../expr/expression.js';
import {
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  IntegerType,
  LongType,
  NullType,
  StringType,
  TimestampType,
} from '../types/data-types.js';
import { calendarInterval, IntervalType } from '../types/calendar-interval.js';
import { parseInterval } from '../types/interval.js';
import { parseDate, parseTimestamp } from '../types/timestamp-text.js';
import { parseTypeName } from '../types/type-names.js';
import type { Token } from './sql-lexer.js';
import { sqlCallExpression } from './sql-functions.js';
import { errorAt, type TokenCursor } from './token-cursor.js';

/**
 * Words that end an expression or a select item: a bare alias or column cannot be one of them
 * (write it in backquotes).
 */
export const RESERVED = new Set([
  'ALL',
  'AND',
  'ANTI',
  'AS',
  'ASC',
  'BETWEEN',
  'BY',
  'CASE',
  'CROSS',
  'DESC',
  'DISTINCT',
  'ELSE',
  'END',
  'EXCEPT',
  'FROM',
  'FULL',
  'GROUP',
  'HAVING',
  'IN',
  'INNER',
  'INTERSECT',
  'IS',
  'JOIN',
  'LEFT',
  'LIKE',
  'ILIKE',
  'LIMIT',
  'MINUS',
  'NATURAL',
  'NOT',
  'NULLS',
  'ON',
  'OR',
  'ORDER',
  'REGEXP',
  'RIGHT',
  'RLIKE',
  'SELECT',
  'SEMI',
  'THEN',
  'UNION',
  'USING',
  'WHEN',
  'WHERE',
  'WITH',
]);

const COMPARISONS: Readonly<Record<string, BinaryOperator>> = {
  '=': '=',
  '==': '=',
  '<>': '!=',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '<=>': '<=>',
};

/** The units an INTERVAL literal may name, singular or plural. */
const INTERVAL_UNIT = /^(year|month|week|day|hour|minute|second|millisecond|microsecond)s?$/i;

/** Parses SQL expressions from a token cursor. */
export class ExpressionParser {
  constructor(
    private readonly cursor: TokenCursor,
    private readonly functions: FunctionLookup,
  ) {}

  /** One whole expression. */
  expression(): Expression {
    return this.or();
  }

  /** Comma-separated expressions, at least one. */
  expressionList(): Expression[] {
    const list = [this.expression()];
    while (this.cursor.acceptOperator(',')) list.push(this.expression());
    return list;
  }

  /** A data type as Spark names it (`int`, `array<string>`, `struct<a:int>`, `decimal(10,2)`). */
  dataType(): DataType {
    const first = this.cursor.peek();
    if (first.kind !== 'identifier') this.cursor.fail('a type name');
    this.cursor.next();
    if (this.cursor.isOperator('<')) this.skipBalanced('<', '>');
    if (this.cursor.isOperator('(')) this.skipBalanced('(', ')');
    const text = this.cursor.textFrom(first);
    try {
      return parseTypeName(text);
    } catch (error) {
      if (!(error instanceof InvalidOptionError)) throw error;
      throw errorAt(first, `'${text}' is not a type`);
    }
  }

  private or(): Expression {
    let left = this.and();
    while (this.cursor.acceptKeyword('OR')) left = binary('or', left, this.and());
    return left;
  }

  private and(): Expression {
    let left = this.not();
    while (this.cursor.acceptKeyword('AND')) left = binary('and', left, this.not());
    return left;
  }

  private not(): Expression {
    if (this.cursor.acceptKeyword('NOT') || this.cursor.acceptOperator('!')) {
      return { kind: 'not', child: this.not() };
    }
    return this.predicated();
  }

  private predicated(): Expression {
    const value = this.comparison();
    const negated = this.cursor.isKeyword('NOT') && this.isPredicateKeyword(1);
    if (negated) this.cursor.next();
    const predicate = this.predicate(value);
    if (!predicate) {
      if (negated) this.cursor.fail('BETWEEN, IN, LIKE or RLIKE after NOT');
      return value;
    }
    return negated ? { kind: 'not', child: predicate } : predicate;
  }

  private isPredicateKeyword(ahead: number): boolean {
    return this.cursor.isKeyword(['BETWEEN', 'IN', 'LIKE', 'ILIKE', 'RLIKE', 'REGEXP'], ahead);
  }

  private predicate(value: Expression): Expression | undefined {
    const c = this.cursor;
    if (c.acceptKeyword('BETWEEN')) {
      const low = this.comparison();
      c.expectKeyword('AND');
      const high = this.comparison();
      return binary('and', binary('>=', value, low), binary('<=', value, high));
    }
    if (c.acceptKeyword('IN')) return this.inList(value);
    if (c.isKeyword(['LIKE', 'ILIKE'])) {
      const name = c.next().text.toLowerCase();
      const pattern = this.comparison();
      const escape: Expression[] = c.acceptKeyword('ESCAPE')
        ? [
            {
              kind: 'literal',
              value: this.stringLiteral('an escape character'),
              dataType: StringType,
            },
          ]
        : [];
      return { kind: 'call', name, args: [value, pattern, ...escape] };
    }
    if (c.acceptKeyword('RLIKE') || c.acceptKeyword('REGEXP')) {
      return { kind: 'call', name: 'rlike', args: [value, this.comparison()] };
    }
    if (c.acceptKeyword('IS')) return this.isPredicate(value);
    return undefined;
  }

  private inList(value: Expression): Expression {
    const c = this.cursor;
    c.expectOperator('(');
    if (c.isKeyword(['SELECT', 'WITH'])) {
      throw errorAt(c.peek(), 'IN (subquery) is not supported; join with LEFT SEMI JOIN instead');
    }
    const items = this.expressionList();
    c.expectOperator(')');
    return items
      .map((item) => binary('=', value, item))
      .reduce((either, next) => binary('or', either, next));
  }

  private isPredicate(value: Expression): Expression {
    const c = this.cursor;
    const negated = c.acceptKeyword('NOT');
    const not = (e: Expression): Expression => (negated ? { kind: 'not', child: e } : e);
    if (c.acceptKeyword('NULL')) return { kind: 'isNull', child: value, negated };
    if (c.isKeyword(['TRUE', 'FALSE'])) {
      const truth = c.next().text.toUpperCase() === 'TRUE';
      return not(binary('<=>', value, { kind: 'literal', value: truth, dataType: BooleanType }));
    }
    if (c.acceptKeyword('DISTINCT')) {
      c.expectKeyword('FROM');
      const other = this.comparison();
      return negated
        ? binary('<=>', value, other)
        : { kind: 'not', child: binary('<=>', value, other) };
    }
    return c.fail('NULL, TRUE, FALSE or DISTINCT FROM after IS');
  }

  private comparison(): Expression {
    let left = this.additive();
    for (;;) {
      const token = this.cursor.peek();
      const op = token.kind === 'operator' ? COMPARISONS[token.text] : undefined;
      if (!op) return left;
      this.cursor.next();
      left = binary(op, left, this.additive());
    }
  }

  private additive(): Expression {
    let left = this.multiplicative();
    for (;;) {
      if (this.cursor.acceptOperator('+')) left = binary('+', left, this.multiplicative());
      else if (this.cursor.acceptOperator('-')) left = binary('-', left, this.multiplicative());
      else if (this.cursor.acceptOperator('||')) {
        left = { kind: 'call', name: 'concat', args: [left, this.multiplicative()] };
      } else return left;
    }
  }

  private multiplicative(): Expression {
    let left = this.unary();
    for (;;) {
      const token = this.cursor.peek();
      if (token.kind === 'operator' && ['*', '/', '%'].includes(token.text)) {
        this.cursor.next();
        left = binary(token.text as BinaryOperator, left, this.unary());
      } else if (this.cursor.isKeyword('DIV')) {
        throw errorAt(token, 'integer division (DIV) is not supported; use floor(a / b)');
      } else if (token.kind === 'operator' && ['&', '|', '^'].includes(token.text)) {
        throw errorAt(token, `the bitwise operator '${token.text}' is not supported`);
      } else return left;
    }
  }

  private unary(): Expression {
    const c = this.cursor;
    if (c.acceptOperator('+')) return this.unary();
    if (c.isOperator('~')) throw errorAt(c.peek(), "the bitwise operator '~' is not supported");
    if (!c.acceptOperator('-')) return this.postfix();
    const operand = this.unary();
    if (operand.kind === 'literal' && typeof operand.value === 'number') {
      return { ...operand, value: -operand.value };
    }
    return binary('-', { kind: 'literal', value: 0, dataType: IntegerType }, operand);
  }

  private postfix(): Expression {
    let e = this.primary();
    for (;;) {
      const c = this.cursor;
      if (c.acceptOperator('::')) {
        e = { kind: 'cast', child: e, to: this.dataType() };
      } else if (c.isOperator('.')) {
        c.next();
        e = this.fieldAccess(e);
      } else if (c.isOperator('[')) {
        throw errorAt(c.peek(), 'subscripts (x[i]) are not supported yet');
      } else return e;
    }
  }

  /** `e.name` after the dot: a longer column path, or a struct field of a computed value. */
  private fieldAccess(e: Expression): Expression {
    const c = this.cursor;
    if (e.kind === 'column' && e.path[e.path.length - 1] !== '*') {
      if (c.acceptOperator('*')) return { kind: 'column', path: [...e.path, '*'] };
      return { kind: 'column', path: [...e.path, this.name()] };
    }
    return { kind: 'call', name: 'get_field', args: [e], options: { field: this.name() } };
  }

  /** An identifier, quoted or not (keywords included: after a dot, any word is a name). */
  private name(): string {
    const token = this.cursor.peek();
    if (token.kind !== 'identifier') this.cursor.fail('a name');
    return this.cursor.next().text;
  }

  private primary(): Expression {
    const c = this.cursor;
    const token = c.peek();
    switch (token.kind) {
      case 'number':
        c.next();
        return numberLiteral(token);
      case 'string':
        return { kind: 'literal', value: this.stringLiteral('a string'), dataType: StringType };
      case 'operator':
        if (c.acceptOperator('(')) {
          if (c.isKeyword(['SELECT', 'WITH'])) {
            throw errorAt(c.peek(), 'subqueries in expressions are not supported');
          }
          const inner = this.expression();
          c.expectOperator(')');
          return inner;
        }
        if (c.acceptOperator('*')) return { kind: 'column', path: ['*'] };
        return c.fail('an expression');
      case 'identifier':
        return this.identifierPrimary(token);
      case 'end':
        return c.fail('an expression');
    }
  }

  private identifierPrimary(token: Token): Expression {
    const c = this.cursor;
    const word = token.quoted ? '' : token.text.toUpperCase();
    const next = c.peek(1);
    const followedByString = next.kind === 'string';
    if (word === 'NULL') return this.take({ kind: 'literal', value: null, dataType: NullType });
    if (word === 'TRUE' || word === 'FALSE') {
      return this.take({ kind: 'literal', value: word === 'TRUE', dataType: BooleanType });
    }
    if (word === 'CASE') return this.caseWhen();
    if (word === 'CAST' && c.isOperator('(', 1)) return this.cast();
    if (word === 'EXTRACT' && c.isOperator('(', 1)) return this.extract();
    if (
      word === 'INTERVAL' &&
      (followedByString || next.kind === 'number' || c.isOperator('-', 1))
    ) {
      return this.intervalValue();
    }
    if ((word === 'TIMESTAMP' || word === 'DATE') && followedByString)
      return this.typedLiteral(word);
    if (word === 'X' && followedByString && next.start === token.end) return this.binaryLiteral();
    if (c.isOperator('(', 1)) return this.call();
    if (word === 'CURRENT_TIMESTAMP' || word === 'CURRENT_DATE') {
      c.next();
      return { kind: 'call', name: word.toLowerCase(), args: [] };
    }
    if (RESERVED.has(word)) c.fail('an expression');
    c.next();
    return { kind: 'column', path: [token.text] };
  }

  private take(e: Expression): Expression {
    this.cursor.next();
    return e;
  }

  /** One or more adjacent string tokens, concatenated as Spark does (`'a' 'b'` is `'ab'`). */
  private stringLiteral(what: string): string {
    const c = this.cursor;
    if (c.peek().kind !== 'string') c.fail(what);
    let value = '';
    while (c.peek().kind === 'string') value += c.next().text;
    return value;
  }

  private call(): Expression {
    const c = this.cursor;
    const token = c.next();
    c.expectOperator('(');
    const distinct = c.acceptKeyword('DISTINCT');
    if (!distinct) c.acceptKeyword('ALL');
    const star = !distinct && c.isOperator('*') && c.isOperator(')', 1);
    if (star) c.next();
    const args = star || c.isOperator(')') ? [] : this.callArguments();
    c.expectOperator(')');
    if (c.isKeyword('FILTER'))
      throw errorAt(c.peek(), 'aggregate FILTER clauses are not supported');
    const name = token.text.toLowerCase() as WindowFunctionName;
    const windowCall = WINDOW_FUNCTION_NAMES.includes(name) && c.isKeyword('OVER');
    const fn: Expression = windowCall
      ? { kind: 'call', name, args }
      : sqlCallExpression(
          { name: token.text, args, star, distinct, token },
          constantText,
          this.functions,
        );
    if (!c.isKeyword('OVER')) return fn;
    const over = c.next();
    try {
      return windowed(fn, this.windowSpec());
    } catch (error) {
      if (error instanceof ParseError) throw error;
      throw errorAt(over, (error as Error).message.replace(/\.$/, ''));
    }
  }

  /** `(PARTITION BY e, ... ORDER BY key, ... [ROWS | RANGE] frame)` after OVER. */
  private windowSpec(): WindowSpec {
    const c = this.cursor;
    c.expectOperator('(');
    const partitionBy: Expression[] = [];
    if (c.acceptKeyword('PARTITION')) {
      c.expectKeyword('BY');
      partitionBy.push(...this.expressionList());
    }
    const orderBy: WindowOrder[] = [];
    if (c.acceptKeyword('ORDER')) {
      c.expectKeyword('BY');
      do orderBy.push(this.windowOrder());
      while (c.acceptOperator(','));
    }
    let frame: WindowFrame | undefined;
    if (c.isKeyword(['ROWS', 'RANGE'])) {
      const type = c.next().text.toLowerCase() as 'rows' | 'range';
      if (c.acceptKeyword('BETWEEN')) {
        const start = this.frameBound();
        c.expectKeyword('AND');
        frame = { type, start, end: this.frameBound() };
      } else frame = { type, start: this.frameBound(), end: 0 };
    }
    c.expectOperator(')');
    return frame ? { partitionBy, orderBy, frame } : { partitionBy, orderBy };
  }

  private windowOrder(): WindowOrder {
    const c = this.cursor;
    const expr = this.expression();
    const ascending = !c.acceptKeyword('DESC');
    if (ascending) c.acceptKeyword('ASC');
    let nullsFirst = ascending;
    if (c.acceptKeyword('NULLS')) {
      if (c.acceptKeyword('LAST')) nullsFirst = false;
      else {
        c.expectKeyword('FIRST');
        nullsFirst = true;
      }
    }
    return { expr, ascending, nullsFirst };
  }

  /** UNBOUNDED PRECEDING | n PRECEDING | CURRENT ROW | n FOLLOWING | UNBOUNDED FOLLOWING. */
  private frameBound(): number {
    const c = this.cursor;
    if (c.acceptKeyword('CURRENT')) {
      c.expectKeyword('ROW');
      return 0;
    }
    let size = Infinity;
    if (!c.acceptKeyword('UNBOUNDED')) {
      const token = c.peek();
      if (token.kind !== 'number') c.fail('UNBOUNDED, CURRENT ROW or a number');
      size = Number((numberLiteral(c.next()) as Literal).value);
    }
    if (c.acceptKeyword('PRECEDING')) return -size;
    c.expectKeyword('FOLLOWING');
    return size;
  }

  /**
   * Arguments of a call. An INTERVAL standing alone as an argument is passed as its text, the
   * duration `window()` and `session_window()` read; inside an expression it is an interval value.
   */
  private callArguments(): Expression[] {
    const args = [this.argument()];
    while (this.cursor.acceptOperator(',')) args.push(this.argument());
    return args;
  }

  private argument(): Expression {
    const c = this.cursor;
    const isInterval =
      c.isKeyword('INTERVAL') &&
      (['string', 'number'].includes(c.peek(1).kind) || c.isOperator('-', 1));
    return isInterval ? this.intervalText() : this.expression();
  }

  private caseWhen(): Expression {
    const c = this.cursor;
    c.expectKeyword('CASE');
    const operand = c.isKeyword('WHEN') ? undefined : this.expression();
    const branches: { when: Expression; then: Expression }[] = [];
    while (c.acceptKeyword('WHEN')) {
      const condition = this.expression();
      c.expectKeyword('THEN');
      const when = operand ? binary('=', operand, condition) : condition;
      branches.push({ when, then: this.expression() });
    }
    if (branches.length === 0) c.fail('WHEN');
    const otherwise = c.acceptKeyword('ELSE') ? this.expression() : undefined;
    c.expectKeyword('END');
    return otherwise ? { kind: 'caseWhen', branches, otherwise } : { kind: 'caseWhen', branches };
  }

  private cast(): Expression {
    const c = this.cursor;
    c.next();
    c.expectOperator('(');
    const child = this.expression();
    c.expectKeyword('AS');
    const to = this.dataType();
    c.expectOperator(')');
    return { kind: 'cast', child, to };
  }

  private extract(): Expression {
    const c = this.cursor;
    c.next();
    c.expectOperator('(');
    const unit = c.peek();
    const known =
      unit.kind === 'identifier' && datePartFieldNames.includes(unit.text.toUpperCase());
    if (!known) return c.fail(`one of ${datePartFieldNames.join(', ')}`);
    c.next();
    c.expectKeyword('FROM');
    const source = this.expression();
    c.expectOperator(')');
    const field: Expression = {
      kind: 'literal',
      value: unit.text.toUpperCase(),
      dataType: StringType,
    };
    return { kind: 'call', name: 'date_part', args: [field, source] };
  }

  /** An INTERVAL literal as Spark's calendar interval (months, days, microseconds): `ts + INTERVAL 1 hour`. */
  private intervalValue(): Expression {
    const text = this.intervalText().value as string;
    return { kind: 'literal', value: calendarInterval(text), dataType: IntervalType };
  }

  /**
   * `INTERVAL '1' HOUR`, `INTERVAL 1 hour 30 minutes`, `INTERVAL '1 10:30' DAY TO MINUTE`,
   * `INTERVAL '10 minutes'`: checked now, kept as its text for the function that reads it.
   */
  private intervalText(): Literal {
    const c = this.cursor;
    const first = c.next();
    do {
      c.acceptOperator('-');
      if (c.peek().kind !== 'string' && c.peek().kind !== 'number') c.fail('an interval value');
      c.next();
      if (this.isIntervalUnit()) {
        c.next();
        if (c.acceptKeyword('TO')) {
          if (!this.isIntervalUnit()) c.fail('an interval unit');
          c.next();
        }
      }
    } while (['string', 'number'].includes(c.peek().kind) || c.isOperator('-'));
    const text = c.textFrom(first);
    try {
      parseInterval(text, 'interval literal');
    } catch (error) {
      if (!(error instanceof InvalidOptionError)) throw error;
      throw errorAt(first, `'${text}' is not an interval`);
    }
    return { kind: 'literal', value: text, dataType: StringType };
  }

  private isIntervalUnit(): boolean {
    const token = this.cursor.peek();
    return token.kind === 'identifier' && !token.quoted && INTERVAL_UNIT.test(token.text);
  }

  private typedLiteral(word: 'TIMESTAMP' | 'DATE'): Expression {
    this.cursor.next();
    const token = this.cursor.peek();
    const text = this.stringLiteral('a string');
    const value = word === 'DATE' ? parseDate(text) : parseTimestamp(text);
    if (value === null) throw errorAt(token, `'${text}' is not a valid ${word.toLowerCase()}`);
    return { kind: 'literal', value, dataType: word === 'DATE' ? DateType : TimestampType };
  }

  private binaryLiteral(): Expression {
    this.cursor.next();
    const token = this.cursor.next();
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(token.text)) {
      throw errorAt(token, `X'${token.text}' is not hexadecimal bytes`);
    }
    const bytes = Uint8Array.from(token.text.match(/../g) ?? [], (h) => parseInt(h, 16));
    return { kind: 'literal', value: bytes, dataType: BinaryType };
  }

  private skipBalanced(open: string, close: string): void {
    const c = this.cursor;
    let depth = 0;
    do {
      const token = c.next();
      if (token.kind === 'end') c.fail(`'${close}'`, token);
      if (token.kind === 'operator' && token.text === open) depth++;
      if (token.kind === 'operator' && token.text === close) depth--;
    } while (depth > 0);
  }
}

/** The text of a string or INTERVAL literal given where a constant is expected. */
function constantText(e: Expression, what: string): string {
  if (e.kind === 'literal' && typeof e.value === 'string') return e.value;
  throw new InvalidOptionError(`The ${what} must be a string or INTERVAL literal.`);
}

function binary(op: BinaryOperator, left: Expression, right: Expression): Expression {
  return { kind: 'binary', op, left, right };
}

/** A number's type from its form and suffix, as Spark's literals (decimals read as double). */
function numberLiteral(token: Token): Literal {
  const suffix = /(BD|[LSYDF])$/i.exec(token.text)?.[0] ?? '';
  const digits = token.text.slice(0, token.text.length - suffix.length);
  const value = Number(digits);
  const upper = suffix.toUpperCase();
  const integral = /^[0-9]+$/.test(digits);
  if (upper === 'D' || upper === 'F' || upper === 'BD' || !integral) {
    return { kind: 'literal', value, dataType: DoubleType };
  }
  if (!Number.isSafeInteger(value)) {
    throw errorAt(token, `${token.text} is out of range: integers are limited to ±(2^53 - 1)`);
  }
  const isInt = value <= 2147483647;
  if ((upper === 'S' && value > 32767) || (upper === 'Y' && value > 127)) {
    throw errorAt(
      token,
      `${token.text} is out of range for a ${upper === 'S' ? 'smallint' : 'tinyint'}`,
    );
  }
  if (upper === 'L' || !isInt) return { kind: 'literal', value, dataType: LongType };
  return { kind: 'literal', value, dataType: IntegerType };
}
