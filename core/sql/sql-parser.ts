/**
 * The SQL parser: a statement's text to its syntax tree (sql-ast.ts), by recursive descent over
 * Spark SQL's grammar for queries:
 *
 *   statement  := [EXPLAIN] query [;]
 *   query      := [WITH name AS (query), ...] setTerm [ORDER BY key, ...] [LIMIT n | ALL]
 *   setTerm    := intersect {(UNION | EXCEPT | MINUS) [ALL | DISTINCT] intersect}
 *   intersect  := primary {INTERSECT [ALL | DISTINCT] primary}     (INTERSECT binds tighter)
 *   primary    := SELECT ... | (query)
 *   SELECT [DISTINCT | ALL] item, ... [FROM from] [WHERE e] [GROUP BY e, ...] [HAVING e]
 *   from       := source {, source | [NATURAL] [joinType] JOIN source [ON e | USING (names)]}
 *   source     := name [[AS] alias] | (query) [[AS] alias]
 *
 * Every syntax error is a ParseError naming the line and column of the token where it was found
 * and what was expected there.
 */
import { type FunctionLookup, NO_USER_FUNCTIONS } from '../api/sql-front-end.js';
import type { Expression } from '../expr/expression.js';
import type { JoinType } from '../plan/logical-plan.js';
import { ExpressionParser, RESERVED } from './expression-parser.js';
import type {
  SqlFrom,
  SqlOrderItem,
  SqlQuery,
  SqlQueryBody,
  SqlSelect,
  SqlSelectItem,
  SqlStatement,
} from './sql-ast.js';
import type { Token } from './sql-lexer.js';
import { errorAt, TokenCursor } from './token-cursor.js';

/**
 * Parses one SQL statement, whose calls may name `functions` besides the built-ins; a ParseError
 * names the position of the first problem.
 */
export function parseStatement(
  sql: string,
  functions: FunctionLookup = NO_USER_FUNCTIONS,
): SqlStatement {
  const parser = new QueryParser(new TokenCursor(sql), functions);
  return parser.statement();
}

/** Parses one SQL expression (what `expr()`, `selectExpr()` and `filter(text)` take). */
export function parseExpression(
  sql: string,
  functions: FunctionLookup = NO_USER_FUNCTIONS,
): Expression {
  const cursor = new TokenCursor(sql);
  const e = new ExpressionParser(cursor, functions).expression();
  if (cursor.peek().kind !== 'end') cursor.fail('the end of the expression');
  return e;
}

/** Parses a select item: an expression with an optional alias (`selectExpr('a + 1 AS b')`). */
export function parseSelectItem(sql: string, functions: FunctionLookup): SqlSelectItem {
  const cursor = new TokenCursor(sql);
  const item = new QueryParser(cursor, functions).selectItem();
  if (cursor.peek().kind !== 'end') cursor.fail('the end of the expression');
  return item;
}

const JOIN_WORDS = ['JOIN', 'INNER', 'CROSS', 'LEFT', 'RIGHT', 'FULL', 'SEMI', 'ANTI', 'NATURAL'];

/** What may follow a select list. */
const AFTER_SELECT_LIST = [
  'FROM',
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'UNION',
  'EXCEPT',
  'MINUS',
  'INTERSECT',
];

class QueryParser {
  private readonly expressions: ExpressionParser;
  /** The alias written without AS after the last select item: perhaps a misspelt keyword. */
  private bareAlias: Token | undefined;

  constructor(
    private readonly cursor: TokenCursor,
    functions: FunctionLookup,
  ) {
    this.expressions = new ExpressionParser(cursor, functions);
  }

  statement(): SqlStatement {
    const c = this.cursor;
    const explain = c.acceptKeyword('EXPLAIN');
    if (explain && c.isKeyword(['EXTENDED', 'FORMATTED', 'CODEGEN', 'COST'])) {
      throw errorAt(c.peek(), `EXPLAIN ${c.peek().text} is not supported; use EXPLAIN alone`);
    }
    if (!c.isKeyword(['SELECT', 'WITH']) && !c.isOperator('(')) c.fail('SELECT or WITH');
    const query = this.query();
    c.acceptOperator(';');
    if (c.peek().kind !== 'end') c.fail('the end of the statement');
    return { kind: explain ? 'explain' : 'query', query };
  }

  selectItem(): SqlSelectItem {
    const expr = this.expressions.expression();
    const bare = this.cursor.isKeyword('AS') ? undefined : this.cursor.peek();
    const alias = this.alias();
    this.bareAlias = alias !== undefined ? bare : undefined;
    return alias === undefined ? { expr } : { expr, alias };
  }

  private query(): SqlQuery {
    const c = this.cursor;
    const ctes: { name: string; query: SqlQuery }[] = [];
    if (c.acceptKeyword('WITH')) {
      do {
        const name = this.identifier('a name for the WITH query');
        c.expectKeyword('AS');
        c.expectOperator('(');
        ctes.push({ name, query: this.query() });
        c.expectOperator(')');
      } while (c.acceptOperator(','));
    }
    const body = this.setTerm();
    const orderBy = c.isKeyword('ORDER') ? this.orderBy() : [];
    const limit = c.acceptKeyword('LIMIT') ? this.limit() : undefined;
    return limit === undefined ? { ctes, body, orderBy } : { ctes, body, orderBy, limit };
  }

  private setTerm(): SqlQueryBody {
    let left = this.intersectTerm();
    while (this.cursor.isKeyword(['UNION', 'EXCEPT', 'MINUS'])) {
      const token = this.cursor.next();
      const operator = token.text.toUpperCase() === 'UNION' ? 'union' : 'except';
      const all = this.setQuantifier();
      left = { kind: 'setOperation', operator, all, left, right: this.intersectTerm(), token };
    }
    return left;
  }

  private intersectTerm(): SqlQueryBody {
    let left = this.primaryTerm();
    while (this.cursor.isKeyword('INTERSECT')) {
      const token = this.cursor.next();
      const all = this.setQuantifier();
      left = {
        kind: 'setOperation',
        operator: 'intersect',
        all,
        left,
        right: this.primaryTerm(),
        token,
      };
    }
    return left;
  }

  private setQuantifier(): boolean {
    if (this.cursor.acceptKeyword('ALL')) return true;
    this.cursor.acceptKeyword('DISTINCT');
    return false;
  }

  private primaryTerm(): SqlQueryBody {
    const c = this.cursor;
    if (c.acceptOperator('(')) {
      const query = this.query();
      c.expectOperator(')');
      return { kind: 'nested', query };
    }
    return this.select();
  }

  private select(): SqlSelect {
    const c = this.cursor;
    c.expectKeyword('SELECT');
    const distinct = c.acceptKeyword('DISTINCT');
    if (!distinct) c.acceptKeyword('ALL');
    const items = [this.selectItem()];
    while (c.acceptOperator(',')) items.push(this.selectItem());
    this.expectSelectListEnd();
    const from = c.acceptKeyword('FROM') ? this.from() : undefined;
    const where = c.acceptKeyword('WHERE') ? this.expressions.expression() : undefined;
    let groupBy: Expression[] = [];
    if (c.acceptKeyword('GROUP')) {
      c.expectKeyword('BY');
      groupBy = this.expressions.expressionList();
    }
    const having = c.acceptKeyword('HAVING') ? this.expressions.expression() : undefined;
    return {
      kind: 'select',
      distinct,
      items,
      groupBy,
      ...(from ? { from } : {}),
      ...(where ? { where } : {}),
      ...(having ? { having } : {}),
    };
  }

  /**
   * The select list ends at a clause keyword, `)`, `;` or the end. Anything else most likely
   * follows a misspelt FROM read as an alias (`SELECT a FORM t`): the error points at that word.
   */
  private expectSelectListEnd(): void {
    const c = this.cursor;
    const next = c.peek();
    const ends =
      next.kind === 'end' ||
      c.isOperator(')') ||
      c.isOperator(';') ||
      c.isKeyword(AFTER_SELECT_LIST);
    if (ends) return;
    if (this.bareAlias) c.fail('FROM', this.bareAlias);
    c.fail('FROM, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT or the end of the query');
  }

  /** `[AS] alias`; without AS, any identifier that is not a reserved word. */
  private alias(): string | undefined {
    const c = this.cursor;
    if (c.acceptKeyword('AS')) return this.identifier('an alias after AS');
    const token = c.peek();
    if (token.kind !== 'identifier') return undefined;
    if (!token.quoted && RESERVED.has(token.text.toUpperCase())) return undefined;
    return c.next().text;
  }

  private identifier(what: string): string {
    const token = this.cursor.peek();
    if (token.kind !== 'identifier') this.cursor.fail(what);
    return this.cursor.next().text;
  }

  private from(): SqlFrom {
    const c = this.cursor;
    let left = this.source();
    for (;;) {
      if (c.acceptOperator(',')) {
        left = { kind: 'join', left, right: this.source(), joinType: 'inner', natural: false };
      } else if (c.isKeyword(JOIN_WORDS)) {
        left = this.join(left);
      } else {
        return left;
      }
    }
  }

  private join(left: SqlFrom): SqlFrom {
    const c = this.cursor;
    const natural = c.acceptKeyword('NATURAL');
    const { joinType, cross } = this.joinType();
    c.expectKeyword('JOIN');
    const right = this.source();
    if (cross || natural) {
      if (c.isKeyword(['ON', 'USING'])) {
        throw errorAt(c.peek(), `a ${cross ? 'CROSS' : 'NATURAL'} JOIN takes no ON or USING`);
      }
      return { kind: 'join', left, right, joinType, natural };
    }
    if (c.acceptKeyword('ON')) {
      return {
        kind: 'join',
        left,
        right,
        joinType,
        natural,
        condition: this.expressions.expression(),
      };
    }
    if (c.acceptKeyword('USING')) {
      c.expectOperator('(');
      const using = [this.identifier('a column name')];
      while (c.acceptOperator(',')) using.push(this.identifier('a column name'));
      c.expectOperator(')');
      return { kind: 'join', left, right, joinType, natural, using };
    }
    if (joinType !== 'inner') c.fail('ON or USING', c.peek());
    return { kind: 'join', left, right, joinType, natural };
  }

  private joinType(): { joinType: JoinType; cross: boolean } {
    const c = this.cursor;
    if (c.acceptKeyword('CROSS')) return { joinType: 'inner', cross: true };
    if (c.acceptKeyword('INNER')) return { joinType: 'inner', cross: false };
    if (c.acceptKeyword('LEFT')) {
      if (c.acceptKeyword('SEMI')) return { joinType: 'left_semi', cross: false };
      if (c.acceptKeyword('ANTI')) return { joinType: 'left_anti', cross: false };
      c.acceptKeyword('OUTER');
      return { joinType: 'left', cross: false };
    }
    if (c.acceptKeyword('RIGHT')) {
      c.acceptKeyword('OUTER');
      return { joinType: 'right', cross: false };
    }
    if (c.acceptKeyword('FULL')) {
      c.acceptKeyword('OUTER');
      return { joinType: 'full', cross: false };
    }
    if (c.acceptKeyword('SEMI')) return { joinType: 'left_semi', cross: false };
    if (c.acceptKeyword('ANTI')) return { joinType: 'left_anti', cross: false };
    return { joinType: 'inner', cross: false };
  }

  private source(): SqlFrom {
    const c = this.cursor;
    if (c.acceptOperator('(')) {
      if (!c.isKeyword(['SELECT', 'WITH']) && !c.isOperator('(')) c.fail('SELECT or WITH');
      const query = this.query();
      c.expectOperator(')');
      const alias = this.alias();
      return alias === undefined ? { kind: 'subquery', query } : { kind: 'subquery', query, alias };
    }
    const token = c.peek();
    if (token.kind !== 'identifier' || (!token.quoted && RESERVED.has(token.text.toUpperCase()))) {
      c.fail('a table name or (subquery)');
    }
    const parts = [c.next().text];
    while (c.acceptOperator('.')) parts.push(this.identifier('a table name'));
    const alias = this.alias();
    const name = parts.join('.');
    return alias === undefined
      ? { kind: 'table', name, token }
      : { kind: 'table', name, alias, token };
  }

  private orderBy(): SqlOrderItem[] {
    const c = this.cursor;
    c.expectKeyword('ORDER');
    c.expectKeyword('BY');
    const items: SqlOrderItem[] = [];
    do {
      const expr = this.expressions.expression();
      const ascending = !c.acceptKeyword('DESC');
      if (ascending) c.acceptKeyword('ASC');
      let nullsFirst = ascending;
      if (c.acceptKeyword('NULLS')) {
        if (c.acceptKeyword('FIRST')) nullsFirst = true;
        else {
          c.expectKeyword('LAST');
          nullsFirst = false;
        }
      }
      items.push({ expr, ascending, nullsFirst });
    } while (c.acceptOperator(','));
    return items;
  }

  private limit(): number | undefined {
    const c = this.cursor;
    if (c.acceptKeyword('ALL')) return undefined;
    const token = c.peek();
    if (token.kind !== 'number' || !/^[0-9]+$/.test(token.text)) c.fail('a row count');
    c.next();
    return Number(token.text);
  }
}
