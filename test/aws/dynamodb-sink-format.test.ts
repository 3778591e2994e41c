/**
 * `writeStream.format('dynamodb')` on DynamoDB Local: the sink the registry builds from string
 * options upserts the canonical query's counts as `new DynamoDbSink(...)` does, with the client of
 * the session's `dynamoDbSinks`, or without one, a client that finds its region, credentials and
 * endpoint in the environment.
 */
import { type AttributeValue, CreateTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type RowObject, SluiceSession } from '../../core/index.js';
import { dynamoDbSinks } from '../../core/aws/index.js';
import { dynamoClient } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import { batchResult, clickBatches, FLUSH, windowCounts } from '../delta/window-counts.js';
import { clickSchema } from '../support/events.js';

type Item = Record<string, AttributeValue>;

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A new table keyed by the string attribute `id`. */
async function createTable(): Promise<string> {
  const name = uniqueName('format');
  await dynamoClient().send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    }),
  );
  return name;
}

/** Streams `chunks` and the flush click through the canonical query into `format('dynamodb')`. */
async function streamIntoTable(session: SluiceSession, table: string, chunks: RowObject[][]) {
  const events = session.memoryStream(clickSchema, 'clicks');
  const query = await windowCounts(session.readStream.memory(events))
    .writeStream.outputMode('update')
    .format('dynamodb')
    .option('tableName', table)
    .option('keyColumns', 'window,category')
    .option('checkpointLocation', tempDir())
    .start();
  for (const chunk of [...chunks, [FLUSH]]) {
    events.addData(chunk);
    await query.processAllAvailable();
  }
  await query.stop();
}

/** The table's windowed counts, as window-counts.ts's `canonical` gives the batch result. */
async function countsIn(table: string): Promise<string[]> {
  const items: Item[] = (await dynamoClient().send(new ScanCommand({ TableName: table }))).Items!;
  const micros = (v: AttributeValue | undefined) => Date.parse(v!.S!) * 1000;
  return items
    .filter((i) => i.category?.S !== 'flush')
    .map((i) => {
      const window = i.window.M!;
      return JSON.stringify([
        micros(window.start),
        micros(window.end),
        i.category?.S ?? null,
        Number(i.n.N),
      ]);
    })
    .sort();
}

describe("writeStream.format('dynamodb')", () => {
  it("upserts the query's result with the client of the session's dynamoDbSinks", async () => {
    const table = await createTable();
    const chunks = clickBatches(3, 20);
    const session = new SluiceSession({ dynamoDbSinks: dynamoDbSinks({ client: dynamoClient() }) });
    await streamIntoTable(session, table, chunks);
    expect(await countsIn(table)).toEqual(await batchResult(chunks.flat()));
  });

  it('without one, reaches the endpoint, region and credentials the environment names', async () => {
    const table = await createTable();
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', inject('dynamoDbEndpoint'));
    vi.stubEnv('AWS_REGION', 'us-east-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'sluicetest');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'sluicetest');
    const chunks = clickBatches(2, 20);
    await streamIntoTable(new SluiceSession(), table, chunks);
    expect(await countsIn(table)).toEqual(await batchResult(chunks.flat()));
  });

  it('fails the start naming the table when it does not exist', async () => {
    const session = new SluiceSession({ dynamoDbSinks: dynamoDbSinks({ client: dynamoClient() }) });
    const missing = uniqueName('missing');
    await expect(streamIntoTable(session, missing, [])).rejects.toThrow(
      new RegExp(`table ${missing} does not exist`),
    );
  });

  it('refuses a dynamoDbSinks that is not a factory, naming the session option', () => {
    expect(
      () =>
        new SluiceSession({
          dynamoDbSinks: 'counts' as unknown as ReturnType<typeof dynamoDbSinks>,
        }),
    ).toThrow(/Session option dynamoDbSinks must be a function/);
  });
});
