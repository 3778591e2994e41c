/**
 * KafkaSink: writes each batch's result rows as records of Kafka topics, as Spark's Kafka sink does
 * (`writeStream.format('kafka').option('kafka.bootstrap.servers', ...).option('topic', t)`), rows
 * becoming records as kafka-sink-records.ts describes.
 *
 * Guarantee: at-least-once, as in Spark (docs/architecture.md section 4). Records are written at
 * the sink step, before the batch commits; a crash between the two runs the batch again, which
 * writes its records again. Kafka cannot tell those from new ones, so every record carries where it
 * stands in the query's output: headers `sluice.queryId`, `sluice.batchId` and `sluice.seq` (its
 * position in the batch). A batch that is run again produces the same rows in the same order, so
 * its records carry the same three values, and a consumer that keeps the first record of each
 * (queryId, batchId, seq) reads every batch exactly once. Within one attempt the producer is
 * idempotent, so its own retries add no duplicates (kafkajs-record-writer.ts).
 *
 * The producer is connected on the first batch and kept across batches; `close` (when the query
 * stops, or a serverless invocation ends) disconnects it, and a later batch connects again. A
 * frozen Lambda container thus holds no producer whose sockets may have died meanwhile: a warm
 * invocation pays one connection and one InitProducerId instead of a request timeout.
 */
import { openedSink, type OutputMode, type Sink, type SinkContext } from '../sinks/sink.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { KafkaRecordWriter } from './kafka-record-writer.js';
import type { KafkaSinkOptions } from './kafka-sink-options.js';
import { type RecordConverter, recordConverter } from './kafka-sink-records.js';
import { KafkajsRecordWriter } from './kafkajs-record-writer.js';

/** Creates the writer a sink sends through; tests give other clients through it. */
export type KafkaWriterFactory = (options: KafkaSinkOptions) => KafkaRecordWriter;

/** The writer a Kafka sink uses unless given another: kafkajs's idempotent producer. */
export const kafkajsWriter: KafkaWriterFactory = (options) =>
  new KafkajsRecordWriter({
    brokers: options.bootstrapServers,
    security: options.security,
    maxRequestBytes: options.maxRequestBytes,
    compression: options.compression,
  });

/** Writes each batch's rows as Kafka records. */
export class KafkaSink implements Sink {
  readonly description: string;
  private writer: KafkaRecordWriter | undefined;
  private opened: { readonly queryId: string; readonly toRecord: RecordConverter } | undefined;

  constructor(
    private readonly options: KafkaSinkOptions,
    private readonly createWriter: KafkaWriterFactory = kafkajsWriter,
  ) {
    this.description = `KafkaSink[${options.topic ?? 'topic column'}]`;
  }

  /** Checks the query's output against the Kafka sink schema; learns the query's id. */
  async open(context: SinkContext): Promise<void> {
    this.opened = {
      queryId: context.queryId,
      toRecord: recordConverter(context.schema, this.options.topic, this.description),
    };
  }

  /** Sends the batch's records and waits for the brokers to acknowledge all of them. */
  async addBatch(
    batchId: number,
    rows: readonly Row[],
    _schema: StructType,
    _outputMode: OutputMode,
  ): Promise<void> {
    const opened = openedSink(this.opened, { sink: this.description, batchId });
    const { queryId, toRecord } = opened;
    const records = rows.map((row, seq) => toRecord(row, { queryId, batchId, seq }));
    this.writer ??= this.createWriter(this.options);
    await this.writer.send(records);
  }

  /** Disconnects the producer; a later batch connects again. */
  async close(): Promise<void> {
    const writer = this.writer;
    this.writer = undefined;
    await writer?.close();
  }
}
