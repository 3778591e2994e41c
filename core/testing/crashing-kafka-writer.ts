/**
 * A KafkaRecordWriter whose every send passes the crash points of a CrashInjector
 * (crash-injector.ts): a crash after `send` resolved is a batch whose records are in the topic while
 * its commit never happens, so its re-run sends them again; the sink's headers let a consumer drop
 * the second copy.
 */
import type { KafkaRecordWriter } from '../kafka/kafka-record-writer.js';
import type { CrashInjector } from './crash-injector.js';

/** `writer` with a crash point on both sides of every send and close. */
export function crashingKafkaWriter(
  writer: KafkaRecordWriter,
  injector: CrashInjector,
): KafkaRecordWriter {
  return {
    send: (records) =>
      injector.around(`kafka.send(${records.length} records)`, () => writer.send(records)),
    close: () => injector.around('kafka.close()', () => writer.close()),
  };
}
