/**
 * The sink registry loads the AWS SDK only for a query that writes to DynamoDB, and only when that
 * query's sink is created: checking the query's options, and every other format, load nothing of it.
 */
import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ dynamoDbSdk: false }));

vi.mock('@aws-sdk/client-dynamodb', async (importOriginal) => {
  loaded.dynamoDbSdk = true;
  return importOriginal();
});

describe('the sink registry', () => {
  it('loads the DynamoDB SDK when a dynamodb sink is created, not when the query is checked', async () => {
    const { checkSink } = await import('../../core/api/sink-formats.js');
    const { SluiceSession } = await import('../../core/api/session.js');
    const session = new SluiceSession();
    const df = session.readStream.memory(session.memoryStream('id STRING, n BIGINT'));
    const options = new Map([['tablename', 'counts']]);

    const createMemorySink = checkSink('memory', { df, options: new Map() });
    await createMemorySink();
    const createDynamoDbSink = checkSink('dynamodb', { df, options });
    expect(loaded.dynamoDbSdk).toBe(false);

    const sink = await createDynamoDbSink();
    expect(loaded.dynamoDbSdk).toBe(true);
    expect(sink.description).toBe('DynamoDbSink[counts]');
  });
});
