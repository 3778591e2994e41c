/**
 * The Kafka entry of Sluice (`sluice/kafka`): the source and sink behind `format('kafka')`, the
 * kafkajs readers and writers they run on, the security settings, and the credentials hook that the
 * AWS entry's MSK IAM and Secrets Manager credentials plug into. `readStream.format('kafka')` needs
 * none of it imported; a query that builds a `KafkaSource` or `KafkaSink` itself, or installs
 * credentials, imports it from here.
 */
export { KafkaSource, type KafkaReaderFactory } from './kafka-source.js';
export { kafkaOptions, type KafkaSourceOptions } from './kafka-options.js';
export { KafkaSink, kafkajsWriter, type KafkaWriterFactory } from './kafka-sink.js';
export {
  DEFAULT_MAX_REQUEST_BYTES,
  kafkaSinkOptions,
  type KafkaSinkOptions,
} from './kafka-sink-options.js';
export {
  BATCH_ID_HEADER,
  QUERY_ID_HEADER,
  SEQ_HEADER,
  type RecordPosition,
} from './kafka-sink-records.js';
export type { KafkaRecordWriter, OutgoingHeader, OutgoingRecord } from './kafka-record-writer.js';
export { KafkajsRecordWriter, type KafkajsWriterConfig } from './kafkajs-record-writer.js';
export { KafkajsPartitionReader, type KafkajsReaderConfig } from './kafkajs-partition-reader.js';
export type {
  IsolationLevel,
  KafkaHeader,
  KafkaPartitionReader,
  KafkaRecord,
  OffsetBounds,
  RangeRead,
} from './kafka-partition-reader.js';
export type { PartitionOffsets, TopicPartition } from './partition-offsets.js';
export { closeKafkaConnections } from './kafka-connection-pool.js';
export { keyPartition, RepartitionSink, type RepartitionSinkOptions } from './repartition-sink.js';
export {
  RepartitionSource,
  repartitionSource,
  type RepartitionSourceOptions,
} from './repartition-source.js';
export {
  kafkaSecurity,
  type KafkaSecurity,
  type SaslCredentials,
  type SaslSettings,
  type SecurityProtocol,
  type TlsSettings,
} from './kafka-security.js';
export type { KafkaCredentials, SaslUserPassword } from './kafka-credentials.js';
export { useKafkaCredentials } from './installed-kafka-credentials.js';
