/**
 * kafkajs is loaded when a query first connects to Kafka, not when Sluice is imported: a query that
 * reads and writes no Kafka (files, Delta, memory) never pays for loading it at a cold start.
 */
import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ kafkajs: false }));

vi.mock('kafkajs', async (importOriginal) => {
  loaded.kafkajs = true;
  return importOriginal();
});

describe('kafkajs', () => {
  it('is not loaded by importing the root entry, nor by building and checking a Kafka query', async () => {
    const { col, SluiceSession } = await import('../../core/index.js');
    const session = new SluiceSession();
    const df = session.readStream
      .format('kafka')
      .option('kafka.bootstrap.servers', '127.0.0.1:1')
      .option('subscribe', 'clicks')
      .load()
      .select(col('value').cast('string'));
    expect(df.isStreaming).toBe(true);
    expect(loaded.kafkajs).toBe(false);
  });

  it('is loaded when a connection is opened', async () => {
    const { KafkajsConnection } = await import('../../core/kafka/kafkajs-connection.js');
    // nothing listens on port 1 of loopback: the connection is refused, after kafkajs was loaded
    const connection = new KafkajsConnection({ brokers: ['127.0.0.1:1'], apiTimeoutMs: 5_000 });
    await expect(connection.use('connect', async () => undefined)).rejects.toThrow(
      /127\.0\.0\.1:1/,
    );
    expect(loaded.kafkajs).toBe(true);
    await connection.disconnect();
  });
});
