/**
 * The consumer group a streaming query copies its committed offsets to, for Kafka's lag tools. The
 * CDK construct grants MSK IAM access to the same name, so it lives apart from the Kafka client.
 */

/** The consumer group of the query `queryId`, unless kafka.group.id names another. */
export function queryGroupId(queryId: string): string {
  return `sluice-${queryId}`;
}
