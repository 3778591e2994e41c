/**
 * An aggregate's `merge` of two partial accumulators equals folding all their rows in order: the
 * law a session window relies on when a row bridges two sessions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Column } from '../../core/api/column.js';
import {
  approx_count_distinct,
  avg,
  collect_list,
  collect_set,
  count,
  countDistinct,
  first,
  last,
  max,
  min,
  percentile_approx,
  stddev,
  stddev_pop,
  sum,
  var_pop,
  variance,
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
  ['collect_set', collect_set('x')],
  ['approx_count_distinct', approx_count_distinct('x')],
  ['percentile_approx', percentile_approx('x', [0, 0.3, 0.5, 1])],
];

/** Merged moments equal the sequential ones up to rounding (Chan's formula reorders the sums). */
const moments: [string, Column][] = [
  ['variance', variance('x')],
  ['var_pop', var_pop('x')],
  ['stddev', stddev('x')],
  ['stddev_pop', stddev_pop('x')],
];

function bound(column: Column) {
  return bindAggregate(column.expr as AggregateCall, schemaScope(schema, builtinFunctions));
}

describe("an aggregate's merge of two partial states", () => {
  for (const [name, column] of aggregates) {
    it(`${name}: merging the states of two runs of rows equals folding both runs`, () => {
      const aggregate = bound(column);
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

describe('the merge of two partial moments', () => {
  for (const [name, column] of moments) {
    it(`${name}: merging equals folding both runs, to 12 significant digits`, () => {
      const aggregate = bound(column);
      const fold = (xs: (number | null)[]) =>
        xs.reduce((acc, x) => aggregate.update(acc, aggregate.input([x])), aggregate.init());
      fc.assert(
        fc.property(values, values, (earlier, later) => {
          const merged = aggregate.result(aggregate.merge(fold(earlier), fold(later)));
          const folded = aggregate.result(fold([...earlier, ...later]));
          if (folded === null) expect(merged).toBeNull();
          else expect(merged as number).toBeCloseTo(folded as number, 12 - digits(folded));
        }),
      );
    });
  }
});

/** The number of digits before the point, so a closeness check keeps 12 significant digits. */
function digits(x: unknown): number {
  return Math.max(0, Math.ceil(Math.log10(Math.abs(x as number) + 1)));
}

describe('the merge of quantile summaries', () => {
  it('keeps every percentile within the rank error, however the values were split', () => {
    const aggregate = bound(percentile_approx('x', [0.05, 0.25, 0.5, 0.75, 0.95], 100));
    const n = 20_000;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: n - 1 }), { maxLength: 8 }), (cuts) => {
        // 0 .. n-1 shuffled by a multiplier coprime to n, then split at the cuts and merged
        const xs = Array.from({ length: n }, (_, i) => (i * 7919) % n);
        const points = [0, ...cuts.sort((a, b) => a - b), n];
        const parts = points.slice(1).map((end, i) => xs.slice(points[i], end));
        const merged = parts
          .map((part) => part.reduce((acc, x) => aggregate.update(acc, x), aggregate.init()))
          .reduce((a, b) => aggregate.merge(a, b));
        const answers = aggregate.result(merged) as number[];
        [0.05, 0.25, 0.5, 0.75, 0.95].forEach((p, i) => {
          expect(Math.abs(answers[i] + 1 - Math.ceil(p * n))).toBeLessThanOrEqual(n / 100);
        });
      }),
      { numRuns: 30 },
    );
  });
});
