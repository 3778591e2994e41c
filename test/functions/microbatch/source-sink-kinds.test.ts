/**
 * The function runs every source and sink kind its configuration names, end to end on the local
 * services: S3 files into a files sink and into a DynamoDB table, and Kafka into Kafka. Each output
 * equals the batch query over the same input.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { col, FileSinkLog, type RowObject, SluiceSession } from '../../../core/index.js';
import { S3ObjectStore } from '../../../core/aws/index.js';
import { closeKafkaConnections } from '../../../core/kafka/kafka-connection-pool.js';
import { clickCounts, clickstreamQuery } from '../../../examples/clickstream-query.js';
import { ENV } from '../../../functions/microbatch/configuration.js';
import { microBatchHandler } from '../../../functions/microbatch/handler.js';
import { defineQuery } from '../../../functions/microbatch/query-module.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../../support/aws-clients.js';
import { produce } from '../../support/kafka-producer.js';
import { lambdaContext } from '../../support/lambda-context.js';
import { uniqueName } from '../../support/unique-name.js';

afterAll(() => closeKafkaConnections());

/** Clicks in order over two hours, then one far later that closes every window before it. */
function clickLines(): string[] {
  const start = Date.parse('2026-11-29T10:00:00Z');
  const clicks = Array.from({ length: 120 }, (_, i) => ({
    ts: new Date(start + i * 60_000).toISOString(),
    category: ['books', 'music', 'garden'][i % 3],
    user: `u${i % 7}`,
    page: `/p/${i}`,
  }));
  clicks.push({ ts: '2026-11-30T10:00:00Z', category: 'flush', user: 'z', page: '/' });
  return clicks.map((c) => JSON.stringify(c));
}

/** The canonical query's rows as a batch query gives them, without the flush click's open window. */
async function expectedCounts(lines: string[]): Promise<string[]> {
  const session = new SluiceSession();
  const rows = await clickCounts(
    session.createDataFrame(
      lines.map((value, i) => ({ partition: i % 4, value })),
      'value STRING',
    ),
  ).collect();
  return canonical(rows.filter((r) => r.category !== 'flush'));
}

function canonical(rows: readonly RowObject[]): string[] {
  return rows
    .map((r) => {
      const w = r.window as { start: unknown };
      return `${new Date(typeof w.start === 'number' ? w.start / 1000 : String(w.start)).toISOString()}|${r.category}=${r.count}`;
    })
    .sort();
}

/** A handler for `source` and `sink`, with a fresh checkpoint on the local services. */
async function handlerFor(source: object, sink: object, query = clickstreamQuery) {
  const [table, state] = await Promise.all([
    createCheckpointTable(uniqueName('checkpoint')),
    createBucket(uniqueName('state')),
  ]);
  return microBatchHandler(query, {
    env: {
      [ENV.queryId]: uniqueName('kinds'),
      [ENV.checkpointTable]: table,
      [ENV.stateBucket]: state,
      [ENV.source]: JSON.stringify(source),
      [ENV.sink]: JSON.stringify(sink),
      [ENV.scheduleInterval]: '1 minute',
    },
    clients: { s3: s3Client(), dynamodb: dynamoClient() },
  });
}

/** Puts the lines as two JSON-lines objects under `prefix`; returns the source configuration. */
async function s3Input(lines: string[]) {
  const bucket = await createBucket(uniqueName('in'));
  const half = Math.floor(lines.length / 2);
  for (const [i, part] of [lines.slice(0, half), lines.slice(half)].entries()) {
    await s3Client().send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `clicks/part-${i}.json`,
        Body: part.join('\n') + '\n',
      }),
    );
  }
  return { kind: 's3-files', bucket, prefix: 'clicks', format: 'text', maxFilesPerTrigger: 1 };
}

/** Invokes until an invocation commits nothing (the no-data batch that closes windows included). */
async function runUntilIdle(handler: ReturnType<typeof microBatchHandler>): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const result = (await handler({}, lambdaContext(60_000))) as { batchesCommitted?: number };
    if (!result.batchesCommitted) return;
  }
  throw new Error('the query still committed batches after 10 invocations');
}

describe('the function with each source and sink kind', () => {
  it('reads new S3 objects and writes exactly-once files', async () => {
    const lines = clickLines();
    const out = await createBucket(uniqueName('out'));
    const handler = await handlerFor(await s3Input(lines), {
      kind: 'files',
      bucket: out,
      path: 'counts',
      format: 'json',
    });
    await runUntilIdle(handler);

    const store = new S3ObjectStore({ client: s3Client(), bucket: out, prefix: 'counts' });
    const rows: RowObject[] = [];
    for (const file of await new FileSinkLog(store).allFiles()) {
      const text = new TextDecoder().decode((await store.get(file.path))!);
      rows.push(
        ...text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as RowObject),
      );
    }
    expect(canonical(rows)).toEqual(await expectedCounts(lines));
  });

  it('reads new S3 objects and upserts the counts into a DynamoDB table', async () => {
    const lines = clickLines();
    const tableName = uniqueName('counts');
    await dynamoClient().send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    const handler = await handlerFor(await s3Input(lines), { kind: 'dynamodb', tableName });
    await runUntilIdle(handler);

    const documents = DynamoDBDocumentClient.from(dynamoClient());
    const scan = await documents.send(new ScanCommand({ TableName: tableName }));
    const rows = (scan.Items ?? []) as RowObject[];
    expect(canonical(rows)).toEqual(await expectedCounts(lines));
  });

  it('reads a Kafka topic and writes its records to another topic', async () => {
    const input = uniqueName('kinds-in');
    const output = uniqueName('kinds-out');
    const lines = clickLines();
    await produce(
      input,
      lines.map((value, i) => ({ partition: i % 4, value })),
    );
    const servers = inject('kafkaBootstrapServers').split(',');
    const passThrough = defineQuery({
      outputMode: 'append',
      query: (clicks) => clicks.select(col('value').cast('string').alias('value')),
    });
    const handler = await handlerFor(
      { kind: 'kafka', bootstrapServers: servers, topic: input },
      { kind: 'kafka', bootstrapServers: servers, topic: output },
      passThrough,
    );
    await runUntilIdle(handler);

    const written = await new SluiceSession().read
      .format('kafka')
      .option('kafka.bootstrap.servers', servers.join(','))
      .option('subscribe', output)
      .load()
      .collect();
    const values = written.map((r) => Buffer.from(r.value as Uint8Array).toString());
    expect(values.sort()).toEqual([...lines].sort());
  });
});
