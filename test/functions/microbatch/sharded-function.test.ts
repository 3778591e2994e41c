/**
 * A query that runs as four shards on the local services (DynamoDB Local, s3rver, the Kafka mock
 * cluster): a topic keyed by user, counted by user, so the keys are aligned with the partitions and
 * each shard holds the counts of its own users. The shards are invoked concurrently, round after
 * round; some invocations crash mid-batch (their container is discarded, as a killed one is) and some
 * shards are invoked twice at once. The DynamoDB table the shards upsert into equals the batch query.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  col,
  count,
  from_json,
  ParallelismChangedError,
  type RowObject,
  shardedQueryStatus,
  SluiceSession,
} from '../../../core/index.js';
import { DynamoDbCheckpointStore } from '../../../core/aws/index.js';
import { closeKafkaConnections } from '../../../core/kafka/kafka-connection-pool.js';
import { CrashInjector } from '../../../core/testing/index.js';
import { ENV } from '../../../functions/microbatch/configuration.js';
import {
  type MicroBatchHandler,
  microBatchHandler,
} from '../../../functions/microbatch/handler.js';
import { defineQuery } from '../../../functions/microbatch/query-module.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../../support/aws-clients.js';
import { crashingAwsClient } from '../../support/crashing-aws-client.js';
import { produce } from '../../support/kafka-producer.js';
import { lambdaContext } from '../../support/lambda-context.js';
import { uniqueName } from '../../support/unique-name.js';

afterAll(() => closeKafkaConnections());

const USERS = 13;

/**
 * Clicks per user over a Kafka DataFrame of JSON values keyed by user: grouped by the records' key,
 * which the engine sees is the topic's partitioning, so no repartition stage is needed.
 */
const clicksPerUser = defineQuery({
  outputMode: 'update',
  query: (kafka) =>
    kafka.groupBy(col('key').cast('string').alias('user')).agg(count().alias('clicks')),
});

/** `n` clicks from click `from` on, each in its user's partition (user i in partition i mod 4). */
function clicks(from: number, n: number) {
  return Array.from({ length: n }, (_, k) => {
    const user = (from + k) % USERS;
    const value = JSON.stringify({ user: `u${user}`, page: `/p/${from + k}` });
    return { partition: user % 4, key: `u${user}`, value };
  });
}

describe('a query that runs as four shards of one function', () => {
  it('upserts exactly the batch counts, through crashes and concurrent invocations', async () => {
    const topic = uniqueName('sharded-clicks');
    const countsTable = uniqueName('sharded-counts');
    const [table, bucket] = await Promise.all([
      createCheckpointTable(uniqueName('checkpoint')),
      createBucket(uniqueName('state')),
      dynamoClient().send(
        new CreateTableCommand({
          TableName: countsTable,
          AttributeDefinitions: [{ AttributeName: 'user', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'user', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      ),
    ]);
    const queryId = uniqueName('sharded');
    const env = (parallelism: number) => ({
      [ENV.queryId]: queryId,
      [ENV.checkpointTable]: table,
      [ENV.stateBucket]: bucket,
      [ENV.source]: JSON.stringify({
        kind: 'kafka',
        bootstrapServers: inject('kafkaBootstrapServers').split(','),
        topic,
        maxOffsetsPerTrigger: 20,
      }),
      [ENV.sink]: JSON.stringify({
        kind: 'dynamodb',
        tableName: countsTable,
        keyColumns: ['user'],
      }),
      [ENV.leaseDurationMs]: '1000',
      [ENV.parallelism]: String(parallelism),
    });
    /** A fresh container; a crashing one dies at its `crashAt`-th DynamoDB crash point. */
    const container = (crashAt?: number): MicroBatchHandler =>
      microBatchHandler(clicksPerUser, {
        env: env(4),
        clients: {
          s3: s3Client(),
          dynamodb:
            crashAt === undefined
              ? dynamoClient()
              : crashingAwsClient(dynamoClient(), new CrashInjector({ crashAt })),
        },
      });
    const containers = [0, 1, 2, 3].map(() => container());
    let crashes = 0;
    /** Invokes shard `shard` in `handler`; a crash discards the container, as Lambda's kill does. */
    const invoke = async (shard: number, handler: MicroBatchHandler) => {
      try {
        return await handler({ shard }, lambdaContext(60_000));
      } catch (error) {
        crashes++;
        expect(String(error)).toMatch(/Crash injected/);
        return undefined;
      }
    };

    await produce(topic, clicks(0, 150));
    let produced = 150;
    const quiet = new Set<number>();
    // 24 rounds with kills; then plain invocations until every shard is idle at once, which takes
    // as long as the killed containers' leases (1 s) hold, however fast the rounds go
    const deadline = Date.now() + 60_000;
    for (let round = 0; round < 24 || (quiet.size < 4 && Date.now() < deadline); round++) {
      if (round === 3) {
        await produce(topic, clicks(produced, 90));
        produced += 90;
      }
      const results = await Promise.all(
        containers.map(async (handler, shard) => {
          if (round < 24 && round % 4 === shard) {
            // this round, shard's invocation runs in a fresh container killed at one of its later
            // requests (lease, intent, the sink's writes, the commit); then the shard is invoked
            // twice at once, in its warm container and in another fresh one
            await invoke(shard, container(8 + ((round * 5) % 16)));
            const [warm, twin] = await Promise.all([
              invoke(shard, handler),
              invoke(shard, container()),
            ]);
            return warm?.stoppedBecause === 'idle' ? twin : warm;
          }
          return invoke(shard, handler);
        }),
      );
      quiet.clear();
      results.forEach((r, shard) => {
        if (r?.stoppedBecause === 'idle' && round >= 4) quiet.add(shard);
      });
    }
    expect(quiet.size).toBe(4);
    expect(crashes).toBeGreaterThanOrEqual(3);

    const documents = DynamoDBDocumentClient.from(dynamoClient());
    const scan = await documents.send(new ScanCommand({ TableName: countsTable }));
    const upserted = (scan.Items ?? []).map((i) => `${String(i.user)}=${String(i.clicks)}`);
    const session = new SluiceSession();
    const expected = await session
      .createDataFrame(
        [...clicks(0, produced)].map((c) => ({ value: c.value })),
        'value STRING',
      )
      .select(from_json(col('value'), 'user STRING, page STRING').alias('e'))
      .groupBy(col('e.user').alias('user'))
      .agg(count().alias('clicks'))
      .collect();
    expect(upserted.sort()).toEqual(
      expected.map((r: RowObject) => `${String(r.user)}=${String(r.clicks)}`).sort(),
    );

    // each shard has its own item collection; the query's records the parallelism
    const shardHead = await documents.send(
      new GetCommand({ TableName: table, Key: { pk: `query#${queryId}#0#2`, sk: 'head' } }),
    );
    expect(shardHead.Item?.batchId).toBeGreaterThan(0);
    const store = (shard?: { stage: number; shard: number; shards: number }) =>
      new DynamoDbCheckpointStore({ client: dynamoClient(), tableName: table, queryId, shard });
    expect((await store().getMetadata())?.parallelism).toBe(4);
    expect(await store().latestCommit()).toBeUndefined();
    // shard i read partition i alone: its last intent ends in that partition only
    for (const shard of [0, 1, 2, 3]) {
      const checkpoint = store({ stage: 0, shard, shards: 4 });
      const head = await checkpoint.latestCommit();
      const intent = await checkpoint.getIntent(head!.batchId);
      expect(Object.keys((intent!.end[0] as Record<string, object>)[topic])).toEqual([
        String(shard),
      ]);
    }
    const status = await shardedQueryStatus(store(), { shardCheckpoint: store });
    expect(status?.shards.map((s) => s.status?.lastCommittedBatch !== null)).toEqual([
      true,
      true,
      true,
      true,
    ]);

    // a warm container serves another shard in place of its own, and its own again
    for (const shard of [1, 0]) {
      const served = await containers[0]({ shard }, lambdaContext(60_000));
      expect(served.stoppedBecause).toBe('idle');
    }

    // the same query with another parallelism is refused at its first invocation
    const resized = microBatchHandler(clicksPerUser, {
      env: env(2),
      clients: { s3: s3Client(), dynamodb: dynamoClient() },
    });
    await expect(resized({ shard: 0 }, lambdaContext(60_000))).rejects.toThrow(
      ParallelismChangedError,
    );
  });
});
