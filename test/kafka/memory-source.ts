/**
 * A KafkaSource over a MemoryKafkaReader, for tests of the source's planning and reporting without a
 * cluster.
 */
import { MemoryObjectStore } from '../../core/checkpoint/memory-object-store.js';
import { kafkaOptions } from '../../core/kafka/kafka-options.js';
import { KafkaSource } from '../../core/kafka/kafka-source.js';
import type { MemoryKafkaReader } from '../support/memory-kafka-reader.js';

/** A source of topic `clicks` over `reader`, with these options besides the brokers and topic. */
export function memorySource(
  reader: MemoryKafkaReader,
  options: Record<string, string | number> = {},
  store = new MemoryObjectStore(),
): KafkaSource {
  const raw = new Map<string, string | number>([
    ['kafka.bootstrap.servers', 'unused:9092'],
    ['subscribe', 'clicks'],
  ]);
  for (const [k, v] of Object.entries(options)) raw.set(k.toLowerCase(), v);
  return new KafkaSource(kafkaOptions(raw, 'stream'), { metadataStore: store }, () => reader);
}
