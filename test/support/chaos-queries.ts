/**
 * The queries chaos runs crash: the canonical windowed count (append output mode, a watermark) and a
 * stateless filter and projection; for the Kafka sink, either one as key and value strings. Each
 * also runs as a batch query over the seed's whole input, which is what the streamed output must
 * equal, and each says which output columns identify a result row, so that a row written twice, a
 * row missing and a row with a wrong value are told apart.
 */
import {
  col,
  concat,
  count,
  type DataFrame,
  lit,
  type RowObject,
  SluiceSession,
  window,
} from '../../core/index.js';
import { CHAOS_EVENT_SCHEMA } from './chaos-input.js';
import { dateEpochMicros } from '../../core/types/timestamp.js';

/** The query a seed runs. */
export type ChaosQueryKind = 'windowed' | 'stateless';

/** How late an event may be before the windowed query drops it. */
const WATERMARK_DELAY_MS = 5 * 60_000;

/** The schema (DDL) of the output a query writes, as a reader of the sink reads it back. */
export function outputSchema(kind: ChaosQueryKind, kafka: boolean): string {
  if (kafka) return 'key STRING, value STRING';
  return kind === 'windowed'
    ? 'window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, category STRING, n BIGINT'
    : 'id INT, category STRING, ts TIMESTAMP';
}

/** The query over `events`; for the Kafka sink, as key and value. */
export function chaosQuery(kind: ChaosQueryKind, kafka: boolean, events: DataFrame): DataFrame {
  const result =
    kind === 'windowed'
      ? events
          .withWatermark('ts', '5 minutes')
          .groupBy(window(col('ts'), '10 minutes'), col('category'))
          .agg(count().alias('n'))
      : events.where(col('category').neq('c')).select(col('id'), col('category'), col('ts'));
  return kafka ? asRecords(kind, result) : result;
}

function asRecords(kind: ChaosQueryKind, result: DataFrame): DataFrame {
  return kind === 'windowed'
    ? result.select(
        concat(col('window').getField('start').cast('string'), lit('|'), col('category')).alias(
          'key',
        ),
        col('n').cast('string').alias('value'),
      )
    : result.select(
        col('id').cast('string').alias('key'),
        concat(col('category'), lit('|'), col('ts').cast('string')).alias('value'),
      );
}

/**
 * The batch query over all of `events`: what the sink must hold at the end. The windowed query's
 * append output holds only the windows the final watermark closed (max event time - delay).
 */
export async function expectedOutput(
  kind: ChaosQueryKind,
  kafka: boolean,
  events: readonly RowObject[],
): Promise<RowObject[]> {
  const session = new SluiceSession();
  const all = session.createDataFrame(
    events.map((e) => ({ ...e, ts: new Date(e.ts as string) })),
    CHAOS_EVENT_SCHEMA,
  );
  if (kind === 'stateless') return chaosQuery(kind, kafka, all).collect();
  const watermarkMs =
    Math.max(...events.map((e) => Date.parse(e.ts as string))) - WATERMARK_DELAY_MS;
  const closed = chaosQuery(kind, false, all).where(
    col('window')
      .getField('end')
      .leq(lit(new Date(watermarkMs))),
  );
  return (kafka ? asRecords(kind, closed) : closed).collect();
}

/** The columns that identify a row of the output, as one string. */
export function rowIdentity(kind: ChaosQueryKind, kafka: boolean, row: RowObject): string {
  if (kafka) return String(row.key);
  if (kind === 'stateless') return String(row.id);
  const w = canonical(row.window) as { start: unknown };
  return `${String(w.start)}|${String(row.category)}`;
}

const ISO = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?Z$/;

/**
 * A value as one comparable form whatever the reader gave: timestamps as microseconds (a Date, an
 * ISO string such as DynamoDB items hold, or a number), bigints as numbers, struct fields in order.
 */
export function canonical(value: unknown): unknown {
  if (value instanceof Date) return dateEpochMicros(value);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') {
    const iso = ISO.exec(value);
    if (iso) return Date.parse(`${iso[1]}Z`) * 1000 + Number((iso[2] ?? '').padEnd(6, '0'));
    return value;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}
