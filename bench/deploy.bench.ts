/**
 * Deployment benchmark (`npm run bench:deploy`): what running the canonical clickstream job as the
 * micro-batch Lambda function weighs and costs. Prints figures (it asserts no timings) and ends with
 * one JSON line: {"bundle_bytes", "cold_init_ms", "usd_per_million_events", "managed_min_usd_per_hour",
 * "state_s3_puts_per_warm_batch"}.
 *
 * 1. Bundle: functions/microbatch/clickstream.ts through functions/build.ts, minified, before
 *    compression (target: under 1.5 MB); gzip size alongside.
 * 2. Cold initialisation: a fresh `node` process imports the bundle, as the Lambda runtime does at a
 *    cold start (configuration read and checked, clients created, the query planned; no I/O). The
 *    import is timed inside the process; the whole process is timed next to an empty `node -e ""`.
 *    Median of COLD_STARTS runs each.
 * 3. Cost: the canonical job at 1,000 events/s with a one-minute trigger, so every invocation reads
 *    one minute of events (60,000). The bundle runs in a Lambda-like container
 *    (test/support/lambda-container.ts) against DynamoDB Local, s3rver and the Kafka mock cluster,
 *    which this benchmark starts. Relays in front of DynamoDB and S3 meter every request
 *    (aws-request-meter.ts); the invocation's duration and log output are measured. One cold
 *    invocation first, then MEASURED_INVOCATIONS warm ones; the cost uses their median, priced at the
 *    list prices of aws-prices.ts: Lambda GB-s and requests, DynamoDB request units, S3 requests, the
 *    schedule's invocations and CloudWatch Logs ingestion. Kafka (MSK) is left out: both this job and
 *    the managed alternative read the same cluster. Storage is left out too (state and the table's
 *    files are small and the same for both).
 * 4. Next to it, the minimum hourly cost of one always-on Amazon Managed Service for Apache Flink
 *    application (1 KPU + 1 orchestration KPU), the cheapest managed Spark/Flink streaming job.
 *
 * Durations are this machine's: a 1,024 MB Lambda function has about 0.58 of a vCPU, so CPU-bound
 * time there may be up to 1.7 times longer; the figures print the cost at twice the measured
 * duration too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { StreamingQueryProgress } from '../core/index.js';
import { bundleFunction, FUNCTION_ENTRIES } from '../functions/build.js';
import type { MicroBatchResult } from '../functions/microbatch/handler.js';
import { launchAwsServices } from '../test/support/aws-services-launcher.js';
import { startHttpRelay } from '../test/support/http-relay.js';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster.js';
import { LambdaContainer } from '../test/support/lambda-container.js';
import {
  createLocalBucket,
  createLocalCheckpointTable,
} from '../test/support/local-aws-clients.js';
import { localLambdaEnvironment } from '../test/support/local-lambda-environment.js';
import {
  CLOUDWATCH_LOGS_USD_PER_GB,
  DYNAMODB_USD_PER_READ_UNIT,
  DYNAMODB_USD_PER_WRITE_UNIT,
  LAMBDA_ARM64_USD_PER_GB_SECOND,
  LAMBDA_USD_PER_REQUEST,
  MANAGED_FLINK_MIN_KPUS,
  MANAGED_FLINK_USD_PER_KPU_HOUR,
  S3_USD_PER_GET_CLASS_REQUEST,
  S3_USD_PER_PUT_CLASS_REQUEST,
  SCHEDULER_USD_PER_INVOCATION,
} from './aws-prices.js';
import { type MeteredRequests, meterDynamoDb, meterS3, newMeter } from './aws-request-meter.js';
import { generateClickEventLines } from './clickstream-events.js';

const run = promisify(execFile);

const EVENTS_PER_SECOND = 1_000;
const TRIGGER_SECONDS = 60;
const EVENTS_PER_INVOCATION = EVENTS_PER_SECOND * TRIGGER_SECONDS;
/** The construct's default memory size. */
const MEMORY_MB = 1_024;
/** The function's timeout: the construct gives a one-minute trigger two minutes. */
const TIMEOUT_MS = 120_000;
const COLD_STARTS = 5;
const MEASURED_INVOCATIONS = 3;
const PARTITIONS = 4;
const PRODUCE_BATCH = 2_000;

/** A configuration that passes the cold start's checks; importing the bundle contacts nothing. */
const IMPORT_ENV = {
  SLUICE_QUERY_ID: 'clicks',
  SLUICE_CHECKPOINT_TABLE: 'sluice-checkpoints',
  SLUICE_STATE_BUCKET: 'sluice-state',
  SLUICE_SOURCE: JSON.stringify({ kind: 'kafka', bootstrapServers: ['b-1:9092'], topic: 'c' }),
  SLUICE_SINK: JSON.stringify({ kind: 'delta', bucket: 'sluice-lake', path: 'tables/clicks' }),
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
  readonly logBytes: number;
  readonly requests: MeteredRequests;
  readonly stateLoad: string;
  /** PUTs to the state bucket (the sink's objects, in the lake bucket, are counted apart). */
  readonly statePuts: number;
}

/** The cost of one invocation, in USD, by item. */
function invocationCost(invocation: Invocation, durationFactor = 1) {
  const gbSeconds = (MEMORY_MB / 1024) * ((invocation.durationMs * durationFactor) / 1000);
  const r = invocation.requests;
  return {
    lambda: gbSeconds * LAMBDA_ARM64_USD_PER_GB_SECOND + LAMBDA_USD_PER_REQUEST,
    dynamodb:
      r.dynamoDbWriteUnits * DYNAMODB_USD_PER_WRITE_UNIT +
      r.dynamoDbReadUnits * DYNAMODB_USD_PER_READ_UNIT,
    s3: r.s3PutClass * S3_USD_PER_PUT_CLASS_REQUEST + r.s3GetClass * S3_USD_PER_GET_CLASS_REQUEST,
    scheduler: SCHEDULER_USD_PER_INVOCATION,
    logs: (invocation.logBytes / 1024 ** 3) * CLOUDWATCH_LOGS_USD_PER_GB,
  };
}

function total(cost: Record<string, number>): number {
  return Object.values(cost).reduce((n, v) => n + v, 0);
}

async function measureCost(bundle: string): Promise<{ cold: Invocation; warm: Invocation[] }> {
  const [aws, kafka] = await Promise.all([launchAwsServices(), startKafkaMockCluster()]);
  let meter = newMeter();
  let statePuts = 0;
  const dynamoRelay = await startHttpRelay({
    target: aws.dynamoDbEndpoint,
    onExchange: (request, _, bytes) => meterDynamoDb(meter, request, bytes),
  });
  const s3Relay = await startHttpRelay({
    target: aws.s3Endpoint,
    onExchange: (request) => {
      meterS3(meter, request);
      if (request.method === 'PUT' && request.url.startsWith('/sluice-state/')) statePuts++;
    },
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
      createLocalBucket(aws.s3Endpoint, 'sluice-state'),
      createLocalBucket(aws.s3Endpoint, 'sluice-lake'),
    ]);
    await producer.connect();
    container = await LambdaContainer.start({
      bundle,
      env: {
        SLUICE_QUERY_ID: 'clicks',
        SLUICE_CHECKPOINT_TABLE: table,
        SLUICE_STATE_BUCKET: state,
        SLUICE_SOURCE: JSON.stringify({
          kind: 'kafka',
          bootstrapServers: kafka.bootstrapServers.split(','),
          topic: 'clicks',
          startingOffsets: 'earliest',
        }),
        SLUICE_SINK: JSON.stringify({ kind: 'delta', bucket: lake, path: 'tables/clicks' }),
        SLUICE_TRIGGER_INTERVAL: `${TRIGGER_SECONDS} seconds`,
        SLUICE_SCHEDULE_INTERVAL: `${TRIGGER_SECONDS} seconds`,
        ...localLambdaEnvironment({ dynamoDb: dynamoRelay.endpoint, s3: s3Relay.endpoint }),
      },
    });
    const lines = generateClickEventLines({
      count: EVENTS_PER_INVOCATION * (1 + MEASURED_INVOCATIONS),
      meanGapMs: 1_000 / EVENTS_PER_SECOND,
    });
    const invocations: Invocation[] = [];
    for (let i = 0; i <= MEASURED_INVOCATIONS; i++) {
      const minute = lines.slice(i * EVENTS_PER_INVOCATION, (i + 1) * EVENTS_PER_INVOCATION);
      for (let from = 0; from < minute.length; from += PRODUCE_BATCH) {
        await producer.send({
          topic: 'clicks',
          messages: minute
            .slice(from, from + PRODUCE_BATCH)
            .map((value, k) => ({ partition: (from + k) % PARTITIONS, value })),
        });
      }
      meter = newMeter();
      statePuts = 0;
      const outputBefore = container.output.length;
      const outcome = await container.invoke({}, { remainingMs: TIMEOUT_MS });
      if (outcome.kind !== 'result') {
        throw new Error(`Invocation ${i} ended with ${JSON.stringify(outcome)}`);
      }
      const result = outcome.value as MicroBatchResult;
      const output = container.output.slice(outputBefore);
      const progress = output
        .filter((l) => l.includes('"batch committed"'))
        .map((l) => (JSON.parse(l) as { progress: StreamingQueryProgress }).progress);
      invocations.push({
        durationMs: outcome.durationMs,
        inputRows: result.numInputRows,
        logBytes: output.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0),
        requests: meter,
        stateLoad: progress.map((p) => p.stateLoad).join(','),
        statePuts,
      });
    }
    const wrong = invocations.find((v) => v.inputRows !== EVENTS_PER_INVOCATION);
    if (wrong) {
      throw new Error(
        `An invocation read ${wrong.inputRows} events instead of the minute's ${EVENTS_PER_INVOCATION}: the figures would mean nothing.`,
      );
    }
    return { cold: invocations[0], warm: invocations.slice(1) };
  } finally {
    await container?.stop();
    await producer.disconnect();
    await Promise.all([dynamoRelay.stop(), s3Relay.stop()]);
    await Promise.all([aws.stop(), kafka.stop()]);
  }
}

function usd(value: number): string {
  return `$${value.toPrecision(3)}`;
}

function describeInvocation(label: string, v: Invocation): void {
  const operations = [...v.requests.operations]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
  console.log(
    `  ${label}: ${v.durationMs} ms, ${v.inputRows} events, state ${v.stateLoad || '-'}, ` +
      `${v.logBytes} log bytes; DynamoDB ${v.requests.dynamoDbWriteUnits} WRU + ` +
      `${v.requests.dynamoDbReadUnits} RRU; S3 ${v.requests.s3PutClass} PUT-class + ` +
      `${v.requests.s3GetClass} GET-class\n      ${operations}`,
  );
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

    console.log(
      `\nThe canonical job at ${EVENTS_PER_SECOND} events/s, trigger ${TRIGGER_SECONDS} s: ${EVENTS_PER_INVOCATION} events per invocation, ${MEMORY_MB} MB arm64`,
    );
    const measured = await measureCost(bundle.file);
    describeInvocation('cold invocation (new container)', measured.cold);
    measured.warm.forEach((v, i) => describeInvocation(`warm invocation ${i + 1}`, v));

    const invocationsPerMillion = 1e6 / EVENTS_PER_INVOCATION;
    const byDuration = [...measured.warm].sort((a, b) => a.durationMs - b.durationMs);
    const typical = invocationCost(byDuration[Math.floor(byDuration.length / 2)]);
    const perMillion = total(typical) * invocationsPerMillion;
    console.log(
      `\nCost per million events (median warm invocation x ${invocationsPerMillion.toFixed(2)})`,
    );
    for (const [item, value] of Object.entries(typical)) {
      console.log(`  ${item.padEnd(10)} ${usd(value * invocationsPerMillion)}`);
    }
    console.log(`  ${'total'.padEnd(10)} ${usd(perMillion)}`);
    const slower = measured.warm.map((v) => total(invocationCost(v, 2)));
    console.log(
      `  (with Lambda twice as slow as this machine: ${usd(median(slower) * invocationsPerMillion)})`,
    );

    const hourlyEvents = EVENTS_PER_SECOND * 3_600;
    const lambdaHourly = (perMillion * hourlyEvents) / 1e6;
    const managedHourly = MANAGED_FLINK_MIN_KPUS * MANAGED_FLINK_USD_PER_KPU_HOUR;
    console.log(`\nPer hour at ${EVENTS_PER_SECOND} events/s (${hourlyEvents / 1e6} M events)`);
    console.log(`  this function:                        ${usd(lambdaHourly)}`);
    console.log(
      `  Managed Service for Apache Flink, min: ${usd(managedHourly)} (${MANAGED_FLINK_MIN_KPUS} KPUs x $${MANAGED_FLINK_USD_PER_KPU_HOUR}, always on, any load)`,
    );
    console.log(`  ratio managed / function: ${(managedHourly / lambdaHourly).toFixed(0)}x`);

    console.log(
      JSON.stringify({
        bundle_bytes: bundle.bytes,
        cold_init_ms: Math.round(cold.importMs),
        usd_per_million_events: Number(perMillion.toPrecision(3)),
        managed_min_usd_per_hour: managedHourly,
        state_s3_puts_per_warm_batch: median(measured.warm.map((v) => v.statePuts)),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
