/**
 * DynamoDbSink on DynamoDB Local: windowed counts upserted by key end equal to the batch query's
 * result in update and complete mode, through crashes at every step of the commit protocol and
 * through an invocation that reaches the sink after later batches committed; how rows become items;
 * and the checks made when the query starts.
 */
import {
  type AttributeValue,
  CreateTableCommand,
  GetItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  type DataFrame,
  InvalidOptionError,
  type OutputMode,
  type RowObject,
  type Sink,
  SinkError,
  SluiceSession,
} from '../../core/index.js';
import { DynamoDbSink, type DynamoDbSinkOptions } from '../../core/aws/index.js';
import { runInvocation } from '../../core/streaming/invocation.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import type { StructType } from '../../core/types/data-types.js';
import type { Row } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';
import { dynamoClient } from '../support/aws-clients.js';
import { at, atMicros } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import {
  batchResult,
  clickBatches,
  clickStream,
  FLUSH,
  startStream,
  windowCounts,
} from '../delta/window-counts.js';
import { awsBackend, stalledAwsBackend } from './aws-backend.js';

type Item = Record<string, AttributeValue>;

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

/** A new table with a string partition key (and, if named, a sort key of `sortType`). */
async function createTable(
  partitionKey = 'pk',
  sortKey?: string,
  types: { partition?: 'S' | 'N'; sort?: 'S' | 'N' } = {},
): Promise<string> {
  const name = uniqueName('sink');
  const keys = [
    { name: partitionKey, type: types.partition ?? 'S', role: 'HASH' as const },
    ...(sortKey ? [{ name: sortKey, type: types.sort ?? 'S', role: 'RANGE' as const }] : []),
  ];
  await dynamoClient().send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keys.map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
      KeySchema: keys.map((k) => ({ AttributeName: k.name, KeyType: k.role })),
    }),
  );
  return name;
}

async function scan(table: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await dynamoClient().send(
      new ScanCommand({ TableName: table, ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Items of windowed counts in the form `canonical` (window-counts.ts) gives the batch result. */
function countsOf(items: Item[]): string[] {
  const micros = (v: AttributeValue | undefined) => Date.parse(v!.S!) * 1000;
  return items
    .map((i) => {
      const window = i.window.M!;
      const category = i.category?.S ?? null;
      return JSON.stringify([micros(window.start), micros(window.end), category, Number(i.n.N)]);
    })
    .sort();
}

const sink = (tableName: string, options: Partial<DynamoDbSinkOptions> = {}) =>
  new DynamoDbSink({ client: dynamoClient(), tableName, ...options });

/** Streams every chunk and the flush click into `target` on a new local checkpoint. */
async function streamChunks(target: DynamoDbSink, mode: OutputMode, chunks: RowObject[][]) {
  const events = clickStream();
  const query = await startStream({
    sink: target,
    checkpoint: tempDir(),
    events,
    outputMode: mode,
  });
  for (const chunk of [...chunks, [FLUSH]]) {
    events.addData(chunk);
    await query.processAllAvailable();
  }
  await query.stop();
  return query;
}

const withoutFlush = (items: Item[]) => items.filter((i) => i.category?.S !== 'flush');

describe('DynamoDbSink writing windowed counts', () => {
  for (const mode of ['update', 'complete'] as const) {
    it(`ends with the batch result in ${mode} mode, one item per window and category`, async () => {
      const table = await createTable();
      const chunks = clickBatches(4, 30);
      const query = await streamChunks(sink(table), mode, chunks);
      const items = withoutFlush(await scan(table));
      expect(countsOf(items)).toEqual(await batchResult(chunks.flat()));
      const lastBatch = query.recentProgress.length - 1;
      expect(Math.max(...items.map((i) => Number(i.batchId.N)))).toBeLessThanOrEqual(lastBatch);
      expect(new Set(items.map((i) => i.queryId.S))).toEqual(new Set([query.id]));
    });
  }

  it('keys items by the grouping keys: a window as an ISO interval, then the category', async () => {
    const table = await createTable();
    const chunks = clickBatches(1, 10);
    await streamChunks(sink(table), 'update', chunks);
    const items = await scan(table);
    const escaped = items.find((i) => i.category?.S === 'a=b/c%d:e')!;
    const { start, end } = escaped.window.M!;
    expect(start.S).toMatch(/^2026-01-01T\d\d:\d0:00\.000000Z$/);
    expect(escaped.pk).toEqual({ S: `${start.S}/${end.S}#a=b\\/c%d:e` });
    const nullCategory = items.find((i) => i.category === undefined)!;
    const window = nullCategory.window.M!;
    expect(nullCategory.pk).toEqual({ S: `${window.start.S}/${window.end.S}#\\N` });
  });

  it('splits the grouping keys over a partition key and a sort key', async () => {
    const table = await createTable('pk', 'sk');
    const chunks = clickBatches(3, 20);
    await streamChunks(
      sink(table, { partitionKey: { attribute: 'pk', columns: ['category'] }, sortKey: 'sk' }),
      'complete',
      chunks,
    );
    const items = withoutFlush(await scan(table));
    expect(countsOf(items)).toEqual(await batchResult(chunks.flat()));
    for (const item of items) {
      expect(item.pk.S).toBe(item.category?.S ?? '\\N');
      expect(item.sk.S).toBe(`${item.window.M!.start.S}/${item.window.M!.end.S}`);
    }
  });

  for (const crashStep of STEPS) {
    it(`gives the batch result after an invocation dies right after '${crashStep}'`, async () => {
      const table = await createTable();
      const queryId = uniqueName('crash');
      const events = clickStream();
      const df = windowCounts(new SluiceSession().readStream.memory(events));
      const invocation = (afterStep?: (step: BatchStep) => void) =>
        lambdaInvocation(queryId, df, sink(table), afterStep);
      const chunks = clickBatches(3, 20);
      events.addData(chunks[0]);
      await runInvocation(await invocation(), budget());
      events.addData(chunks[1]);
      const crashing = await invocation((step) => {
        if (step === crashStep) throw new Error(`died after ${step}`);
      });
      // a process that dies does not give its lease back: the next invocation waits for it to expire
      crashing.releaseLease = async () => {};
      await expect(runInvocation(crashing, budget())).rejects.toThrow(`died after ${crashStep}`);
      await new Promise((r) => setTimeout(r, 150));
      for (const chunk of [chunks[2], [FLUSH]]) {
        events.addData(chunk);
        expect((await runInvocation(await invocation(), budget())).stoppedBecause).toBe('idle');
      }
      expect(countsOf(withoutFlush(await scan(table)))).toEqual(await batchResult(chunks.flat()));
    });
  }

  it('does not let an invocation that lost its lease overwrite later batches', async () => {
    const table = await createTable();
    const queryId = uniqueName('zombie');
    const events = clickStream();
    const df = windowCounts(new SluiceSession().readStream.memory(events));
    // the same clicks in both batches, none late: batch 1 raises every count batch 0 wrote
    const chunk = Array.from({ length: 12 }, (_, i) => ({
      ts: at('10:01:00', i * 20_000_000),
      category: ['books', 'games', 'music'][i % 3],
      user: `u${i}`,
    }));
    events.addData(chunk);
    let release: () => void = () => {};
    const paused = new Promise<void>((r) => (release = r));
    let reachedSink: () => void = () => {};
    const atSink = new Promise<void>((r) => (reachedSink = r));
    const target = sink(table);
    const slowSink = {
      description: 'slow',
      open: target.open.bind(target),
      addBatch: async (...args: Parameters<DynamoDbSink['addBatch']>) => {
        reachedSink();
        await paused;
        await target.addBatch(...args);
      },
    };
    // its renewals do not get through, so its lease lapses while it still runs
    const zombie = await lambdaInvocation(queryId, df, slowSink, undefined, stalledAwsBackend);
    const zombieRun = zombie.runNextBatch();
    await atSink;
    await new Promise((r) => setTimeout(r, 150)); // its lease expires
    const first = await runInvocation(await lambdaInvocation(queryId, df, sink(table)), budget());
    events.addData(chunk);
    const second = await runInvocation(await lambdaInvocation(queryId, df, sink(table)), budget());
    // (batches without data may run between, to close windows: update mode writes nothing for them)
    const lastWithData = [...first.batches, ...second.batches]
      .filter((b) => b.numInputRows > 0)
      .map((b) => b.batchId);
    expect(lastWithData).toHaveLength(2);
    release();
    expect(await zombieRun).toEqual({ kind: 'conflict', batchId: 0 });
    const items = await scan(table);
    expect(items.map((i) => i.batchId.N)).toEqual(items.map(() => String(lastWithData[1])));
    expect(countsOf(items)).toEqual(await batchResult([...chunk, ...chunk]));
  });
});

/** A fresh Lambda invocation (new clients, cold state) on the checkpoint of `queryId`, update mode. */
async function lambdaInvocation(
  queryId: string,
  df: DataFrame,
  target: Sink,
  afterStep?: (step: BatchStep) => void,
  backend = awsBackend,
): Promise<MicroBatchExecution> {
  return MicroBatchExecution.start({
    ...(await backend(queryId)),
    plan: df.plan,
    outputMode: 'update',
    sink: target,
    numStatePartitions: 4,
    snapshotInterval: 3,
    // short, so that a crashed invocation's lease expires soon
    leaseDurationMs: 100,
    afterStep,
  });
}

const budget = () => ({ remainingMs: () => 60_000, safetyMarginMs: 100 });

const ROW_SCHEMA = parseSchema(
  'id LONG, name STRING, ts TIMESTAMP, day DATE, ok BOOLEAN, score DOUBLE, raw BINARY, ' +
    'tags ARRAY<STRING>, attrs MAP<STRING,INT>, w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, note STRING',
);
const TS = atMicros('10:00:00') + 123_456;
const ROW: Row = [
  7,
  'seven',
  TS,
  20454, // 2026-01-01
  true,
  0.5,
  new Uint8Array([1, 2, 255]),
  ['a', null],
  new Map([['x', 1]]),
  [atMicros('10:00:00'), atMicros('10:10:00')],
  null,
];

/** Opens `target` as a query with this output would. */
function open(
  target: DynamoDbSink,
  schema: StructType,
  outputMode: OutputMode = 'update',
  keyColumns?: string[],
) {
  return target.open({ queryId: 'query-1', outputMode, schema, keyColumns });
}

async function getItem(table: string, key: Item): Promise<Item | undefined> {
  return (await dynamoClient().send(new GetItemCommand({ TableName: table, Key: key }))).Item;
}

describe('DynamoDbSink items', () => {
  it('holds every column as its attribute type, timestamps as ISO text with microseconds', async () => {
    const table = await createTable('id', undefined, { partition: 'N' });
    const target = sink(table, { keyColumns: ['id'] });
    await open(target, ROW_SCHEMA);
    await target.addBatch(3, [ROW], ROW_SCHEMA, 'update');
    expect(await getItem(table, { id: { N: '7' } })).toEqual({
      id: { N: '7' },
      name: { S: 'seven' },
      ts: { S: '2026-01-01T10:00:00.123456Z' },
      day: { S: '2026-01-01' },
      ok: { BOOL: true },
      score: { N: '0.5' },
      raw: { B: new Uint8Array([1, 2, 255]) },
      tags: { L: [{ S: 'a' }, { NULL: true }] },
      attrs: { M: { x: { N: '1' } } },
      w: {
        M: {
          start: { S: '2026-01-01T10:00:00.000000Z' },
          end: { S: '2026-01-01T10:10:00.000000Z' },
        },
      },
      batchId: { N: '3' },
      queryId: { S: 'query-1' },
    });
  });

  it('writes timestamps as microseconds since the epoch with timestampFormat epochMicros', async () => {
    const table = await createTable('name');
    const target = sink(table, { keyColumns: ['name'], timestampFormat: 'epochMicros' });
    await open(target, ROW_SCHEMA);
    await target.addBatch(0, [ROW], ROW_SCHEMA, 'update');
    const item = await getItem(table, { name: { S: 'seven' } });
    expect(item?.ts).toEqual({ N: String(TS) });
    expect(item?.w).toEqual({
      M: { start: { N: String(atMicros('10:00:00')) }, end: { N: String(atMicros('10:10:00')) } },
    });
  });

  it('writes one item per key in a batch, the last row winning, and upserts it in later batches', async () => {
    const schema = parseSchema('user STRING, clicks LONG');
    const table = await createTable();
    const target = sink(table, { keyColumns: ['user'] });
    await open(target, schema);
    await target.addBatch(
      0,
      [
        ['ann', 1],
        ['bob', 1],
        ['ann', 2],
      ],
      schema,
      'update',
    );
    await target.addBatch(1, [['bob', 5]], schema, 'update');
    const items = await scan(table);
    expect(items.map((i) => [i.pk.S, i.clicks.N, i.batchId.N]).sort()).toEqual([
      ['ann', '2', '0'],
      ['bob', '5', '1'],
    ]);
  });

  it('never lets an older batch overwrite a newer one, while the same batch may write again', async () => {
    const schema = parseSchema('user STRING, clicks LONG');
    const table = await createTable();
    const target = sink(table, { keyColumns: ['user'] });
    await open(target, schema);
    await target.addBatch(5, [['ann', 50]], schema, 'update');
    await target.addBatch(
      4,
      [
        ['ann', 40],
        ['bob', 40],
      ],
      schema,
      'update',
    );
    await target.addBatch(5, [['ann', 51]], schema, 'update');
    const items = await scan(table);
    expect(items.map((i) => [i.pk.S, i.clicks.N, i.batchId.N]).sort()).toEqual([
      ['ann', '51', '5'],
      ['bob', '40', '4'],
    ]);
    // another query (a new checkpoint starts again at batch 0) takes the items over
    await target.open({ queryId: 'query-2', outputMode: 'update', schema });
    await target.addBatch(0, [['ann', 1]], schema, 'update');
    expect((await getItem(table, { pk: { S: 'ann' } }))?.clicks).toEqual({ N: '1' });
  });

  it('keys rows by their position in append mode without key columns, so a re-run lands on the same items', async () => {
    const schema = parseSchema('user STRING, clicks LONG');
    for (const sortKey of [undefined, 'seq']) {
      const table = await createTable('pk', sortKey, { sort: 'N' });
      const target = sink(table);
      await open(target, schema, 'append');
      const rows: Row[] = [
        ['ann', 1],
        ['ann', 1],
        ['bob', 2],
      ];
      await target.addBatch(2, rows, schema, 'append');
      await target.addBatch(2, rows, schema, 'append');
      const keys = (await scan(table)).map((i) => `${i.pk.S}|${i.seq?.N ?? ''}`).sort();
      expect(keys).toEqual(
        sortKey
          ? ['query-1#2|0', 'query-1#2|1', 'query-1#2|2']
          : ['query-1#2#0|', 'query-1#2#1|', 'query-1#2#2|'],
      );
    }
  });

  it('escapes key text so that different keys never share an item', async () => {
    const schema = parseSchema('a STRING, b STRING, n LONG');
    const table = await createTable();
    const target = sink(table, { keyColumns: ['a', 'b'] });
    await open(target, schema);
    const rows: Row[] = [
      ['x#y', 'z', 1],
      ['x', 'y#z', 2],
      [null, 'z', 3],
      ['\\N', 'z', 4],
      ['', '', 5],
    ];
    await target.addBatch(0, rows, schema, 'update');
    const keys = (await scan(table)).map((i) => [i.pk.S, i.n.N]).sort();
    expect(keys).toEqual([
      ['#', '5'],
      ['\\N#z', '3'],
      ['\\\\N#z', '4'],
      ['x#y\\#z', '2'],
      ['x\\#y#z', '1'],
    ]);
  });

  it('writes a lone string key as it is, an empty one as \\E', async () => {
    const schema = parseSchema('path STRING, n LONG');
    const table = await createTable('path');
    const target = sink(table, { keyColumns: ['path'] });
    await open(target, schema);
    await target.addBatch(
      0,
      [
        ['/home#top', 1],
        ['', 2],
      ],
      schema,
      'update',
    );
    expect((await scan(table)).map((i) => i.path.S).sort()).toEqual(['/home#top', '\\E']);
  });

  it('writes in requests of 25 items with batchWrite, retrying items DynamoDB left unprocessed', async () => {
    const schema = parseSchema('user STRING, clicks LONG');
    const table = await createTable();
    const client = dynamoClient();
    const requests: number[] = [];
    // DynamoDB Local never leaves items unprocessed; this leaves half of the first two requests'
    client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { RequestItems?: Record<string, unknown[]> };
        const writes = input.RequestItems?.[table];
        if (!writes) return next(args);
        requests.push(writes.length);
        if (requests.length > 2 || writes.length < 2) return next(args);
        const kept = writes.slice(0, writes.length / 2);
        const result = await next({ ...args, input: { RequestItems: { [table]: kept } } });
        (result.output as { UnprocessedItems?: unknown }).UnprocessedItems = {
          [table]: writes.slice(writes.length / 2),
        };
        return result;
      },
      { step: 'initialize', name: 'leaveUnprocessed' },
    );
    const target = new DynamoDbSink({
      client,
      tableName: table,
      keyColumns: ['user'],
      writeMethod: 'batchWrite',
      maxConcurrentWrites: 1,
    });
    await open(target, schema);
    const rows = Array.from({ length: 60 }, (_, i): Row => [`u${i}`, i]);
    await target.addBatch(0, rows, schema, 'update');
    // the first chunk: 25, its unprocessed 13, their unprocessed 7; then 25 and the last 10
    expect(requests).toEqual([25, 13, 7, 25, 10]);
    const items = await scan(table);
    expect(items.map((i) => Number(i.clicks.N)).sort((a, b) => a - b)).toEqual(
      rows.map((r) => r[1]),
    );
  });

  it('retries throttled puts, and fails the batch with a SinkError naming the item when DynamoDB refuses it', async () => {
    const schema = parseSchema('user STRING, text STRING');
    const table = await createTable();
    const client = dynamoClient();
    let throttles = 2;
    client.middlewareStack.add(
      (next) => async (args) => {
        if ('Item' in (args.input as object) && throttles-- > 0) {
          throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
            name: 'ProvisionedThroughputExceededException',
            $metadata: { httpStatusCode: 400 },
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'throttle' },
    );
    const target = new DynamoDbSink({ client, tableName: table, keyColumns: ['user'] });
    await open(target, schema);
    await target.addBatch(0, [['ann', 'hi']], schema, 'update');
    expect((await getItem(table, { pk: { S: 'ann' } }))?.text).toEqual({ S: 'hi' });
    // an item above DynamoDB's 400 KB
    const failure = await target
      .addBatch(1, [['bob', 'x'.repeat(410_000)]], schema, 'update')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SinkError);
    expect(failure).toMatchObject({ retriable: false });
    expect((failure as Error).message).toMatch(
      new RegExp(
        `DynamoDbSink\\[${table}\\]: batch 1: put item pk="bob".*ValidationException.*size`,
      ),
    );
  });
});

describe('DynamoDbSink at the start of a query', () => {
  const schema = parseSchema('user STRING, clicks LONG');

  it('fails when the table does not exist', async () => {
    const missing = uniqueName('missing');
    await expect(open(sink(missing, { keyColumns: ['user'] }), schema)).rejects.toThrow(
      new RegExp(`table ${missing} does not exist; create it`),
    );
  });

  it('fails when the key layout does not fit the table', async () => {
    const table = await createTable();
    await expect(
      open(sink(table, { partitionKey: 'id', keyColumns: ['user'] }), schema),
    ).rejects.toThrow(
      "option partitionKey names attribute 'id', but the table's partition key is 'pk'",
    );
    await expect(
      open(sink(table, { sortKey: 'sk', keyColumns: ['user'] }), schema),
    ).rejects.toThrow('the table has no sort key');
    await expect(open(sink(table, { keyColumns: ['nobody'] }), schema)).rejects.toThrow(
      "option keyColumns names column 'nobody', which the query's output does not have",
    );
    await expect(open(sink(table), schema, 'update')).rejects.toThrow(
      'name the columns that identify a row with the option keyColumns',
    );
    await expect(
      open(sink(table, { partitionKey: { columns: ['user'] } }), schema, 'update', [
        'user',
        'clicks',
      ]),
    ).rejects.toThrow("column clicks identifies result rows but is not part of the item's key");
    await expect(
      open(sink(table, { keyColumns: ['user'] }), schema, 'update', ['user', 'clicks']),
    ).rejects.toThrow('include it in keyColumns');
    const numeric = await createTable('pk', undefined, { partition: 'N' });
    await expect(open(sink(numeric, { keyColumns: ['user'] }), schema)).rejects.toThrow(
      'has type N, so it must be made of exactly one int, long, double, timestamp or date column',
    );
    const sorted = await createTable('pk', 'sk');
    await expect(open(sink(sorted, { keyColumns: ['user'] }), schema)).rejects.toThrow(
      "the only key column is 'user'",
    );
  });

  it('fails when a column would overwrite the batchId, queryId or a key attribute', async () => {
    const table = await createTable();
    const withBatch = parseSchema('user STRING, batchId LONG');
    await expect(open(sink(table, { keyColumns: ['user'] }), withBatch)).rejects.toThrow(
      'choose another name with the option batchIdAttribute',
    );
    await open(sink(table, { keyColumns: ['user'], batchIdAttribute: 'writtenBy' }), withBatch);
    const withPk = parseSchema('user STRING, pk STRING');
    await expect(open(sink(table, { keyColumns: ['user'] }), withPk)).rejects.toThrow(
      "column pk has the name of the key attribute 'pk', which is made of user",
    );
  });

  it('refuses options it cannot use when the sink is made', () => {
    expect(() => sink('')).toThrow(InvalidOptionError);
    expect(() => sink('t', { writeMethod: 'transact' as 'batchWrite' })).toThrow(
      "option writeMethod must be 'guardedPut' or 'batchWrite'",
    );
    expect(() => sink('t', { maxConcurrentWrites: 0 })).toThrow('maxConcurrentWrites');
    expect(() => sink('t', { timestampFormat: 'millis' as 'iso8601' })).toThrow('timestampFormat');
  });

  it('fails the batch on a number DynamoDB cannot hold, naming the column', async () => {
    const table = await createTable();
    const target = sink(table, { keyColumns: ['user'] });
    const doubles = parseSchema('user STRING, clicks DOUBLE');
    await open(target, doubles);
    await expect(target.addBatch(0, [['ann', NaN]], doubles, 'update')).rejects.toThrow(
      /column clicks: NaN cannot be written/,
    );
  });
});
