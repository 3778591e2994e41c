/**
 * Deployment benchmark (`npm run bench:deploy`): what running the canonical clickstream job as the
 * micro-batch Lambda function weighs and costs a month, all-in. Prints figures (it asserts no
 * timings) and ends with one JSON line: {"bundle_bytes", "cold_init_ms", "usd_per_million_events",
 * "managed_min_usd_per_hour", "state_s3_puts_per_warm_batch", "idle_usd_per_month",
 * "usd_per_month_1k_eps", "usd_per_month_10k_eps"}.
 *
 * 1. Bundle: functions/microbatch/clickstream.ts through functions/build.ts, minified, before
 *    compression (target: under 1.5 MB); gzip size alongside.
 * 2. Cold initialisation: a fresh `node` process imports the bundle, as the Lambda runtime does at a
 *    cold start (configuration read and checked, clients created, the query planned; no I/O). The
 *    import is timed inside the process; the whole process is timed next to an empty `node -e ""`.
 *    Median of COLD_STARTS runs each.
 * 3. Measured invocations: the bundle runs in a Lambda-like container (test/support/lambda-container.ts)
 *    against DynamoDB Local, s3rver and the Kafka mock cluster, which this benchmark starts, with the
 *    one-minute trigger and the metrics setting of the synthesized ClickstreamStack. Relays in front
 *    of DynamoDB and S3 meter every request (aws-request-meter.ts); each invocation's duration, log
 *    output and EMF metric names are recorded. In one container: a cold invocation and
 *    MEASURED_INVOCATIONS warm ones at 1,000 events/s (60,000 events each), IDLE_INVOCATIONS with no
 *    new events, and one at 10,000 events/s (600,000 events; maxOffsetsPerTrigger raised so that one
 *    batch takes the minute, since a sub-minute trigger would keep the function running all minute).
 * 4. The monthly bill (monthly-bill.ts): the fixed part from the synthesized template of the
 *    canonical ClickstreamStack, the variable part from the typical invocation of each load times the
 *    schedule's invocations, plus what stays stored (the checkpoint table and state bucket as
 *    measured after the run; the Delta table growing by its measured bytes per invocation, averaged
 *    over the month). Kafka (MSK) is left out: every alternative reads the same cluster.
 * 5. Beside it, the minimum month of one always-on Amazon Managed Service for Apache Flink application
 *    (1 KPU + 1 orchestration KPU) and of one AWS Glue streaming job (two G.025X workers).
 *
 * Events are produced gzip-compressed, as producers of this volume do: the mock cluster keeps about
 * 5 MB per partition, less than the 10,000 events/s minute takes uncompressed.
 *
 * Durations are this machine's: a 1,024 MB Lambda function has about 0.58 of a vCPU, so CPU-bound
 * time there may be up to 1.7 times longer; the bill is printed at twice the measured duration too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CompressionTypes, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { bundleFunction, FUNCTION_ENTRIES } from '../functions/build.js';
import { ENV } from '../functions/microbatch/configuration.js';
import type { MicroBatchResult } from '../functions/microbatch/handler.js';
import { ClickstreamStack } from '../infra/clickstream-stack.js';
import { launchAwsServices } from '../test/support/aws-services-launcher.js';
import { startHttpRelay } from '../test/support/http-relay.js';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster.js';
import { LambdaContainer } from '../test/support/lambda-container.js';
import {
  createLocalBucket,
  createLocalCheckpointTable,
  localDynamoClient,
  localS3Client,
} from '../test/support/local-aws-clients.js';
import { localLambdaEnvironment } from '../test/support/local-lambda-environment.js';
import {
  GLUE_STREAMING_MIN_DPUS,
  GLUE_USD_PER_DPU_HOUR,
  HOURS_PER_MONTH,
  MANAGED_FLINK_MIN_KPUS,
  MANAGED_FLINK_USD_PER_KPU_HOUR,
} from './aws-prices.js';
import { type MeteredRequests, meterDynamoDb, meterS3, newMeter } from './aws-request-meter.js';
import { generateClickEventLines } from './clickstream-events.js';
import {
  BILL_ITEMS,
  type BillItem,
  type BillLine,
  billTotal,
  type DeployedQuery,
  deployedQuery,
  type MonthlyLoad,
  monthlyBill,
} from './monthly-bill.js';

const run = promisify(execFile);

const TRIGGER_SECONDS = 60;
const LOW_EVENTS_PER_SECOND = 1_000;
const HIGH_EVENTS_PER_SECOND = 10_000;
const COLD_STARTS = 5;
const MEASURED_INVOCATIONS = 3;
/** The first invocation without new events may run a no-data batch (the watermark moved); the last is idle. */
const IDLE_INVOCATIONS = 2;
const PARTITIONS = 4;
const PRODUCE_BATCH = 5_000;
/** The function's timeout: the construct gives a one-minute trigger two minutes. */
const TIMEOUT_MS = 120_000;
/** Room for the 10,000 events/s minute in one batch. */
const MAX_OFFSETS_PER_TRIGGER = 1_000_000;
const STATE_BUCKET = 'sluice-state';
/** The bill's CloudWatch items that an account's always-free tier covers for one default query. */
const FREE_TIER_CLOUDWATCH_ITEMS: ReadonlySet<BillItem> = new Set<BillItem>([
  'CloudWatch custom metrics',
  'CloudWatch alarms',
  'CloudWatch dashboards',
]);
/** The container's START and END lines: the bill prices Lambda's own lines apart. */
const PLATFORM_LINE = /^(START|END) RequestId: /;
/** The bill's items each invocation adds to: usd_per_million_events sums them, as it always has. */
const PER_INVOCATION_ITEMS: ReadonlySet<BillItem> = new Set<BillItem>([
  'Lambda duration',
  'Lambda requests',
  'Scheduler',
  'DynamoDB requests',
  'S3 requests',
  'CloudWatch logs',
  'SQS',
]);
const LAKE_BUCKET = 'sluice-lake';

/** A configuration that passes the cold start's checks; importing the bundle contacts nothing. */
const IMPORT_ENV = {
  SLUICE_QUERY_ID: 'clicks',
  SLUICE_CHECKPOINT_TABLE: 'sluice-checkpoints',
  SLUICE_STATE_BUCKET: STATE_BUCKET,
  SLUICE_SOURCE: JSON.stringify({ kind: 'kafka', bootstrapServers: ['b-1:9092'], topic: 'c' }),
  SLUICE_SINK: JSON.stringify({ kind: 'delta', bucket: LAKE_BUCKET, path: 'tables/clicks' }),
  AWS_REGION: 'us-east-1',
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time of a fresh `node` process running `code`, and what it printed. */
async function timedNode(code: string, env: Record<string, string>) {
  const started = performance.now();
  const { stdout } = await run(
    process.execPath,
    ['--no-warnings', '--input-type=module', '-e', code],
    {
      env: { ...env, PATH: process.env.PATH ?? '' },
    },
  );
  return { wallMs: performance.now() - started, stdout };
}

async function measureColdStarts(bundle: string) {
  const importCode = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(bundle).href)}); console.log(performance.now() - t);`;
  const imports: number[] = [];
  const walls: number[] = [];
  const empties: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const empty = await timedNode('', {});
    empties.push(empty.wallMs);
    const loaded = await timedNode(importCode, IMPORT_ENV);
    walls.push(loaded.wallMs);
    imports.push(Number(loaded.stdout.trim()));
  }
  return {
    importMs: median(imports),
    bestImportMs: Math.min(...imports),
    wallMs: median(walls),
    emptyNodeMs: median(empties),
  };
}

/** One measured invocation. */
interface Invocation {
  readonly durationMs: number;
  readonly inputRows: number;
  readonly batches: number;
  readonly logBytes: number;
  /** Distinct metric names in its EMF documents. */
  readonly metricNames: number;
  readonly requests: MeteredRequests;
  readonly stateLoad: string;
}

/** Everything the container run measured. */
interface Measured {
  readonly cold: Invocation;
  readonly warm: Invocation[];
  readonly idle: Invocation[];
  readonly high: Invocation;
  readonly checkpointTableBytes: number;
  readonly stateBucketBytes: number;
}

/** The canonical stack, synthesized offline: what the bill's fixed part is read from. */
function canonicalTemplate(): ReturnType<Template['toJSON']> {
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new ClickstreamStack(app, 'Clickstream', {
    bootstrapServers: ['b-1.clicks.kafka.us-east-1.amazonaws.com:9098'],
    topic: 'clicks',
    mskClusterArn:
      'arn:aws:kafka:us-east-1:123456789012:cluster/clicks/1a2b3c4d-5e6f-7a8b-9c0d-112233445566-3',
  });
  return Template.fromStack(stack).toJSON();
}

/** The synthesized function's value of `name`, so the measured function runs as the deployed one. */
function templateVariable(template: ReturnType<Template['toJSON']>, name: string): string {
  const variables = Object.values(
    template.Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>,
  )
    .filter((r) => r.Type === 'AWS::Lambda::Function')
    .map(
      (r) =>
        (r.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
          ?.Variables,
    )
    .find((v) => v?.[ENV.queryId] !== undefined);
  if (variables?.[name] === undefined) {
    throw new Error(
      `The synthesized Sluice function has no ${name}: the bill would price another function.`,
    );
  }
  return String(variables[name]);
}

async function produceMinute(producer: Producer, lines: readonly string[]): Promise<void> {
  for (let from = 0; from < lines.length; from += PRODUCE_BATCH) {
    await producer.send({
      topic: 'clicks',
      // as producers of this volume do; the mock cluster keeps only about 5 MB per partition
      compression: CompressionTypes.GZIP,
      messages: lines
        .slice(from, from + PRODUCE_BATCH)
        .map((value, k) => ({ partition: (from + k) % PARTITIONS, value })),
    });
  }
}

function metricNameCount(lines: readonly string[]): number {
  const names = new Set<string>();
  for (const line of lines.filter((l) => l.includes('"_aws"'))) {
    const document = JSON.parse(line) as {
      _aws: { CloudWatchMetrics: { Metrics: { Name: string }[] }[] };
    };
    for (const set of document._aws.CloudWatchMetrics) {
      for (const metric of set.Metrics) names.add(metric.Name);
    }
  }
  return names.size;
}

async function tableBytes(endpoint: string, table: string): Promise<number> {
  const { Items = [] } = await localDynamoClient(endpoint).send(
    new ScanCommand({ TableName: table }),
  );
  return Items.reduce((n, item) => n + JSON.stringify(item).length, 0);
}

async function bucketBytes(endpoint: string, bucket: string): Promise<number> {
  const { Contents = [] } = await localS3Client(endpoint).send(
    new ListObjectsV2Command({ Bucket: bucket }),
  );
  return Contents.reduce((n, o) => n + (o.Size ?? 0), 0);
}

async function measureInvocations(bundle: string, detailedMetrics: string): Promise<Measured> {
  const [aws, kafka] = await Promise.all([launchAwsServices(), startKafkaMockCluster()]);
  let meter = newMeter();
  const dynamoRelay = await startHttpRelay({
    target: aws.dynamoDbEndpoint,
    onExchange: (request, _, bytes) => meterDynamoDb(meter, request, bytes),
  });
  const s3Relay = await startHttpRelay({
    target: aws.s3Endpoint,
    onExchange: (request) => meterS3(meter, request),
  });
  const producer = new Kafka({
    clientId: 'bench-deploy',
    brokers: kafka.bootstrapServers.split(','),
    logLevel: logLevel.NOTHING,
  }).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  let container: LambdaContainer | undefined;
  try {
    const [table, state, lake] = await Promise.all([
      createLocalCheckpointTable(aws.dynamoDbEndpoint, 'sluice-checkpoints'),
      createLocalBucket(aws.s3Endpoint, STATE_BUCKET),
      createLocalBucket(aws.s3Endpoint, LAKE_BUCKET),
    ]);
    await producer.connect();
    const started = await LambdaContainer.start({
      bundle,
      env: {
        [ENV.queryId]: 'clicks',
        [ENV.checkpointTable]: table,
        [ENV.stateBucket]: state,
        [ENV.source]: JSON.stringify({
          kind: 'kafka',
          bootstrapServers: kafka.bootstrapServers.split(','),
          topic: 'clicks',
          startingOffsets: 'earliest',
          maxOffsetsPerTrigger: MAX_OFFSETS_PER_TRIGGER,
        }),
        [ENV.sink]: JSON.stringify({ kind: 'delta', bucket: lake, path: 'tables/clicks' }),
        [ENV.triggerInterval]: `${TRIGGER_SECONDS} seconds`,
        [ENV.scheduleInterval]: `${TRIGGER_SECONDS} seconds`,
        [ENV.detailedMetrics]: detailedMetrics,
        ...localLambdaEnvironment({ dynamoDb: dynamoRelay.endpoint, s3: s3Relay.endpoint }),
      },
    });
    container = started;
    const invoke = async (events: readonly string[]): Promise<Invocation> => {
      await produceMinute(producer, events);
      meter = newMeter();
      const outputBefore = started.output.length;
      const outcome = await started.invoke({}, { remainingMs: TIMEOUT_MS });
      if (outcome.kind !== 'result') {
        throw new Error(`An invocation ended with ${JSON.stringify(outcome)}`);
      }
      const result = outcome.value as MicroBatchResult;
      if (result.numInputRows !== events.length) {
        throw new Error(
          `An invocation read ${result.numInputRows} events instead of the minute's ${events.length}: the figures would mean nothing.`,
        );
      }
      const output = started.output.slice(outputBefore);
      const progress = output
        .filter((l) => l.includes('"batch committed"'))
        .map((l) => (JSON.parse(l) as { progress: { stateLoad: string } }).progress);
      return {
        durationMs: outcome.durationMs,
        inputRows: result.numInputRows,
        batches: result.batchesCommitted,
        logBytes: output
          .filter((l) => !PLATFORM_LINE.test(l))
          .reduce((n, l) => n + Buffer.byteLength(l) + 1, 0),
        metricNames: metricNameCount(output),
        requests: meter,
        stateLoad: progress.map((p) => p.stateLoad).join(','),
      };
    };
    const low = LOW_EVENTS_PER_SECOND * TRIGGER_SECONDS;
    const lowLines = generateClickEventLines({
      count: low * (1 + MEASURED_INVOCATIONS),
      meanGapMs: 1_000 / LOW_EVENTS_PER_SECOND,
    });
    const minutes: Invocation[] = [];
    for (let i = 0; i <= MEASURED_INVOCATIONS; i++) {
      minutes.push(await invoke(lowLines.slice(i * low, (i + 1) * low)));
    }
    const idle: Invocation[] = [];
    for (let i = 0; i < IDLE_INVOCATIONS; i++) idle.push(await invoke([]));
    if (idle[idle.length - 1].batches !== 0) {
      throw new Error(
        `The last of ${IDLE_INVOCATIONS} invocations without new events still committed a batch: the idle month would be priced wrong.`,
      );
    }
    const high = await invoke(
      generateClickEventLines({
        count: HIGH_EVENTS_PER_SECOND * TRIGGER_SECONDS,
        meanGapMs: 1_000 / HIGH_EVENTS_PER_SECOND,
        seed: 43,
        // the minute after the low-rate minutes
        start: new Date(Date.UTC(2026, 0, 1, 0, 1 + MEASURED_INVOCATIONS)).toISOString(),
      }),
    );
    return {
      cold: minutes[0],
      warm: minutes.slice(1),
      idle,
      high,
      checkpointTableBytes: await tableBytes(aws.dynamoDbEndpoint, table),
      stateBucketBytes: await bucketBytes(aws.s3Endpoint, state),
    };
  } finally {
    await container?.stop();
    await producer.disconnect();
    await Promise.all([dynamoRelay.stop(), s3Relay.stop()]);
    await Promise.all([aws.stop(), kafka.stop()]);
  }
}

/** The invocation of median duration. */
function typical(invocations: readonly Invocation[]): Invocation {
  const byDuration = [...invocations].sort((a, b) => a.durationMs - b.durationMs);
  return byDuration[Math.floor(byDuration.length / 2)];
}

/** A month of `invocation` every scheduled tick; the Delta table grows by what it writes. */
function monthOf(
  query: DeployedQuery,
  invocation: Invocation,
  measured: Measured,
  durationFactor = 1,
): MonthlyLoad {
  const r = invocation.requests;
  const lakeBytesPerMonth =
    (r.s3BytesPutByBucket.get(LAKE_BUCKET) ?? 0) * query.invocationsPerMonth;
  return {
    invocation: {
      durationMs: invocation.durationMs,
      logBytes: invocation.logBytes,
      metricNames: invocation.metricNames,
      dynamoDbWriteUnits: r.dynamoDbWriteUnits,
      dynamoDbReadUnits: r.dynamoDbReadUnits,
      s3PutClass: r.s3PutClass,
      s3GetClass: r.s3GetClass,
      // only failed invocations reach the dead-letter queue, and none failed
      sqsRequests: 0,
    },
    dynamoDbStoredBytes: measured.checkpointTableBytes,
    // the table starts the month empty and ends it a month larger: half of that on average
    s3StoredBytes: measured.stateBucketBytes + lakeBytesPerMonth / 2,
    durationFactor,
  };
}

function usd(value: number): string {
  return `$${value.toPrecision(3)}`;
}

function describeInvocation(label: string, v: Invocation): void {
  const operations = [...v.requests.operations]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
  const puts = [...v.requests.s3PutsByBucket].map(([b, n]) => `${b} ${n}`).join(', ');
  console.log(
    `  ${label}: ${v.durationMs} ms, ${v.inputRows} events, state ${v.stateLoad || '-'}, ` +
      `${v.logBytes} log bytes, ${v.metricNames} metric names; DynamoDB ${v.requests.dynamoDbWriteUnits} WRU + ` +
      `${v.requests.dynamoDbReadUnits} RRU; S3 ${v.requests.s3PutClass} PUT-class + ` +
      `${v.requests.s3GetClass} GET-class (PUTs by bucket: ${puts || 'none'})\n      ${operations || 'no requests'}`,
  );
}

function printBill(columns: readonly [string, BillLine[]][]): void {
  const cell = (text: string) => text.padStart(12);
  console.log(`  ${''.padEnd(26)}${columns.map(([title]) => cell(title)).join('')}`);
  BILL_ITEMS.forEach((item, i) => {
    console.log(`  ${item.padEnd(26)}${columns.map(([, l]) => cell(usd(l[i].usd))).join('')}`);
  });
  console.log(`  ${'total'.padEnd(26)}${columns.map(([, l]) => cell(usd(billTotal(l)))).join('')}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-deploy-'));
  try {
    const bundle = await bundleFunction(FUNCTION_ENTRIES.clickstream, dir);
    const gzipBytes = gzipSync(readFileSync(bundle.file)).length;
    console.log('Bundle (functions/microbatch/clickstream.ts, esbuild, minified, ESM, node22)');
    console.log(
      `  ${bundle.bytes} bytes (${(bundle.bytes / 1e6).toFixed(2)} MB; target < 1.5 MB), ${gzipBytes} bytes gzipped`,
    );

    const cold = await measureColdStarts(bundle.file);
    console.log(`\nCold initialisation, median of ${COLD_STARTS} fresh node processes`);
    console.log(
      `  import of the bundle, timed inside the process: ${cold.importMs.toFixed(0)} ms (best ${cold.bestImportMs.toFixed(0)} ms)`,
    );
    console.log(
      `  whole process: ${cold.wallMs.toFixed(0)} ms, against ${cold.emptyNodeMs.toFixed(0)} ms for an empty node -e "" (${(cold.wallMs - cold.emptyNodeMs).toFixed(0)} ms more)`,
    );

    const template = canonicalTemplate();
    const query = deployedQuery(template);
    console.log(
      `\nThe canonical ClickstreamStack as synthesized: ${query.memoryMb} MB ${query.architecture}, ` +
        `${query.invocationsPerMonth} invocations a month, ${query.alarmMetrics} alarm metrics, ` +
        `${query.dashboards} dashboards, PITR on ${query.pitrTables} table(s), log kept ${query.logRetentionDays ?? 'forever'} days`,
    );
    const measured = await measureInvocations(
      bundle.file,
      templateVariable(template, ENV.detailedMetrics),
    );
    describeInvocation('cold invocation (new container), 1,000 events/s', measured.cold);
    measured.warm.forEach((v, i) => describeInvocation(`warm invocation ${i + 1}`, v));
    measured.idle.forEach((v, i) =>
      describeInvocation(`invocation ${i + 1} without new events (${v.batches} batches)`, v),
    );
    describeInvocation('warm invocation, 10,000 events/s', measured.high);
    console.log(
      `  stored after the run: checkpoint table ${measured.checkpointTableBytes} bytes, state bucket ${measured.stateBucketBytes} bytes`,
    );

    const loads = (factor: number): [string, BillLine[]][] => [
      ['idle', monthlyBill(query, monthOf(query, measured.idle.at(-1)!, measured, factor))],
      ['1k ev/s', monthlyBill(query, monthOf(query, typical(measured.warm), measured, factor))],
      ['10k ev/s', monthlyBill(query, monthOf(query, measured.high, measured, factor))],
    ];
    const bill = loads(1);
    console.log('\nMonthly bill, us-east-1 list prices, no free tier (USD)');
    printBill(bill);
    const slower = loads(2);
    console.log(
      `  with Lambda twice as slow as this machine: ${slower.map(([t, l]) => `${t} ${usd(billTotal(l))}`).join(', ')}`,
    );
    const cloudWatchFixed = bill[0][1]
      .filter((l) => FREE_TIER_CLOUDWATCH_ITEMS.has(l.item))
      .reduce((n, l) => n + l.usd, 0);
    console.log(
      `  of the idle month, ${usd(cloudWatchFixed)} is alarms, custom metrics and dashboards; for the only query of an account, CloudWatch's always-free tier (10 alarm metrics, 10 custom metrics, 3 dashboards) would leave ${usd(billTotal(bill[0][1]) - cloudWatchFixed)}`,
    );
    const flinkMonthly = MANAGED_FLINK_MIN_KPUS * MANAGED_FLINK_USD_PER_KPU_HOUR * HOURS_PER_MONTH;
    const glueMonthly = GLUE_STREAMING_MIN_DPUS * GLUE_USD_PER_DPU_HOUR * HOURS_PER_MONTH;
    console.log('\nThe same month, always on, at any load (minimum size)');
    console.log(
      `  Managed Service for Apache Flink: ${usd(flinkMonthly)} (${MANAGED_FLINK_MIN_KPUS} KPUs x $${MANAGED_FLINK_USD_PER_KPU_HOUR} x ${HOURS_PER_MONTH} h)`,
    );
    console.log(
      `  Glue streaming job:               ${usd(glueMonthly)} (${GLUE_STREAMING_MIN_DPUS} DPU x $${GLUE_USD_PER_DPU_HOUR} x ${HOURS_PER_MONTH} h)`,
    );

    const warm = typical(measured.warm);
    const eventsPerMonth = LOW_EVENTS_PER_SECOND * 3_600 * HOURS_PER_MONTH;
    const perInvocation = bill[1][1].filter((l) => PER_INVOCATION_ITEMS.has(l.item));
    const perMillion = (billTotal(perInvocation) * 1e6) / eventsPerMonth;
    const statePuts = (warm.requests.s3PutsByBucket.get(STATE_BUCKET) ?? 0) / warm.batches;
    console.log(
      `\nAt 1,000 events/s: ${usd(perMillion)} per million events (what each invocation costs, fixed costs and storage apart); ${statePuts} state S3 PUTs per warm batch (the sink's objects apart)`,
    );
    console.log(
      JSON.stringify({
        bundle_bytes: bundle.bytes,
        cold_init_ms: Math.round(cold.importMs),
        usd_per_million_events: Number(perMillion.toPrecision(3)),
        managed_min_usd_per_hour: MANAGED_FLINK_MIN_KPUS * MANAGED_FLINK_USD_PER_KPU_HOUR,
        state_s3_puts_per_warm_batch: statePuts,
        idle_usd_per_month: Number(billTotal(bill[0][1]).toPrecision(3)),
        usd_per_month_1k_eps: Number(billTotal(bill[1][1]).toPrecision(3)),
        usd_per_month_10k_eps: Number(billTotal(bill[2][1]).toPrecision(3)),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
