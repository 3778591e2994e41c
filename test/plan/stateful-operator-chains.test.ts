/**
 * The start-time rules for stateful operators in one query, as Spark 3.5 and later has them: which
 * chains each output mode runs, and what a refusal names.
 */
import { describe, expect, it } from 'vitest';
import type { DataFrame } from '../../core/api/dataframe.js';
import { col, count, SluiceSession, window, window_time } from '../../core/index.js';
import { UnsupportedOperationError } from '../../core/errors.js';
import { checkStreamingPlan } from '../../core/plan/unsupported-operation-checker.js';
import type { OutputMode } from '../../core/sinks/sink.js';

const session = new SluiceSession();
const clicks = () =>
  session.readStream.memory(session.memoryStream('ts TIMESTAMP, user STRING, page STRING'));
const watermarked = () => clicks().withWatermark('ts', '10 minutes');
const windowedCount = (df: DataFrame) =>
  df.groupBy(window(col('ts'), '10 minutes')).agg(count().alias('n'));
const countOfCounts = (df: DataFrame) =>
  windowedCount(df)
    .groupBy(window(window_time('window'), '1 hour'))
    .agg(count().alias('windows'));

const cases: ReadonlyArray<{
  readonly query: string;
  readonly df: () => DataFrame;
  readonly mode: OutputMode;
  /** The refusal's message, or undefined when the query runs. */
  readonly refused?: RegExp;
}> = [
  { query: 'dropDuplicates alone', df: () => clicks().dropDuplicates('user'), mode: 'append' },
  { query: 'dropDuplicates alone', df: () => clicks().dropDuplicates('user'), mode: 'update' },
  {
    query: 'dropDuplicates alone',
    df: () => clicks().dropDuplicates('user'),
    mode: 'complete',
    refused: /Complete output mode is not supported when there are no streaming aggregations/,
  },
  {
    query: 'dropDuplicates then an aggregation',
    df: () => clicks().dropDuplicates().groupBy('page').agg(count()),
    mode: 'complete',
  },
  {
    query: 'dropDuplicates then an aggregation',
    df: () => clicks().dropDuplicates().groupBy('page').agg(count()),
    mode: 'update',
  },
  {
    query: 'dropDuplicates then a windowed count',
    df: () => windowedCount(watermarked().dropDuplicates()),
    mode: 'append',
  },
  {
    query: 'a windowed count of windowed counts',
    df: () => countOfCounts(watermarked()),
    mode: 'append',
  },
  {
    query: 'a windowed count of windowed counts',
    df: () => countOfCounts(watermarked()),
    mode: 'update',
    refused:
      /Multiple streaming aggregations are not supported with update output mode \(operators: aggregate on \[window\], aggregate on \[window\]\)/,
  },
  {
    query: 'a windowed count of windowed counts',
    df: () => countOfCounts(watermarked()),
    mode: 'complete',
    refused: /Multiple streaming aggregations are not supported with complete output mode/,
  },
  {
    query: 'a windowed count of counts without a watermark',
    df: () => countOfCounts(clicks()),
    mode: 'append',
    refused:
      /Append output mode not supported when there are streaming aggregations without watermark/,
  },
  {
    query: 'a windowed count, then dropDuplicates',
    df: () => windowedCount(watermarked()).dropDuplicates('n'),
    mode: 'append',
  },
  {
    query: 'an aggregation, then dropDuplicates',
    df: () => clicks().groupBy('page').agg(count().alias('n')).dropDuplicates('n'),
    mode: 'update',
    refused:
      /operator: dropDuplicates on \[n\] over aggregate on \[page\], mode: update\): in update mode the aggregate re-emits rows/,
  },
  {
    query: 'an aggregation, then dropDuplicates',
    df: () => clicks().groupBy('page').agg(count().alias('n')).dropDuplicates('n'),
    mode: 'complete',
    refused: /operator: dropDuplicates on \[n\] over aggregate on \[page\], mode: complete/,
  },
  {
    query: 'dropDuplicatesWithinWatermark with a watermark',
    df: () => watermarked().dropDuplicatesWithinWatermark('user'),
    mode: 'append',
  },
  {
    query: 'dropDuplicatesWithinWatermark without a watermark',
    df: () => clicks().dropDuplicatesWithinWatermark('user'),
    mode: 'append',
    refused:
      /dropDuplicatesWithinWatermark is not supported on a streaming DataFrame without a watermark \(operator: dropDuplicatesWithinWatermark on \[user\], mode: append\)/,
  },
];

describe('stateful operators chained in one streaming query', () => {
  for (const { query, df, mode, refused } of cases) {
    it(`${query}, in ${mode} mode: ${refused ? 'refused' : 'runs'}`, () => {
      const check = () => checkStreamingPlan(df().plan, mode);
      if (!refused) {
        expect(check).not.toThrow();
        return;
      }
      expect(check).toThrow(UnsupportedOperationError);
      expect(check).toThrow(refused);
    });
  }
});
