/**
 * Column pruning for from_json: the planner tells each from_json call which top-level fields of
 * its result the query reads, and a query that reads the struct whole gets every field.
 */
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  type DataFrame,
  explode,
  from_json,
  SluiceSession,
  to_json,
  window,
} from '../../core/index.js';
import { allNodes, type LogicalPlan } from '../../core/plan/logical-plan.js';
import { mergeDemands, pruneJsonFields } from '../../core/plan/json-field-pruning.js';
import { containsExpression, type Expression } from '../../core/expr/expression.js';
import { StringType, field, struct } from '../../core/types/data-types.js';

const SCHEMA =
  'ts TIMESTAMP, category STRING, user STRING, page STRING, n STRUCT<a: INT, b: INT>, tags ARRAY<STRING>';

const lines = () =>
  new SluiceSession().createDataFrame(
    [],
    struct([field('value', StringType), field('k', StringType)]),
  );
const events = () => lines().select(from_json(col('value'), SCHEMA).alias('e'), col('k'));
const flat = () => events().select('e.*');

/** The fields each from_json call of the pruned plan reads, 'all' where it is not told; root first. */
function readFields(df: DataFrame): (readonly string[] | 'all')[] {
  const found: (readonly string[] | 'all')[] = [];
  const visit = (e: Expression) =>
    containsExpression(e, (x) => {
      if (x.kind === 'call' && x.name === 'from_json') {
        const fields = x.options?.readFields as readonly string[] | undefined;
        found.push(fields ? [...fields].sort() : 'all');
      }
      return false;
    });
  for (const node of allNodes(pruneJsonFields(df.plan)))
    for (const e of expressionsOf(node)) visit(e);
  return found;
}

function expressionsOf(node: LogicalPlan): readonly Expression[] {
  switch (node.kind) {
    case 'project':
      return node.exprs;
    case 'filter':
      return [node.condition];
    case 'aggregate':
      return [...node.groupBy, ...node.aggregates];
    case 'sort':
      return node.orders.map((o) => o.expr);
    default:
      return [];
  }
}

describe('pruneJsonFields', () => {
  it.each<[string, () => DataFrame, (readonly string[] | 'all')[]]>([
    [
      'a windowed count over e.* reads only the time and the key',
      () =>
        flat()
          .withWatermark('ts', '10 minutes')
          .groupBy(window(col('ts'), '10 minutes'), col('category'))
          .count(),
      [['category', 'ts']],
    ],
    [
      'a select of some fields reads those',
      () => events().select('e.user', 'e.page'),
      [['page', 'user']],
    ],
    ['a nested field reads its top-level field', () => events().select(col('e.n.a')), [['n']]],
    [
      'a filter reads its condition as well as what is above it',
      () => flat().filter(col('page').eq('/')).select('user'),
      [['page', 'user']],
    ],
    [
      'names are matched as the binder matches them, case-insensitively',
      () => events().select(col('e.USER'), col('E.Page')),
      [['page', 'user']],
    ],
    ['a sort reads its keys', () => flat().orderBy('ts').select('category'), [['category', 'ts']]],
    [
      'a union reads what is read of each column position, from every input',
      () => flat().select('user').union(flat().select('page')),
      [['user'], ['page']],
    ],
    [
      'a struct computed but never read is still decoded, with no field built',
      () => events().select('k'),
      [[]],
    ],
    ['the struct read whole reads every field', () => events().select('e'), ['all']],
    ['a query ending in the struct reads every field', () => events(), ['all']],
    [
      'e.* at the root reads every field',
      () => flat(),
      [['category', 'n', 'page', 'tags', 'ts', 'user']],
    ],
    ['to_json(e) reads every field', () => events().select(to_json(col('e'))), ['all']],
    [
      'a test on the whole struct reads it whole',
      () => events().filter(col('e').isNull()).select('k'),
      ['all'],
    ],
    [
      'a join reads both inputs whole',
      () => events().select('e.*', 'k').join(lines(), 'k').select('user'),
      ['all'],
    ],
    [
      'a select with a generator reads the value of each of its expressions whole',
      () => events().select(col('e.user'), explode(col('e.tags'))),
      [['tags', 'user']],
    ],
    [
      'a DataFrame read along two paths reads what either reads',
      () => {
        const shared = flat();
        return shared.select('user').union(shared.select('page'));
      },
      [
        ['page', 'user'],
        ['page', 'user'],
      ],
    ],
    [
      'an aggregation reads what its keys and aggregates read',
      () => flat().groupBy('user').agg(count('page').alias('pages')),
      [['page', 'user']],
    ],
  ])('%s', (_name, query, expected) => {
    expect(readFields(query())).toEqual(expected);
  });

  it('keeps every node id, so references through a DataFrame still resolve', () => {
    const df = flat().groupBy('user').count();
    const ids = (p: LogicalPlan) => allNodes(p).map((n) => n.id);
    expect(ids(pruneJsonFields(df.plan))).toEqual(ids(df.plan));
  });
});

describe('mergeDemands', () => {
  const fields = (...names: string[]) => new Map(names.map((n) => [n, 'all' as const]));

  it.each([
    ['nothing yet and a demand', undefined, fields('a'), fields('a')],
    ['all and some fields', 'all' as const, fields('a'), 'all' as const],
    ['some fields and all', fields('a'), 'all' as const, 'all' as const],
    ['two sets of fields', fields('a'), fields('b'), fields('a', 'b')],
    ['part of a field and all of it', new Map([['n', fields('x')]]), fields('n'), fields('n')],
  ])('of %s is their union', (_name, a, b, expected) => {
    expect(mergeDemands(a, b)).toEqual(expected);
  });
});
