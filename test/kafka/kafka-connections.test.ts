/**
 * Kafka connections: one per cluster and security settings in a process, reused by the queries of
 * later invocations (a warm Lambda container), closed by closeKafkaConnections; an idle one keeps no
 * process alive.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { MemorySink, SluiceSession } from '../../core/index.js';
import {
  closeKafkaConnections,
  sharedKafkaConnection,
} from '../../core/kafka/kafka-connection-pool.js';
import type { KafkaCredentials } from '../../core/kafka/kafka-credentials.js';
import { KafkajsConnection } from '../../core/kafka/kafkajs-connection.js';
import { KafkajsPartitionReader } from '../../core/kafka/kafkajs-partition-reader.js';
import { produceToAllPartitions } from '../support/kafka-producer.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

/** kafkajs's internal Cluster class: each new connection to a cluster calls its `connect` once. */
const Cluster = createRequire(import.meta.url)('kafkajs/src/cluster/index.js') as {
  prototype: { connect: (...args: unknown[]) => Promise<void> };
};

afterAll(() => closeKafkaConnections());

/** One scheduled invocation of a query over `topic` on `checkpoint`: its batches, then it ends. */
async function invocation(topic: string, checkpoint: string): Promise<number> {
  const df = new SluiceSession().readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
    .option('subscribe', topic)
    .option('startingOffsets', 'earliest')
    .load();
  const result = await df.writeStream
    .sink(new MemorySink(df.schema, uniqueName('sink')))
    .option('checkpointLocation', checkpoint)
    .runInvocation({ remainingMs: () => 60_000, safetyMarginMs: 100 });
  return result.batches.reduce((n, b) => n + b.numInputRows, 0);
}

describe('Kafka connections', () => {
  it('are made once per process and reused by later invocations, until closeKafkaConnections', async () => {
    const topic = uniqueName('warm');
    const checkpoint = tempDir();
    await produceToAllPartitions(topic, 3);
    await closeKafkaConnections();
    const connects = vi.spyOn(Cluster.prototype, 'connect');
    try {
      expect(await invocation(topic, checkpoint)).toBe(12);
      await produceToAllPartitions(topic, 1);
      expect(await invocation(topic, checkpoint)).toBe(4); // a warm start: no new connection
      expect(await invocation(uniqueName('other-topic'), tempDir())).toBe(0);
      expect(connects).toHaveBeenCalledTimes(1);

      await closeKafkaConnections();
      await produceToAllPartitions(topic, 1);
      expect(await invocation(topic, checkpoint)).toBe(4);
      expect(connects).toHaveBeenCalledTimes(2);
    } finally {
      connects.mockRestore();
    }
  });

  it('are told apart by cluster and security settings, not by the order of the brokers', () => {
    const plain = sharedKafkaConnection({ brokers: ['a:9092', 'b:9092'] });
    expect(sharedKafkaConnection({ brokers: ['b:9092', 'a:9092'] })).toBe(plain);
    expect(sharedKafkaConnection({ brokers: ['a:9092'] })).not.toBe(plain);
    const tls = sharedKafkaConnection({
      brokers: ['a:9092', 'b:9092'],
      security: { protocol: 'SSL', tls: {} },
    });
    expect(tls).not.toBe(plain);
    expect(
      sharedKafkaConnection({
        brokers: ['a:9092', 'b:9092'],
        security: { protocol: 'SSL', tls: {} },
      }),
    ).toBe(tls);
  });

  it('keep no process alive: a process that ran a query to completion exits by itself', async () => {
    const topic = uniqueName('exit');
    await produceToAllPartitions(topic, 2);
    const script = path.resolve('test/kafka/query-to-completion.ts');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', script, inject('kafkaBootstrapServers'), topic, tempDir()],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | string>((resolve) =>
      child.on('exit', (code, signal) => resolve(code ?? String(signal))),
    );
    // the query itself takes a second or two; a process held open by a socket would never exit
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'rows 8' });
  });

  it('authenticate with SASL for real: the mock cluster, which has no SASL, refuses the connection', async () => {
    const fetched: string[] = [];
    const credentials: KafkaCredentials = {
      saslSecret: async (arn) => {
        fetched.push(arn);
        return { username: 'alice', password: 'pw' };
      },
      forgetSaslSecret: () => {},
      mskIamToken: async () => 'token',
    };
    const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:AmazonMSK_x-AbCdEf';
    const config = {
      brokers: inject('kafkaBootstrapServers').split(','),
      security: {
        protocol: 'SASL_PLAINTEXT',
        sasl: { mechanism: 'SCRAM-SHA-512', credentials: { kind: 'secret', secretArn } },
      } as const,
    };
    const reader = new KafkajsPartitionReader(config, new KafkajsConnection(config, credentials));
    try {
      await expect(reader.listTopics()).rejects.toMatchObject({
        name: 'SourceError',
        message: expect.stringMatching(/could not connect: .*does not support/),
      });
      expect(fetched).toEqual([secretArn]);
    } finally {
      await reader.close();
    }
  });
});
