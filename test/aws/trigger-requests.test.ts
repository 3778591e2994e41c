/**
 * What a trigger costs in requests, counted on the wire by relays in front of DynamoDB Local and
 * s3rver, as the bill counts them: an idle trigger reads the head and nothing else, and a warm
 * batch of a small state change writes no state object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { MemorySink, SluiceSession } from '../../core/index.js';
import { runInvocation } from '../../core/streaming/invocation.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import { createBucket, createCheckpointTable } from '../support/aws-clients.js';
import { type HttpRelay, type RelayedRequest, startHttpRelay } from '../support/http-relay.js';
import { localDynamoClient, localS3Client } from '../support/local-aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

/** Requests by kind since the last `take`: `DynamoDB GetItem`, `S3 PUT`, ... */
class RequestCount {
  private counts = new Map<string, number>();

  add(kind: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  take(): Record<string, number> {
    const taken = Object.fromEntries([...this.counts].sort());
    this.counts = new Map();
    return taken;
  }
}

const requests = new RequestCount();
let dynamoRelay: HttpRelay;
let s3Relay: HttpRelay;
let names: { table: string; bucket: string };

const dynamoOperation = (r: RelayedRequest) => {
  const target = String(r.headers['x-amz-target'] ?? '');
  return `DynamoDB ${target.slice(target.indexOf('.') + 1)}`;
};

beforeAll(async () => {
  dynamoRelay = await startHttpRelay({
    target: inject('dynamoDbEndpoint'),
    onExchange: (r) => requests.add(dynamoOperation(r)),
  });
  s3Relay = await startHttpRelay({
    target: inject('s3Endpoint'),
    onExchange: (r) => requests.add(`S3 ${r.method}`),
  });
  const [table, bucket] = await Promise.all([
    createCheckpointTable(uniqueName('checkpoints')),
    createBucket(uniqueName('state')),
  ]);
  names = { table, bucket };
});

afterAll(async () => {
  await Promise.all([dynamoRelay.stop(), s3Relay.stop()]);
});

/** A counts query's execution on the relayed services; each call is a new container. */
function container(
  queryId: string,
  session: SluiceSession,
  input: ReturnType<SluiceSession['memoryStream']>,
) {
  const counts = session.readStream.memory(input).groupBy('k').count();
  const stateObjects = new S3ObjectStore({
    client: localS3Client(s3Relay.endpoint),
    bucket: names.bucket,
    prefix: `queries/${queryId}`,
  });
  return MicroBatchExecution.start({
    checkpoint: new DynamoDbCheckpointStore({
      client: localDynamoClient(dynamoRelay.endpoint),
      tableName: names.table,
      queryId,
      largeRecords: stateObjects,
    }),
    stateObjects,
    plan: counts.plan,
    outputMode: 'update',
    sink: new MemorySink(counts.schema),
    numStatePartitions: 16,
    snapshotInterval: 10,
  });
}

const budget = { remainingMs: () => 60_000, safetyMarginMs: 100 };

describe('requests per trigger', () => {
  it('an idle trigger reads the head and nothing else: one DynamoDB request, nothing in S3', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('k STRING');
    const queryId = uniqueName('idle');
    const warm = await container(queryId, session, input);
    input.addData([{ k: 'a' }, { k: 'b' }]);
    expect((await runInvocation(warm, budget)).batches).toHaveLength(1);
    requests.take();

    const idle = await runInvocation(warm, budget);
    expect(idle).toMatchObject({ batches: [], stoppedBecause: 'idle' });
    expect(requests.take()).toEqual({ 'DynamoDB GetItem': 1 });

    // a new container has not seen the head batch's intent yet: it reads that too, still nothing in S3
    const cold = await container(queryId, session, input);
    requests.take();
    expect((await runInvocation(cold, budget)).stoppedBecause).toBe('idle');
    expect(requests.take()).toEqual({ 'DynamoDB GetItem': 2 });

    // the idle triggers left the lease free: the next batch runs at once, in either container
    input.addData([{ k: 'a' }]);
    expect((await runInvocation(warm, budget)).batches.map((b) => b.batchId)).toEqual([1]);
  });

  it('a warm batch that changes a few keys writes no state object: its state rides in the commit', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('k STRING');
    const execution = await container(uniqueName('warm'), session, input);
    const objectsPerBatch: number[] = [];
    for (let b = 0; b < 20; b++) {
      input.addData(Array.from({ length: 30 }, (_, i) => ({ k: `key${(b * 7 + i) % 200}` })));
      requests.take();
      const result = await runInvocation(execution, budget);
      expect(result.batches).toHaveLength(1);
      const counted = requests.take();
      objectsPerBatch.push(counted['S3 PUT'] ?? 0);
      // the first batch also finds the log empty; a maintenance reads the retained commits
      if (b === 0 || result.maintenance) continue;
      // the head, the lease, the intent, the commit and the lease's release
      expect(counted).toEqual({
        ...(counted['S3 PUT'] ? { 'S3 PUT': counted['S3 PUT'] } : {}),
        'DynamoDB GetItem': 1,
        'DynamoDB PutItem': 1,
        'DynamoDB TransactWriteItems': 1,
        'DynamoDB UpdateItem': 2,
      });
    }
    // at most one snapshot per batch, the partition whose turn it is; no deltas, no manifest
    expect(Math.max(...objectsPerBatch)).toBeLessThanOrEqual(1);
    expect(objectsPerBatch.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
