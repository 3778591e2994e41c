import { describe, expect, it } from 'vitest';
import { awsCheckpointBackend } from '../../core/aws/aws-checkpoint-backend.js';
import { MemorySink, MicroBatchExecution, SluiceSession } from '../../core/index.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

/** A count per category over a MemoryStream, checkpointed in a new table and bucket under `queryId`. */
async function countsQuery(queryId: string) {
  const [tableName, bucket] = await Promise.all([
    createCheckpointTable(uniqueName('t')),
    createBucket(uniqueName('b')),
  ]);
  const config = {
    tableName,
    bucket,
    queryId,
    clients: { dynamodb: dynamoClient(), s3: s3Client() },
  };
  const session = new SluiceSession();
  const input = session.memoryStream('category STRING');
  const counts = session.readStream.memory(input).groupBy('category').count();
  return { config, input, counts, sink: new MemorySink(counts.schema) };
}

describe('the AWS checkpoint backend from configuration', () => {
  it('runs a query whose checkpoint is in DynamoDB and whose state is in S3, and resumes from it warm and cold', async () => {
    const { config, input, counts, sink } = await countsQuery('orders-by-category');
    const start = () =>
      counts.writeStream
        .outputMode('complete')
        .sink(sink)
        .checkpoint(awsCheckpointBackend(config))
        .start();

    const first = await start();
    input.addData([{ category: 'a' }, { category: 'b' }]);
    await first.processAllAvailable();
    input.addData([{ category: 'a' }]);
    await first.processAllAvailable();
    await first.stop();
    const second = await start();
    input.addData([{ category: 'b' }]);
    await second.processAllAvailable();
    await second.stop();

    expect(first.recentProgress.map((p) => p.stateLoad)).toEqual(['cold', 'warm']);
    expect(second.recentProgress.map((p) => p.stateLoad)).toEqual(['cold']);
    expect(second.id).toBe(first.id);
    expect(
      sink.rows().sort((x, y) => String(x.category).localeCompare(String(y.category))),
    ).toEqual([
      { category: 'a', count: 2 },
      { category: 'b', count: 2 },
    ]);
    // the small state travelled in the commits: no state object was written to S3
    expect(await awsCheckpointBackend(config).stateObjects.list('state/')).toEqual([]);
  });

  it('garbage-collects state objects in S3 beyond minBatchesToRetain, keeping the latest version loadable', async () => {
    const { config, input, counts, sink } = await countsQuery('gc');
    const execution = await MicroBatchExecution.start({
      ...awsCheckpointBackend(config),
      plan: counts.plan,
      outputMode: 'complete',
      sink,
      numStatePartitions: 2,
      snapshotInterval: 2,
      minBatchesToRetain: 1,
      inlineStateMaxBytes: 0,
    });
    for (const category of ['a', 'b', 'a', 'c', 'a']) {
      input.addData([{ category }]);
      expect((await execution.runNextBatch()).kind).toBe('committed');
    }
    const { stateObjects } = awsCheckpointBackend(config);
    const before = await stateObjects.list('state/');
    const collected = await execution.maintain();
    const after = await stateObjects.list('state/');
    expect(collected.stateFiles.deleted).toBe(before.length - after.length);
    expect(after.filter((k) => k.startsWith('state/manifests/'))).toHaveLength(1);
    await execution.releaseLease();
    const fresh = await MicroBatchExecution.start({
      ...awsCheckpointBackend(config),
      plan: counts.plan,
      outputMode: 'complete',
      sink,
      numStatePartitions: 2,
      snapshotInterval: 2,
      inlineStateMaxBytes: 0,
    });
    input.addData([{ category: 'b' }]);
    const outcome = await fresh.runNextBatch();
    expect(outcome.kind === 'committed' && outcome.progress.stateLoad).toBe('cold');
    expect(sink.rows().find((r) => r.category === 'a')).toEqual({ category: 'a', count: 3 });
  });

  it('names the setting that is missing or invalid', () => {
    expect(() => awsCheckpointBackend({ tableName: '', bucket: 'b', queryId: 'q' })).toThrow(
      /needs 'tableName'/,
    );
    expect(() => awsCheckpointBackend({ tableName: 't', bucket: ' ', queryId: 'q' })).toThrow(
      /needs 'bucket'/,
    );
    expect(() =>
      awsCheckpointBackend({ tableName: 't', bucket: 'b', queryId: 'has space' }),
    ).toThrow(/queryId='has space' is invalid/);
    for (const queryId of ['.', '..']) {
      expect(() => awsCheckpointBackend({ tableName: 't', bucket: 'b', queryId })).toThrow(
        `queryId='${queryId}' is invalid`,
      );
    }
    expect(() =>
      awsCheckpointBackend({ tableName: 't', bucket: 'b', queryId: 'q', prefix: '../../etc' }),
    ).toThrow(/prefix='\.\.\/\.\.\/etc' is invalid/);
  });
});
