/**
 * The process's Kafka connections, one per cluster and security settings, shared by every Kafka
 * source and bounded read in the process: the queries of later invocations in a warm Lambda
 * container reuse the connection of the first (kafkajs-connection.ts explains why an idle one does
 * not keep the process alive). `closeKafkaConnections` closes them all, for a handler's shutdown or
 * the end of a test.
 */
import { KafkajsConnection, type KafkaConnectionConfig } from './kafkajs-connection.js';
import { PLAINTEXT } from './kafka-security.js';

const connections = new Map<string, KafkajsConnection>();

/** The process's connection to the cluster `config` names, created on first request. */
export function sharedKafkaConnection(config: KafkaConnectionConfig): KafkajsConnection {
  const key = JSON.stringify([
    [...config.brokers].sort(),
    config.security ?? PLAINTEXT,
    config.clientId ?? null,
    config.apiTimeoutMs ?? null,
  ]);
  let connection = connections.get(key);
  if (!connection) connections.set(key, (connection = new KafkajsConnection(config)));
  return connection;
}

/** Closes every shared connection; later reads connect again. */
export async function closeKafkaConnections(): Promise<void> {
  const open = [...connections.values()];
  connections.clear();
  await Promise.all(open.map((c) => c.disconnect()));
}
