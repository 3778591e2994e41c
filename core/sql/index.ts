/**
 * The SQL entry (`sluice/sql`): importing it installs the SQL front end, so that
 * `session.sql(text)`, `df.selectExpr(...)` and `df.filter(text)` work, and exports `expr`.
 * It is an entry of its own so that programs without SQL (the Lambda function) never load the
 * parser: the main entry reaches it only through the registration this module performs.
 */
import { Column } from '../api/column.js';
import { installSqlFrontEnd, NO_USER_FUNCTIONS } from '../api/sql-front-end.js';
import { planStatement } from './query-planner.js';
import { planSelect } from './select-block.js';
import { parseExpression, parseSelectItem, parseStatement } from './sql-parser.js';

export { ParseError } from '../errors.js';
export { parseExpression, parseStatement } from './sql-parser.js';
export type { SqlStatement } from './sql-ast.js';

installSqlFrontEnd({
  statementPlan: (sql, tables, functions) => planStatement(parseStatement(sql, functions), tables),
  expression: parseExpression,
  selectExpressions: (input, texts, functions) =>
    planSelect(
      {
        kind: 'select',
        distinct: false,
        items: texts.map((text) => parseSelectItem(text, functions)),
        groupBy: [],
      },
      { plan: input, sources: [] },
      [],
    ),
});

/**
 * A SQL expression as a Column: `expr('price * quantity AS total')`, `expr('count(*)')`. A
 * trailing alias names the column; names resolve where the column is used. It belongs to no
 * session, so it calls built-in functions only: use `df.selectExpr` or `session.sql` for the
 * functions of `session.udf.register`.
 */
export function expr(sql: string): Column {
  const item = parseSelectItem(sql, NO_USER_FUNCTIONS);
  return new Column(
    item.alias === undefined ? item.expr : { kind: 'alias', child: item.expr, name: item.alias },
  );
}
