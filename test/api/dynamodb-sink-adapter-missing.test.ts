/**
 * A program that cannot load the AWS adapter (a bundle, which leaves the lazily loaded module out)
 * and whose session gives no DynamoDB sink factory fails the query's start with an error that says
 * how to give one.
 */
import { describe, expect, it, vi } from 'vitest';
import { SluiceSession } from '../../core/api/session.js';
import { checkSink } from '../../core/api/sink-formats.js';
import { InvalidOptionError } from '../../core/errors.js';

vi.mock('../../core/aws/dynamodb-sinks.js', () => {
  throw new Error("Cannot find module '../aws/dynamodb-sinks.js'");
});

describe("format('dynamodb') without the AWS adapter", () => {
  it('fails the creation of the sink, saying to give the session dynamoDbSinks', async () => {
    const session = new SluiceSession();
    const df = session.readStream.memory(session.memoryStream('id STRING'));
    const create = checkSink('dynamodb', { df, options: new Map([['tablename', 'counts']]) });
    const error = await create().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toMatch(
      /could not load Sluice's AWS adapter.*new SluiceSession\(\{ dynamoDbSinks: dynamoDbSinks\(\{ client \}\) \}\)/,
    );
  });
});
