/**
 * Result rows as Kafka records, by Spark's Kafka sink schema: the columns
 *
 *   value      string or binary, required (null writes a record without value, a tombstone)
 *   key        string or binary, optional
 *   topic      string; required unless option topic is set, which overrides it (as in Spark)
 *   partition  int, optional; null or absent lets the default partitioner choose by key
 *   headers    array<struct<key: string, value: binary or string>>, optional (kafkajs writes a
 *              null header value as an empty one)
 *
 * and nothing else matters: other columns are not written. The schema is checked when the query
 * starts. After the row's own headers every record gets `sluice.queryId`, `sluice.batchId` and
 * `sluice.seq` (its position in the batch's output), as UTF-8 text, so consumers can drop the records
 * of a batch that was delivered again (kafka-sink.ts).
 */
import { AnalysisError, SinkError } from '../errors.js';
import { type DataType, type StructType, typeName } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { OutgoingHeader, OutgoingRecord } from './kafka-record-writer.js';

/** The headers that place a record in the query's output. */
export const QUERY_ID_HEADER = 'sluice.queryId';
/** The id of the batch that wrote the record. */
export const BATCH_ID_HEADER = 'sluice.batchId';
/** The record's position in its batch's output, from 0. */
export const SEQ_HEADER = 'sluice.seq';

/** Where a record stands in the query's output. */
export interface RecordPosition {
  readonly queryId: string;
  readonly batchId: number;
  readonly seq: number;
}

/** Converts a result row (at a position) to a record. */
export type RecordConverter = (row: Row, position: RecordPosition) => OutgoingRecord;

type Value = Uint8Array | string | null;

/**
 * Checks `schema` against the Kafka sink schema and builds the converter of its rows; `context`
 * names the sink in messages.
 */
export function recordConverter(
  schema: StructType,
  topicOption: string | undefined,
  context: string,
): RecordConverter {
  const column = (name: string) => {
    const index = schema.fields.findIndex((f) => f.name.toLowerCase() === name);
    return index < 0 ? undefined : { index, type: schema.fields[index].dataType };
  };
  const value = column('value');
  if (!value) {
    throw new AnalysisError(
      `${context}: the query's output has no column 'value'; the Kafka sink writes each row's value column (string or binary) as its record's value, so select one (e.g. to_json(...).alias('value')).`,
    );
  }
  const valueOf = bytesColumn('value', value, context);
  const keyColumn = column('key');
  const keyOf = keyColumn ? bytesColumn('key', keyColumn, context) : () => null;
  const topicOf = topicColumn(column('topic'), topicOption, context);
  const partitionOf = partitionColumn(column('partition'), context);
  const headersOf = headersColumn(column('headers'), context);
  return (row, position) => ({
    topic: topicOf(row),
    partition: partitionOf(row),
    key: keyOf(row),
    value: valueOf(row),
    headers: [
      ...headersOf(row),
      { key: QUERY_ID_HEADER, value: position.queryId },
      { key: BATCH_ID_HEADER, value: String(position.batchId) },
      { key: SEQ_HEADER, value: String(position.seq) },
    ],
  });
}

function bytesColumn(
  name: string,
  column: { index: number; type: DataType },
  context: string,
): (row: Row) => Value {
  if (!isBytes(column.type)) {
    throw wrongType(context, name, column.type, 'string or binary');
  }
  return (row) => (row[column.index] ?? null) as Value;
}

function topicColumn(
  column: { index: number; type: DataType } | undefined,
  option: string | undefined,
  context: string,
): (row: Row) => string {
  if (option !== undefined) return () => option;
  if (!column) {
    throw new AnalysisError(
      `${context}: no topic to write to; set option('topic', name), or give each row a topic column.`,
    );
  }
  if (column.type.kind !== 'string') throw wrongType(context, 'topic', column.type, 'string');
  return (row) => {
    const topic = row[column.index];
    if (typeof topic !== 'string' || topic === '') {
      throw new SinkError(
        `${context}: a row has ${topic === '' ? 'an empty' : 'a null'} topic column; give every row a topic, or set option('topic', name) for all of them.`,
      );
    }
    return topic;
  };
}

function partitionColumn(
  column: { index: number; type: DataType } | undefined,
  context: string,
): (row: Row) => number | null {
  if (!column) return () => null;
  if (column.type.kind !== 'int' && column.type.kind !== 'long') {
    throw wrongType(context, 'partition', column.type, 'int');
  }
  return (row) => (row[column.index] ?? null) as number | null;
}

function headersColumn(
  column: { index: number; type: DataType } | undefined,
  context: string,
): (row: Row) => OutgoingHeader[] {
  if (!column) return () => [];
  const { type } = column;
  const entry = type.kind === 'array' ? type.elementType : undefined;
  const fields = entry?.kind === 'struct' ? entry.fields : [];
  const keyIndex = fields.findIndex((f) => f.name === 'key' && f.dataType.kind === 'string');
  const valueIndex = fields.findIndex((f) => f.name === 'value' && isBytes(f.dataType));
  if (fields.length !== 2 || keyIndex < 0 || valueIndex < 0) {
    throw wrongType(context, 'headers', type, 'array<struct<key:string,value:binary>>');
  }
  return (row) => {
    const headers = (row[column.index] ?? []) as (Row | null)[];
    return headers.map((h) => {
      const key = h?.[keyIndex];
      if (typeof key !== 'string') {
        throw new SinkError(
          `${context}: a row's headers hold ${h ? 'a header with a null key' : 'a null header'}; every header needs a key.`,
        );
      }
      return { key, value: (h![valueIndex] ?? null) as Value };
    });
  };
}

function isBytes(type: DataType): boolean {
  return type.kind === 'string' || type.kind === 'binary';
}

function wrongType(context: string, name: string, type: DataType, wanted: string): Error {
  return new AnalysisError(
    `${context}: column ${name} is ${typeName(type)}, but the Kafka sink needs ${wanted}; cast or rebuild it in the query.`,
  );
}
