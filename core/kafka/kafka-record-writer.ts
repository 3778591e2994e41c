/**
 * The Kafka client as the sink sees it: send records and wait for the brokers' acknowledgement, and
 * close. Nothing more, so another client can replace kafkajs without touching the sink
 * (kafkajs-record-writer.ts is the implementation).
 */

/** A header of a record to send; a record may carry several with the same key. */
export interface OutgoingHeader {
  readonly key: string;
  readonly value: Uint8Array | string | null;
}

/** A record to send. Strings are sent as UTF-8. */
export interface OutgoingRecord {
  readonly topic: string;
  /** The partition, or null to let the default partitioner choose by key (Kafka's murmur2). */
  readonly partition: number | null;
  readonly key: Uint8Array | string | null;
  readonly value: Uint8Array | string | null;
  readonly headers: readonly OutgoingHeader[];
}

/** Sends records to a Kafka cluster; connects on first use, and again after `close`. */
export interface KafkaRecordWriter {
  /**
   * Sends `records`, in order within each partition, and resolves once every in-sync replica of
   * each partition has them (acks=all); rejects with a SinkError if any could not be written.
   */
  send(records: readonly OutgoingRecord[]): Promise<void>;
  /** Closes the writer's connections. */
  close(): Promise<void>;
}
