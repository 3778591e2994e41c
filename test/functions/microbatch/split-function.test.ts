/**
 * A split query run by the function (docs/repartition-stage.md): clicks counted per page, read from a
 * topic keyed by user, so the counts are not aligned with the partitions. Each invocation names its
 * stage and shard (`{"stage": s, "shard": i}`); stage 1 writes its rows to the repartition topic on
 * the source's cluster, stage 2 counts them, on the local services. A stage-2 shard is invoked twice
 * at once. The DynamoDB table the stage-2 shards upsert into equals the batch query.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  col,
  count,
  from_json,
  StageSelectionError,
  UnsupportedOperationError,
} from '../../../core/index.js';
import { closeKafkaConnections } from '../../../core/kafka/kafka-connection-pool.js';
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

const PAGES = 7;

/** Clicks per page over a Kafka DataFrame of JSON values keyed by user. */
const clicksPerPage = defineQuery({
  outputMode: 'update',
  query: (kafka) =>
    kafka
      .select(from_json(col('value').cast('string'), 'user STRING, page STRING').alias('e'))
      .select('e.*')
      .groupBy(col('page'))
      .agg(count().alias('clicks')),
});

/** `n` clicks from click `from` on; user i's records sit in partition i mod 4. */
function clicks(from: number, n: number) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const user = i % 11;
    const value = JSON.stringify({ user: `u${user}`, page: `/p/${(i * 3) % PAGES}` });
    return { partition: user % 4, key: `u${user}`, value };
  });
}

describe('a split query run by the function, stage and shard named by each event', () => {
  it('upserts exactly the batch counts per page from stage 2', async () => {
    const topic = uniqueName('split-clicks');
    const countsTable = uniqueName('split-counts');
    const [table, bucket] = await Promise.all([
      createCheckpointTable(uniqueName('checkpoint')),
      createBucket(uniqueName('state')),
      dynamoClient().send(
        new CreateTableCommand({
          TableName: countsTable,
          AttributeDefinitions: [{ AttributeName: 'page', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'page', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      ),
    ]);
    const env = {
      [ENV.queryId]: uniqueName('split'),
      [ENV.checkpointTable]: table,
      [ENV.stateBucket]: bucket,
      [ENV.source]: JSON.stringify({
        kind: 'kafka',
        bootstrapServers: inject('kafkaBootstrapServers').split(','),
        topic,
        maxOffsetsPerTrigger: 30,
      }),
      [ENV.sink]: JSON.stringify({
        kind: 'dynamodb',
        tableName: countsTable,
        keyColumns: ['page'],
      }),
      [ENV.leaseDurationMs]: '1000',
      [ENV.parallelism]: '2',
    };
    const container = () =>
      microBatchHandler(clicksPerPage, {
        env,
        clients: { s3: s3Client(), dynamodb: dynamoClient() },
      });
    const stage1 = [container(), container()];
    const stage2 = [container(), container()];

    // the cold start checks the split query as both stages: stage 2's aggregation cannot run in
    // append mode without a watermark, which fails the cold start of a function serving no one stage
    const appended = defineQuery({ outputMode: 'append', query: clicksPerPage.query });
    expect(() =>
      microBatchHandler(appended, {
        env,
        clients: { s3: s3Client(), dynamodb: dynamoClient() },
      }),
    ).toThrow(UnsupportedOperationError);

    // a sharded split query's invocation without a stage is refused, naming the choice
    await expect(container()({ shard: 0 }, lambdaContext(60_000))).rejects.toThrow(
      StageSelectionError,
    );

    await produce(topic, clicks(0, 100));
    let produced = 100;
    let quietRounds = 0;
    for (let round = 0; round < 30 && quietRounds < 2; round++) {
      if (round === 2) {
        await produce(topic, clicks(produced, 60));
        produced += 60;
      }
      const first = await Promise.all(
        stage1.map((handler, shard) => handler({ stage: 1, shard }, lambdaContext(60_000))),
      );
      const second = await Promise.all(
        stage2.map((handler, shard) =>
          round === 1 && shard === 1
            ? Promise.all([
                handler({ stage: 2, shard }, lambdaContext(60_000)),
                container()({ stage: 2, shard }, lambdaContext(60_000)).catch(() => undefined),
              ]).then(([warm]) => warm)
            : handler({ stage: 2, shard }, lambdaContext(60_000)),
        ),
      );
      const read = [...first, ...second].reduce((n, r) => n + r.numInputRows, 0);
      quietRounds = round >= 2 && read === 0 ? quietRounds + 1 : 0;
    }
    expect(quietRounds).toBe(2);

    const documents = DynamoDBDocumentClient.from(dynamoClient());
    const scan = await documents.send(new ScanCommand({ TableName: countsTable }));
    const upserted = (scan.Items ?? []).map((i) => `${String(i.page)}=${String(i.clicks)}`);
    const expected = new Map<string, number>();
    for (const c of clicks(0, produced)) {
      const page = (JSON.parse(c.value) as { page: string }).page;
      expected.set(page, (expected.get(page) ?? 0) + 1);
    }
    expect(upserted.sort()).toEqual([...expected].map(([p, n]) => `${p}=${n}`).sort());
    expect(expected.size).toBe(PAGES);
  });
});
