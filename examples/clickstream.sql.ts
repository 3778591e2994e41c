/**
 * The canonical clickstream job in SQL: the same query as examples/clickstream-query.ts, written as
 * two SQL statements over temporary views. It gives exactly the DataFrame version's result, in the
 * stream and in the batch (test/sql/clickstream-sql.test.ts).
 *
 * 1. The input (`value`: a click as JSON text, or Kafka's bytes) is registered as a view and its
 *    events are parsed with `from_json`.
 * 2. The watermark is declared on the parsed events (SQL has no WITH WATERMARK clause, as in
 *    Spark), and the result is registered as the view `clicks`, which keeps the watermark.
 * 3. The count per category and 10-minute window is a GROUP BY over that view.
 */
import type { DataFrame } from '../core/index.js';
import '../core/sql/index.js';
import { EVENT_SCHEMA } from './clickstream-query.js';

/** Clicks per category and 10-minute window, in SQL, from rows whose `value` is a click as JSON. */
export function clickCountsSql(input: DataFrame): DataFrame {
  const session = input.session;
  input.createOrReplaceTempView('click_input');
  session
    .sql(
      `SELECT event.* FROM (
         SELECT from_json(CAST(value AS STRING), '${EVENT_SCHEMA}') AS event FROM click_input
       )`,
    )
    .withWatermark('ts', '15 minutes')
    .createOrReplaceTempView('clicks');
  return session.sql(`
    SELECT window, category, count(*) AS count
    FROM clicks
    GROUP BY window(ts, '10 minutes'), category`);
}
