/**
 * An aggregate's `merge` of two partial accumulators equals folding all their rows in order: the
 * law a session window relies on when a row bridges two sessions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Column } from '../../core/api/column.js';
import {
  avg,
  collect_list,
  count,
  countDistinct,
  first,
  last,
  max,
  min,
  sum,
} from '../../core/index.js';
import { bindAggregate } from '../../core/expr/aggregate-functions.js';
import type { AggregateCall } from '../../core/expr/expression.js';
import { schemaScope } from '../../core/expr/scope.js';
import { builtinFunctions } from '../../core/functions/builtin-functions.js';
import { parseSchema } from '../../core/types/type-names.js';

const schema = parseSchema('x INT');
const values = fc.array(fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null, freq: 4 }), {
  maxLength: 12,
});

const aggregates: [string, Column][] = [
  ['count(*)', count()],
  ['count(x)', count('x')],
  ['count(DISTINCT x)', countDistinct('x')],
  ['sum', sum('x')],
  ['avg', avg('x')],
  ['min', min('x')],
  ['max', max('x')],
  ['first', first('x')],
  ['first ignoring nulls', first('x', true)],
  ['last', last('x')],
  ['last ignoring nulls', last('x', true)],
  ['collect_list', collect_list('x')],
];

describe("an aggregate's merge of two partial states", () => {
  for (const [name, column] of aggregates) {
    it(`${name}: merging the states of two runs of rows equals folding both runs`, () => {
      const aggregate = bindAggregate(
        column.expr as AggregateCall,
        schemaScope(schema, builtinFunctions),
      );
      const fold = (xs: (number | null)[]) =>
        xs.reduce((acc, x) => aggregate.update(acc, aggregate.input([x])), aggregate.init());
      fc.assert(
        fc.property(values, values, (earlier, later) => {
          const merged = aggregate.merge(fold(earlier), fold(later));
          expect(aggregate.result(merged)).toEqual(aggregate.result(fold([...earlier, ...later])));
        }),
      );
    });
  }
});
