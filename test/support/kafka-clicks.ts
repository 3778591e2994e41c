/**
 * The canonical clickstream as Kafka records: click events as JSON values spread over the 4
 * partitions of a topic, and the windowed count of the examples over a Kafka DataFrame.
 */
import { col, count, type DataFrame, from_json, type RowObject, window } from '../../core/index.js';
import { at } from './events.js';
import type { TestRecord } from './kafka-producer.js';

const CATEGORIES = ['books', 'games', 'music'];

/** `n` click events from 10:00 on, 37 s apart, round-robin over partitions; `from` numbers the users. */
export function clickRecords(n: number, from = 0): TestRecord[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const ts = at('10:00:00', i * 37_000_000).toISOString();
    const event = { ts, category: CATEGORIES[i % 3], user: `u${i}` };
    return { partition: i % 4, key: event.user, value: JSON.stringify(event) };
  });
}

/** Clicks per category in 10-minute windows, from Kafka rows whose value is a click as JSON. */
export function windowedClickCounts(kafka: DataFrame): DataFrame {
  return kafka
    .select(
      from_json(col('value').cast('string'), 'ts TIMESTAMP, category STRING, user STRING').alias(
        'e',
      ),
    )
    .select('e.*')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
}

/** Rows of windowedClickCounts as sortable text. */
export function countsText(rows: RowObject[]): string[] {
  return rows
    .map((r) => `${(r.window as { start: number }).start} ${String(r.category)} ${String(r.n)}`)
    .sort();
}
