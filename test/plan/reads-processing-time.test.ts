/**
 * Whether a plan reads the processing time, wherever current_timestamp() is: a select, a filter, a
 * grouping key or an aggregate's input, a join condition, a sort order, or nested in a call.
 */
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  current_timestamp,
  type DataFrame,
  max,
  SluiceSession,
  window,
} from '../../core/index.js';
import { readsProcessingTime } from '../../core/plan/reads-processing-time.js';
import { clickSchema } from '../support/events.js';

const session = new SluiceSession();
const clicks = () => session.readStream.memory(session.memoryStream(clickSchema));
const users = () => session.createDataFrame([{ id: 'u1', name: 'Ada' }], 'id STRING, name STRING');

describe('readsProcessingTime', () => {
  const cases: ReadonlyArray<{
    readonly plan: string;
    readonly query: () => DataFrame;
    readonly reads: boolean;
  }> = [
    {
      plan: 'a select, a filter and a windowed count without it',
      query: () =>
        clicks()
          .filter(col('category').neq('bot'))
          .withWatermark('ts', '10 minutes')
          .groupBy(window(col('ts'), '10 minutes'))
          .agg(count().alias('n')),
      reads: false,
    },
    {
      plan: 'a select of it',
      query: () => clicks().select(current_timestamp().alias('now')),
      reads: true,
    },
    {
      plan: 'a filter on it, nested in a comparison',
      query: () => clicks().filter(col('ts').lt(current_timestamp())),
      reads: true,
    },
    {
      plan: 'a grouping key of it',
      query: () => clicks().groupBy(current_timestamp()).agg(count().alias('n')),
      reads: true,
    },
    {
      plan: "an aggregate's input",
      query: () => clicks().groupBy(col('category')).agg(max(current_timestamp()).alias('at')),
      reads: true,
    },
    {
      plan: 'a join condition',
      query: () =>
        clicks().join(
          users(),
          col('ts')
            .lt(current_timestamp())
            .and(col('user').eq(col('id'))),
        ),
      reads: true,
    },
    {
      plan: 'a sort order above a union',
      query: () => clicks().union(clicks()).orderBy(current_timestamp()),
      reads: true,
    },
    {
      plan: 'a select beneath a limit',
      query: () => clicks().select(current_timestamp().alias('now')).limit(3),
      reads: true,
    },
  ];

  it.each(cases)('is $reads for $plan', ({ query, reads }) => {
    expect(readsProcessingTime(query().plan)).toBe(reads);
  });
});
