/**
 * The function reference cannot drift from the code: every function SQL resolves has an entry and
 * every entry resolves, docs/functions.md is what the tables generate today, and every example
 * gives its documented result when run through `session.sql`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as sluice from '../../core/index.js';
import { Column, col, SluiceSession } from '../../core/index.js';
import '../../core/sql/index.js';
import { sqlFunctionNames } from '../../core/sql/sql-functions.js';
import { functionFamilies, functionReference } from '../../docs/reference/function-reference.js';
import { EXAMPLE_TABLE, type FunctionDoc } from '../../docs/reference/functions/function-doc.js';

const entries: [string, FunctionDoc][] = functionFamilies().flatMap((f) =>
  Object.entries(f.functions),
);

const session = new SluiceSession();
session
  .createDataFrame(
    EXAMPLE_TABLE.rows.map((r) => ({ ...r })),
    EXAMPLE_TABLE.schema,
  )
  .createOrReplaceTempView('t');

/** Runs an example and prints its result as the page does: cells cast to strings, NULL for null. */
async function run(sql: string): Promise<string> {
  const df = session.sql(/^select\b/i.test(sql) ? sql : `SELECT ${sql}`);
  const rows = await df.select(...df.columns.map((c) => col(`\`${c}\``).cast('string'))).collect();
  return rows
    .map((r) =>
      Object.values(r)
        .map((v) => v ?? 'NULL')
        .join(', '),
    )
    .join('; ');
}

describe('the function reference', () => {
  it('has an entry for every function SQL resolves, and no other', () => {
    const documented = entries.flatMap(([name, doc]) => [name, ...(doc.aliases ?? [])]);
    expect(documented.length).toBe(new Set(documented).size);
    expect(documented.sort()).toEqual(sqlFunctionNames().sort());
  });

  it('names column API forms that exist', () => {
    for (const [name, doc] of entries) {
      if (!doc.column) continue;
      const exists = doc.column.startsWith('.')
        ? typeof Reflect.get(Column.prototype, doc.column.slice(1)) === 'function'
        : typeof Reflect.get(sluice, doc.column) === 'function';
      expect(exists, `${name}: ${doc.column}`).toBe(true);
    }
  });

  it('is checked in as generated (run npm run docs:functions after changing a function)', () => {
    const page = readFileSync(new URL('../../docs/functions.md', import.meta.url), 'utf8');
    expect(page).toBe(functionReference());
  });

  describe('examples give their documented result', () => {
    for (const [name, doc] of entries) {
      it(`${name}: ${doc.example.sql}`, async () => {
        expect(await run(doc.example.sql)).toBe(doc.example.result);
      });
      for (const alias of doc.aliases ?? []) {
        it(`${alias}, another name of ${name}, gives the same`, async () => {
          expect(doc.example.sql).toContain(`${name}(`);
          const sql = doc.example.sql.replace(`${name}(`, `${alias}(`);
          expect(await run(sql)).toBe(doc.example.result);
        });
      }
    }
  });
});
