/**
 * DynamoDB sink benchmark (`npm run bench:dynamodb-sink`): the two write methods of DynamoDbSink on
 * DynamoDB Local, which it starts itself (in a child process, as the tests do) and stops at the end.
 * It prints figures and asserts no timings; it exits with status 1 only when the table's content is
 * wrong after a run (then the figures would mean nothing).
 *
 * One batch of 1,000 result rows (a windowed count's shape: window, category, n) is written:
 * - guardedPut (the default: one conditional PutItem per item) with 16 and with 64 requests in
 *   flight, and batchWrite (BatchWriteItem, 25 items a request) with 16;
 * - for each, a first write (new items), a re-run of the same batch (the guard passes, the same
 *   values land again) and an older batch (guardedPut only: every put fails its condition and is
 *   skipped, which is what keeps a zombie invocation from overwriting newer results).
 * Every request is counted by a middleware. Each figure is the median of 3 runs, each on a new
 * table; one untimed run first warms up DynamoDB Local and this process.
 *
 * DynamoDB Local on loopback has sub-millisecond latency and no capacity limits, so absolute rates
 * say little about the service; the request counts and the ratios between methods in one run are
 * the figures to read. (In the service both methods consume one write unit per item of up to 1 KB;
 * TransactWriteItems, the other guarded option, two.)
 *
 * The last line of output is one JSON object: items/s of each method and case, requests per item,
 * and the ratio of guardedPut's first-write rate to batchWrite's.
 */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type OutputMode, parseSchema, type Row } from '../core/index.js';
import { DynamoDbSink, type DynamoDbSinkOptions } from '../core/aws/index.js';
import { launchAwsServices } from '../test/support/aws-services-launcher.js';
import { localDynamoClient } from '../test/support/local-aws-clients.js';

const ROWS = 1_000;
const RUNS = 3;
const SCHEMA = parseSchema(
  'window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, category STRING, n LONG',
);
const MODE: OutputMode = 'update';
const MINUTE = 60_000_000;
const T0 = Date.parse('2026-01-01T10:00:00Z') * 1000;

/** One method and its concurrency. */
interface Method {
  readonly label: string;
  readonly writeMethod: NonNullable<DynamoDbSinkOptions['writeMethod']>;
  readonly concurrency: number;
}

const METHODS: Method[] = [
  { label: 'guardedPut x16', writeMethod: 'guardedPut', concurrency: 16 },
  { label: 'guardedPut x64', writeMethod: 'guardedPut', concurrency: 64 },
  { label: 'batchWrite x16', writeMethod: 'batchWrite', concurrency: 16 },
];

/** What one write of a batch took. */
interface Timing {
  readonly ms: number;
  readonly requests: number;
}

/** The timings of one run: first write, re-run, older batch (guardedPut only). */
interface RunResult {
  readonly first: Timing;
  readonly rerun: Timing;
  readonly older?: Timing;
}

/** Rows of `batch`: windows of 10 categories each, counts that grow with the batch. */
function rows(batch: number): Row[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const start = T0 + Math.floor(i / 10) * 10 * MINUTE;
    return [[start, start + 10 * MINUTE], `category-${i % 10}`, batch * 1_000 + i];
  });
}

async function createTable(client: DynamoDBClient): Promise<string> {
  const name = `bench-sink-${randomUUID().slice(0, 8)}`;
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  return name;
}

/** The `n` of every item, sorted, to check a run's result. */
async function counts(client: DynamoDBClient, table: string): Promise<number[]> {
  const n: number[] = [];
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) n.push(Number(item.n.N));
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  return n.sort((a, b) => a - b);
}

/** A client of `endpoint` whose requests are counted in `counter.requests`. */
function countingClient(endpoint: string, counter: { requests: number }): DynamoDBClient {
  const client = localDynamoClient(endpoint);
  client.middlewareStack.add(
    (next) => async (args) => {
      counter.requests++;
      return next(args);
    },
    { step: 'finalizeRequest', name: 'countRequests' },
  );
  return client;
}

async function run(endpoint: string, method: Method): Promise<RunResult> {
  const counter = { requests: 0 };
  const client = countingClient(endpoint, counter);
  try {
    const table = await createTable(client);
    const sink = new DynamoDbSink({
      client,
      tableName: table,
      keyColumns: ['window', 'category'],
      writeMethod: method.writeMethod,
      maxConcurrentWrites: method.concurrency,
    });
    await sink.open({ queryId: 'bench', outputMode: MODE, schema: SCHEMA });
    const timed = async (batch: number): Promise<Timing> => {
      const before = counter.requests;
      const t0 = performance.now();
      await sink.addBatch(batch, rows(batch), SCHEMA, MODE);
      return { ms: performance.now() - t0, requests: counter.requests - before };
    };
    const first = await timed(1);
    const rerun = await timed(1);
    const older = method.writeMethod === 'guardedPut' ? await timed(0) : undefined;
    const expected = rows(1).map((r) => r[2] as number);
    const found = await counts(client, table);
    if (JSON.stringify(found) !== JSON.stringify(expected)) {
      throw new Error(`${method.label}: the table does not hold batch 1's rows after the run`);
    }
    return { first, rerun, ...(older ? { older } : {}) };
  } finally {
    client.destroy();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Items per second of the median run of one case. */
function rate(results: RunResult[], pick: (r: RunResult) => Timing | undefined): number {
  return Math.round(ROWS / (median(results.map((r) => pick(r)!.ms)) / 1000));
}

async function main(): Promise<number> {
  const started = performance.now();
  const local = await launchAwsServices();
  try {
    await run(local.dynamoDbEndpoint, METHODS[0]); // untimed warm-up
    const results = new Map<string, RunResult[]>();
    for (let i = 0; i < RUNS; i++) {
      for (const method of METHODS) {
        const list = results.get(method.label) ?? [];
        list.push(await run(local.dynamoDbEndpoint, method));
        results.set(method.label, list);
      }
    }
    console.log(
      `DynamoDB sink benchmark on DynamoDB Local (loopback), ${ROWS} items per batch, median of ${RUNS} runs, ${((performance.now() - started) / 1000).toFixed(0)} s.\n`,
    );
    console.log('method            first items/s  re-run items/s  older items/s  requests/item');
    for (const method of METHODS) {
      const r = results.get(method.label)!;
      const older = r[0].older ? String(rate(r, (x) => x.older)) : '-';
      console.log(
        `${method.label.padEnd(16)}  ${String(rate(r, (x) => x.first)).padStart(13)}  ${String(rate(r, (x) => x.rerun)).padStart(14)}  ${older.padStart(13)}  ${(r[0].first.requests / ROWS).toFixed(3).padStart(13)}`,
      );
    }
    const guarded = results.get('guardedPut x16')!;
    const batched = results.get('batchWrite x16')!;
    const figures = {
      guarded_put_16_items_per_s: rate(guarded, (r) => r.first),
      guarded_put_64_items_per_s: rate(results.get('guardedPut x64')!, (r) => r.first),
      batch_write_16_items_per_s: rate(batched, (r) => r.first),
      guarded_put_older_batch_items_per_s: rate(guarded, (r) => r.older),
      guarded_put_requests_per_item: guarded[0].first.requests / ROWS,
      batch_write_requests_per_item: batched[0].first.requests / ROWS,
      guarded_vs_batch_write: Number(
        (rate(guarded, (r) => r.first) / rate(batched, (r) => r.first)).toFixed(2),
      ),
    };
    console.log(`\n${JSON.stringify(figures)}`);
    return 0;
  } catch (e) {
    console.error(e);
    return 1;
  } finally {
    await local.stop();
  }
}

process.exitCode = await main();
