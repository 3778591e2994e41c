/**
 * Progress history on DynamoDB Local: each commit item holds its batch's progress record, written in
 * the commit's own transaction, while the head item, which every batch reads, holds the commit
 * without it.
 */
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { decodeCheckpointRecord } from '../../core/checkpoint/checkpoint-record.js';
import type { CommitRecord } from '../../core/checkpoint/checkpoint-store.js';
import { progressHistory } from '../../core/index.js';
import { countCategories } from '../support/category-counts.js';
import { at } from '../support/events.js';
import { dynamoClient } from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';
import { awsBackend } from './aws-backend.js';

describe('progress history in the DynamoDB checkpoint', () => {
  it('reads each batch back from its commit item; the head leaves progress out', async () => {
    const queryId = uniqueName('history');
    const backend = await awsBackend(queryId);
    const query = await countCategories(backend, [
      [{ ts: at('10:00:00'), category: 'a', user: 'u1' }],
      [
        { ts: at('10:01:00'), category: 'a', user: 'u2' },
        { ts: at('10:02:00'), category: 'b', user: 'u3' },
      ],
    ]);

    const history = await progressHistory(backend.checkpoint);
    expect(history.map((p) => [p.batchId, p.numInputRows, p.runId])).toEqual([
      [0, 1, query.runId],
      [1, 2, query.runId],
    ]);
    expect(history[1].stateOperators[0]).toMatchObject({ numRowsTotal: 2, numRowsUpdated: 2 });

    const store = backend.checkpoint as DynamoDbCheckpointStore;
    const head = await rawItem(store, queryId, 'head');
    const headCommit = decodeCheckpointRecord<CommitRecord>(head.record as string, 'head');
    expect(headCommit.batchId).toBe(1);
    expect(headCommit.progress).toBeUndefined();
    expect((await store.latestCommit())?.progress).toBeUndefined();
    expect((await store.getCommit(1))?.progress).toMatchObject({ batchId: 1, numInputRows: 2 });
  });
});

/** An item of the query's checkpoint as DynamoDB holds it. */
async function rawItem(store: DynamoDbCheckpointStore, queryId: string, sk: string) {
  const tableName = store.location.split('/')[2];
  const items = DynamoDBDocumentClient.from(dynamoClient());
  const got = await items.send(
    new GetCommand({ TableName: tableName, Key: { pk: `query#${queryId}`, sk } }),
  );
  return got.Item!;
}
