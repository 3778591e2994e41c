/**
 * The rows of the Kafka source: Spark's fixed Kafka schema, one row per record.
 * `key` and `value` are binary; `.cast('string')` decodes them as UTF-8, and `from_json` parses the
 * result. `timestamp` is the record's timestamp (microseconds, as every timestamp in Sluice) and
 * `timestampType` says whose it is (0: the producer's create time, 1: the broker's append time).
 */
import {
  ArrayOf,
  BinaryType,
  field,
  IntegerType,
  LongType,
  StringType,
  struct,
  type StructType,
  TimestampType,
} from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { KafkaRecord } from './kafka-partition-reader.js';
import type { TopicPartition } from './partition-offsets.js';

const RECORD_FIELDS = [
  field('key', BinaryType),
  field('value', BinaryType),
  field('topic', StringType),
  field('partition', IntegerType),
  field('offset', LongType),
  field('timestamp', TimestampType),
  field('timestampType', IntegerType),
];

/** The columns without headers (Spark's default). */
const KAFKA_SCHEMA: StructType = struct(RECORD_FIELDS);

/** The columns with `headers` (option includeHeaders): each header's key and binary value, in order. */
const KAFKA_SCHEMA_WITH_HEADERS: StructType = struct([
  ...RECORD_FIELDS,
  field('headers', ArrayOf(struct([field('key', StringType), field('value', BinaryType)]))),
]);

/** The schema of a Kafka source. */
export function kafkaSchema(includeHeaders: boolean): StructType {
  return includeHeaders ? KAFKA_SCHEMA_WITH_HEADERS : KAFKA_SCHEMA;
}

/** The engine row of one record of `tp`. */
export function kafkaRow(tp: TopicPartition, record: KafkaRecord, includeHeaders: boolean): Row {
  const row: Row = [
    record.key,
    record.value,
    tp.topic,
    tp.partition,
    record.offset,
    record.timestampMs * 1000,
    record.timestampType,
  ];
  if (includeHeaders) row.push(record.headers.map((h) => [h.key, h.value]));
  return row;
}
