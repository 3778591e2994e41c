/**
 * The DynamoDB checkpoint's integrity on DynamoDB Local: records that were edited or moved, a head
 * item that was deleted or disagrees with its record, the TTL of the offset log, and references and
 * ids that would lead outside the query's items and objects.
 */
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import {
  CHECKPOINT_FORMAT_VERSION,
  type CommitRecord,
  type Lease,
  type OffsetIntent,
} from '../../core/checkpoint/checkpoint-store.js';
import { CheckpointError, UnsafePathError } from '../../core/errors.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

let table: Promise<string> | undefined;

/** A new query's checkpoint in the file's table, with a document client to edit its items. */
async function fresh() {
  table ??= createCheckpointTable(uniqueName('checkpoints'));
  const tableName = await table;
  const queryId = uniqueName('query');
  const store = new DynamoDbCheckpointStore({ client: dynamoClient(), tableName, queryId });
  const items = DynamoDBDocumentClient.from(dynamoClient());
  const key = (sk: string) => ({ TableName: tableName, Key: { pk: `query#${queryId}`, sk } });
  return {
    store,
    get: async (sk: string) => (await items.send(new GetCommand(key(sk)))).Item,
    set: (sk: string, attribute: string, value: unknown) =>
      items.send(
        new UpdateCommand({
          ...key(sk),
          UpdateExpression: 'SET #a = :v',
          ExpressionAttributeNames: { '#a': attribute },
          ExpressionAttributeValues: { ':v': value },
        }),
      ),
    remove: (sk: string) => items.send(new DeleteCommand(key(sk))),
  };
}

function intent(batchId: number): OffsetIntent {
  return {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    start: [batchId === 0 ? null : 10 * batchId - 1],
    end: [10 * batchId + 9],
    batchTimestampMs: 1_000 + batchId,
    watermarkMicros: null,
  };
}

function commit(batchId: number): CommitRecord {
  return {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    stateManifest: `state/manifests/${batchId}-a.json`,
    eventTimeMax: { 0: 1_767_261_600_000_000 + batchId },
    nextWatermarkMicros: 1_767_261_000_000_000 + batchId,
  };
}

/** Plans and commits batches `0..count-1` as the protocol does. */
async function commitBatches(store: DynamoDbCheckpointStore, count: number): Promise<Lease> {
  let lease: Lease | undefined;
  for (let batchId = 0; batchId < count; batchId++) {
    const leased = await store.acquireLease('owner', 60_000);
    if (leased.kind !== 'acquired') throw new Error('lease not acquired');
    lease = leased.lease;
    await store.putIntent(intent(batchId));
    expect(await store.commit(commit(batchId), lease)).toBe('committed');
  }
  return lease!;
}

/** `text` with the last digit of `number` (which it must contain) changed. */
function editDigit(text: string, number: number): string {
  const digits = String(number);
  expect(text).toContain(digits);
  return text.replace(digits, `${digits.slice(0, -1)}${(Number(digits.at(-1)) + 1) % 10}`);
}

describe('DynamoDbCheckpointStore integrity', () => {
  it('refuses a commit item whose watermark had a digit edited, naming the item', async () => {
    const { store, get, set } = await fresh();
    await commitBatches(store, 2);
    const sk = 'commit#00000000000000000000';
    const record = (await get(sk))!.record as string;
    await set(sk, 'record', editDigit(record, commit(0).nextWatermarkMicros!));
    const error = await store.getCommit(0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toContain(`item ${sk} is corrupt (checksum mismatch)`);
  });

  it('refuses an intent item whose end offset had a digit edited', async () => {
    const { store, get, set } = await fresh();
    await store.putIntent(intent(3));
    const sk = 'offsets#00000000000000000003';
    await set(sk, 'record', editDigit((await get(sk))!.record as string, 39));
    await expect(store.getIntent(3)).rejects.toThrow(`item ${sk} is corrupt (checksum mismatch)`);
  });

  it('refuses an intent item whose batchId attribute or record belongs to another batch', async () => {
    const { store, get, set } = await fresh();
    await store.putIntent(intent(3));
    await store.putIntent(intent(4));
    await set('offsets#00000000000000000004', 'batchId', 5);
    await expect(store.getIntent(4)).rejects.toThrow(
      /offsets#00000000000000000004 \(its batchId attribute\) holds batch 5, but is stored as the record of batch 4/,
    );
    await set('offsets#00000000000000000004', 'batchId', 4);
    const other = (await get('offsets#00000000000000000003'))!.record as string;
    await set('offsets#00000000000000000004', 'record', other);
    await expect(store.getIntent(4)).rejects.toThrow(
      /offsets#00000000000000000004 holds batch 3, but is stored as the record of batch 4/,
    );
  });

  it('refuses a head whose record had a digit edited, when the lease is taken', async () => {
    const { store, get, set } = await fresh();
    await commitBatches(store, 2);
    const record = (await get('head'))!.record as string;
    await set('head', 'record', editDigit(record, commit(1).nextWatermarkMicros!));
    await expect(store.acquireLease('owner', 60_000)).rejects.toThrow(
      /item head is corrupt \(checksum mismatch\)/,
    );
  });

  it("refuses a head whose batchId disagrees with its record, saying how to recover, instead of losing every commit's condition", async () => {
    const { store, set } = await fresh();
    await commitBatches(store, 3);
    await set('head', 'batchId', 7);
    for (const read of [() => store.acquireLease('owner', 60_000), () => store.latestCommit()]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toMatch(
        /item head has batchId 7 but its record is the commit of batch 2.*Set the head's batchId to 2/,
      );
    }
  });

  it('refuses a lost head item instead of re-running batch 0, naming the latest commit to recover from', async () => {
    const { store, remove } = await fresh();
    await commitBatches(store, 3);
    await remove('head');
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await store.acquireLease('owner', 60_000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toMatch(
        /item head is missing or has no commit, but commit#00000000000000000002 exists: the head item was deleted.*writing the head back from the latest commit item/,
      );
    }
    await expect(store.latestCommit()).rejects.toThrow(/the head item was deleted/);
  });

  it('takes the lease of a new query, whose head has no commit and no commit log', async () => {
    const { store } = await fresh();
    expect(await store.acquireLease('owner', 60_000)).toMatchObject({
      kind: 'acquired',
      head: undefined,
    });
    expect(await store.latestCommit()).toBeUndefined();
  });
});

/** A new query's checkpoint whose client counts the requests it sends. */
async function counted() {
  table ??= createCheckpointTable(uniqueName('checkpoints'));
  const client = dynamoClient();
  let requests = 0;
  client.middlewareStack.add(
    (next) => (args) => {
      requests++;
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
  const store = new DynamoDbCheckpointStore({
    client,
    tableName: await table,
    queryId: uniqueName('query'),
  });
  /** The requests sent since the last call. */
  const take = () => {
    const n = requests;
    requests = 0;
    return n;
  };
  return { store, take };
}

describe('DynamoDbCheckpointStore losing races', () => {
  it("returns the winner's intent to a losing putIntent in that one request", async () => {
    const { store, take } = await counted();
    expect(await store.putIntent(intent(0))).toEqual({ kind: 'created' });
    take();
    const lost = await store.putIntent({ ...intent(0), batchTimestampMs: 99 });
    expect(lost).toEqual({ kind: 'exists', intent: intent(0) });
    expect(take()).toBe(1);
  });

  it('returns the existing metadata to a losing createMetadata in that one request', async () => {
    const { store, take } = await counted();
    const metadata = {
      formatVersion: CHECKPOINT_FORMAT_VERSION,
      queryId: 'first',
      planFingerprint: 'p',
      numStatePartitions: 2,
    };
    await store.createMetadata(metadata);
    take();
    expect(await store.createMetadata({ ...metadata, queryId: 'second' })).toEqual({
      kind: 'exists',
      metadata,
    });
    expect(take()).toBe(1);
  });

  it('names the holder of a live lease in the one request that was refused', async () => {
    const { store, take } = await counted();
    const held = await store.acquireLease('first', 60_000);
    if (held.kind !== 'acquired') throw new Error('lease not acquired');
    take();
    expect(await store.acquireLease('second', 60_000)).toEqual({
      kind: 'held',
      owner: 'first',
      expiresAtMs: held.lease.expiresAtMs,
    });
    expect(take()).toBe(1);
  });

  it('refuses the existing intent a losing putIntent gets back when it was edited', async () => {
    const { store, get, set } = await fresh();
    await store.putIntent(intent(3));
    const sk = 'offsets#00000000000000000003';
    await set(sk, 'record', editDigit((await get(sk))!.record as string, 39));
    await expect(store.putIntent(intent(3))).rejects.toThrow(
      `item ${sk} is corrupt (checksum mismatch)`,
    );
  });
});

describe('DynamoDbCheckpointStore lease renewal', () => {
  async function acquired(store: DynamoDbCheckpointStore, owner: string, durationMs: number) {
    const result = await store.acquireLease(owner, durationMs);
    if (result.kind !== 'acquired') throw new Error(`${owner} did not get the lease`);
    return result.lease;
  }

  it('extends a live lease, keeping its epoch, so its holder still commits', async () => {
    const { store, get } = await fresh();
    await store.putIntent(intent(0));
    const lease = await acquired(store, 'holder', 200);
    await new Promise((r) => setTimeout(r, 100));
    const renewed = await store.renewLease(lease, 60_000);
    expect(renewed).toEqual({
      kind: 'renewed',
      lease: { ...lease, expiresAtMs: expect.any(Number) as number },
    });
    if (renewed.kind !== 'renewed') return;
    expect(renewed.lease.expiresAtMs).toBeGreaterThan(lease.expiresAtMs + 50_000);
    expect((await get('head'))!.leaseExpiresAt).toBe(renewed.lease.expiresAtMs);
    await new Promise((r) => setTimeout(r, 150)); // past the first expiry: the renewal holds
    expect((await store.acquireLease('rival', 60_000)).kind).toBe('held');
    expect(await store.commit(commit(0), renewed.lease)).toBe('committed');
  });

  it("takes a crashed holder's lease once it expired, and refuses the stale holder's renewal and commit", async () => {
    const { store, get } = await fresh();
    await store.putIntent(intent(0));
    const crashed = await acquired(store, 'crashed', 100);
    expect((await store.acquireLease('next', 60_000)).kind).toBe('held');
    await new Promise((r) => setTimeout(r, 150));
    const taken = await acquired(store, 'next', 60_000);
    expect(taken.epoch).toBe(crashed.epoch + 1);
    expect(await store.renewLease(crashed, 60_000)).toEqual({ kind: 'lost' });
    expect(await store.commit(commit(0), crashed)).toBe('lease-lost');
    expect((await get('head'))!.leaseOwner).toBe('next');
    expect(await store.commit(commit(0), taken)).toBe('committed');
  });

  it('refuses to renew a lease that was released', async () => {
    const { store } = await fresh();
    const lease = await acquired(store, 'holder', 60_000);
    await store.releaseLease(lease);
    expect(await store.renewLease(lease, 60_000)).toEqual({ kind: 'lost' });
  });
});

describe('DynamoDbCheckpointStore offset log TTL', () => {
  it("gives an intent its TTL once the next batch commits, and keeps the head's intent", async () => {
    const { store, get } = await fresh();
    const before = Math.floor(Date.now() / 1000);
    await commitBatches(store, 3);
    const ttl = (batchId: number) => get(`offsets#0000000000000000000${batchId}`);
    for (const batchId of [0, 1]) {
      const expiresAt = (await ttl(batchId))!.expiresAt as number;
      expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 24 * 3600);
    }
    expect((await ttl(2))!.expiresAt).toBeUndefined();
    expect(await store.getIntent(2)).toEqual(intent(2));
  });
});

/** An intent too large for its item (`maxItemRecordBytes` 10 below), so it spills to S3. */
const spilled: OffsetIntent = {
  ...intent(0),
  start: [null],
  end: [{ files: ['a'.repeat(200)] }],
};

describe('a DynamoDB checkpoint store', () => {
  it.each(['.', '..', 'a/b', ''])('refuses the query id %j, naming the option', (queryId) => {
    expect(
      () => new DynamoDbCheckpointStore({ client: dynamoClient(), tableName: 't', queryId }),
    ).toThrow(`DynamoDbCheckpointStore option 'queryId'='${queryId}' is invalid`);
  });
});

describe('an intent spilled to the object store', () => {
  it('is refused when its item references a key outside the store, such as another query’s', async () => {
    const [tableName, bucket] = await Promise.all([
      createCheckpointTable(uniqueName('t')),
      createBucket(uniqueName('b')),
    ]);
    const objects = (queryId: string) =>
      new S3ObjectStore({ client: s3Client(), bucket, prefix: `sluice/${queryId}` });
    const store = new DynamoDbCheckpointStore({
      client: dynamoClient(),
      tableName,
      queryId: 'q1',
      largeRecords: objects('q1'),
      maxItemRecordBytes: 10,
    });
    expect(await store.putIntent(spilled)).toEqual({ kind: 'created' });
    expect(await store.getIntent(0)).toEqual(spilled);
    // a second attempt loses and gets the spilled intent back from the object store
    expect(await store.putIntent({ ...spilled, batchTimestampMs: 2 })).toEqual({
      kind: 'exists',
      intent: spilled,
    });

    // another query's object, and an item that points at it
    const foreign = '../q2/checkpoint/q2/offsets/0.json';
    await objects('q2').put('checkpoint/q2/offsets/0.json', Buffer.from(JSON.stringify(spilled)));
    await dynamoClient().send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: { pk: { S: 'query#q1' }, sk: { S: `offsets#${'0'.padStart(20, '0')}` } },
        UpdateExpression: 'SET recordKey = :k',
        ConditionExpression: 'attribute_exists(recordKey)',
        ExpressionAttributeValues: { ':k': { S: foreign } },
      }),
    );
    const read = store.getIntent(0);
    await expect(read).rejects.toBeInstanceOf(UnsafePathError);
    await expect(read).rejects.toThrow(
      `${store.location} item offsets#${'0'.padStart(20, '0')} holds the path "${foreign}", which climbs out`,
    );
  });
});
