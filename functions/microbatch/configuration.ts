/**
 * The micro-batch function's configuration: environment variables set by the `MicroBatchQuery`
 * construct, validated once at cold start. A bad setting fails the cold start with a message that
 * names the variable, rather than the first batch. Source and sink are JSON documents, so the
 * construct (which also derives IAM from them) and the function agree on one typed shape.
 */
import * as z from 'zod/mini';
import { InvalidOptionError, validateKeyPrefix, validateQueryId } from '../../core/index.js';
import { parseDuration } from '../../core/types/duration.js';

/** The names of the environment variables the function reads. */
export const ENV = {
  queryId: 'SLUICE_QUERY_ID',
  checkpointTable: 'SLUICE_CHECKPOINT_TABLE',
  stateBucket: 'SLUICE_STATE_BUCKET',
  statePrefix: 'SLUICE_STATE_PREFIX',
  triggerInterval: 'SLUICE_TRIGGER_INTERVAL',
  scheduleInterval: 'SLUICE_SCHEDULE_INTERVAL',
  safetyMarginMs: 'SLUICE_SAFETY_MARGIN_MS',
  leaseDurationMs: 'SLUICE_LEASE_MS',
  source: 'SLUICE_SOURCE',
  sink: 'SLUICE_SINK',
  s3ForcePathStyle: 'SLUICE_S3_FORCE_PATH_STYLE',
  detailedMetrics: 'SLUICE_DETAILED_METRICS',
  inlineStateMaxBytes: 'SLUICE_INLINE_STATE_MAX_BYTES',
  parallelism: 'SLUICE_PARALLELISM',
  shard: 'SLUICE_SHARD',
  stage: 'SLUICE_STAGE',
} as const;

const name = z.string().check(z.trim(), z.minLength(1));
/** A result column a sink names; the writer takes column lists comma-separated. */
const columnName = z.string().check(
  z.trim(),
  z.minLength(1),
  z.refine((c) => !c.includes(','), 'a column name with "," cannot be given to the sink'),
);
const positiveInteger = z.int().check(z.positive());

/** S3's bucket naming rule, checked here so a typo fails the cold start, naming the setting. */
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const BUCKET_RULE = 'an S3 bucket name (3 to 63 lowercase letters, digits, "." or "-")';
const bucketName = z.string().check(z.trim(), z.regex(S3_BUCKET, `must be ${BUCKET_RULE}`));
/** A key prefix in a bucket: S3 keys have no leading slash. */
const noLeadingSlash = z.refine<string>((p) => !p.startsWith('/'), 'must not start with "/"');
const tablePath = z.string().check(z.trim(), z.minLength(1), noLeadingSlash);

/**
 * An object that refuses keys it does not define: a misspelt optional setting (`partitonBy`) would
 * otherwise be dropped and its default used without a word.
 */
function strictObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown ${issue.keys.length > 1 ? 'keys' : 'key'} ${issue.keys.map((k) => `"${k}"`).join(', ')}; correct the spelling or remove it`
        : undefined,
  });
}

/** How the function authenticates to Kafka (MSK IAM, or SCRAM/PLAIN credentials in Secrets Manager). */
export const kafkaAuthSchema = z.discriminatedUnion('mechanism', [
  strictObject({ mechanism: z.literal('aws-msk-iam'), region: z.optional(name) }),
  strictObject({
    mechanism: z.enum(['scram-sha-512', 'scram-sha-256', 'plain']),
    /** A secret whose SecretString is `{"username": ..., "password": ...}`. */
    secretArn: name,
  }),
]);

const kafkaConnection = {
  bootstrapServers: z.array(name).check(z.minLength(1)),
  topic: name,
  ssl: z._default(z.boolean(), false),
  sasl: z.optional(kafkaAuthSchema),
};

/**
 * The most offsets one batch of a Kafka source reads, unless the source sets maxOffsetsPerTrigger:
 * without a cap, a query that starts from `earliest` or falls behind would read the whole backlog in
 * one batch, more than a function's memory and timeout hold. 100,000 records of about 1 KB are some
 * 100 MB of input.
 */
export const DEFAULT_MAX_OFFSETS_PER_TRIGGER = 100_000;

/**
 * The most bytes one batch of an S3 files source reads, unless the source sets maxBytesPerTrigger
 * (a `.gz` counts its uncompressed size): 64 MiB of text, with the rows parsed from it, fits a
 * 1024 MB function several times over, where an unbounded first batch over a large prefix would not.
 */
export const DEFAULT_MAX_BYTES_PER_TRIGGER = 64 * 1024 * 1024;

/** The stream the query reads. */
export const sourceConfigSchema = z.discriminatedUnion('kind', [
  strictObject({
    kind: z.literal('kafka'),
    ...kafkaConnection,
    startingOffsets: z._default(z.enum(['earliest', 'latest']), 'earliest'),
    maxOffsetsPerTrigger: z._default(positiveInteger, DEFAULT_MAX_OFFSETS_PER_TRIGGER),
    minOffsetsPerTrigger: z.optional(positiveInteger),
    maxTriggerDelay: z.optional(name),
    failOnDataLoss: z._default(z.boolean(), true),
  }),
  strictObject({
    kind: z.literal('s3-files'),
    bucket: bucketName,
    prefix: z._default(z.string().check(noLeadingSlash), ''),
    format: z.enum(['json', 'csv', 'parquet', 'text']),
    /** DDL, e.g. `ts TIMESTAMP, category STRING` (not needed for text). */
    schema: z.optional(name),
    maxFilesPerTrigger: z.optional(positiveInteger),
    /** Bytes, counted as the file source counts them (a `.gz` by its uncompressed size). */
    maxBytesPerTrigger: z._default(positiveInteger, DEFAULT_MAX_BYTES_PER_TRIGGER),
  }),
]);

/** Where the query's results go. */
export const sinkConfigSchema = z.discriminatedUnion('kind', [
  strictObject({
    kind: z.literal('delta'),
    bucket: bucketName,
    path: tablePath,
    partitionBy: z.optional(z.array(columnName)),
  }),
  strictObject({
    kind: z.literal('files'),
    bucket: bucketName,
    path: tablePath,
    format: z.enum(['json', 'csv', 'parquet']),
  }),
  strictObject({
    kind: z.literal('dynamodb'),
    tableName: name,
    /** The table's partition key attribute. @default the table's, from DescribeTable */
    partitionKey: z.optional(name),
    /** The table's sort key attribute, when it has one. */
    sortKey: z.optional(name),
    /** The result columns that key an item. @default the aggregation's grouping keys */
    keyColumns: z.optional(z.array(columnName)),
  }),
  strictObject({ kind: z.literal('kafka'), ...kafkaConnection }),
]);

/** The stream the query reads. */
export type SourceConfig = z.infer<typeof sourceConfigSchema>;
/** Where the query's results go. */
export type SinkConfig = z.infer<typeof sinkConfigSchema>;
/** Kafka authentication. */
export type KafkaAuth = z.infer<typeof kafkaAuthSchema>;

/** The function's validated configuration. */
export interface MicroBatchConfig {
  readonly queryId: string;
  readonly checkpointTable: string;
  readonly stateBucket: string;
  readonly statePrefix: string;
  /** Milliseconds between batch starts. */
  readonly triggerIntervalMs: number;
  /** Milliseconds between scheduled invocations: how long one invocation keeps triggering batches. */
  readonly scheduleIntervalMs: number;
  /** Time kept free before the Lambda timeout for the commit and the lease release. */
  readonly safetyMarginMs: number;
  /** How long the query's lease lasts; a running batch renews it. */
  readonly leaseDurationMs: number;
  readonly source: SourceConfig;
  readonly sink: SinkConfig;
  /** Path-style S3 addressing, for S3-compatible endpoints (AWS_ENDPOINT_URL_S3). */
  readonly s3ForcePathStyle: boolean;
  /**
   * Publish every metric of batch-metrics.ts, not only those the alarms read: each one more is a
   * CloudWatch custom metric, billed by the month.
   */
  readonly detailedMetrics: boolean;
  /**
   * The most bytes of state changes a commit carries (the writer's option inlineStateMaxBytes); 0
   * keeps state in S3 objects only. Absent: the writer's default.
   */
  readonly inlineStateMaxBytes?: number;
  /** How many shards the query runs as (docs/scale-out.md). @default 1 */
  readonly parallelism: number;
  /**
   * The shard every invocation of this function runs, when the function serves one shard only;
   * absent, each invocation's event names its shard (`{"shard": i}`), as the construct sends it.
   */
  readonly shard?: number;
  /**
   * The stage (1 or 2) every invocation runs of a query split at a repartition stage
   * (docs/repartition-stage.md), when the function serves one stage only; absent, the event names it
   * (`{"stage": s, "shard": i}`), or the query is not split (stage 0).
   */
  readonly stage?: number;
}

/**
 * Reads and validates the configuration from environment variables. The trigger interval may not
 * exceed the schedule's: every scheduled invocation runs at least one batch, so the schedule would
 * set the pace, not the trigger.
 */
export function readConfiguration(
  env: Readonly<Record<string, string | undefined>>,
): MicroBatchConfig {
  const scheduleIntervalMs = durationSetting(env, ENV.scheduleInterval, '1 minute');
  const triggerIntervalMs = env[ENV.triggerInterval]?.trim()
    ? durationSetting(env, ENV.triggerInterval, '')
    : scheduleIntervalMs;
  if (triggerIntervalMs > scheduleIntervalMs) {
    throw new InvalidOptionError(
      `${ENV.triggerInterval} (${triggerIntervalMs} ms) is longer than ${ENV.scheduleInterval} (${scheduleIntervalMs} ms): every scheduled invocation runs a batch, so schedule the function at the trigger interval.`,
    );
  }
  return {
    queryId: validateQueryId(required(env, ENV.queryId), ENV.queryId),
    checkpointTable: required(env, ENV.checkpointTable),
    stateBucket: matching(env, ENV.stateBucket, S3_BUCKET, BUCKET_RULE),
    statePrefix: statePrefix(env),
    scheduleIntervalMs,
    triggerIntervalMs,
    safetyMarginMs: integerSetting(env, ENV.safetyMarginMs, 5_000),
    leaseDurationMs: leaseSetting(env),
    source: jsonSetting(env, ENV.source, sourceConfigSchema),
    sink: jsonSetting(env, ENV.sink, sinkConfigSchema),
    s3ForcePathStyle: booleanSetting(env, ENV.s3ForcePathStyle, false),
    detailedMetrics: booleanSetting(env, ENV.detailedMetrics, false),
    ...(env[ENV.inlineStateMaxBytes]?.trim()
      ? { inlineStateMaxBytes: integerSetting(env, ENV.inlineStateMaxBytes, 0) }
      : {}),
    ...shardSettings(env),
  };
}

/** SLUICE_PARALLELISM (at least 1), SLUICE_SHARD (below it) and SLUICE_STAGE (1 or 2), when given. */
function shardSettings(
  env: Readonly<Record<string, string | undefined>>,
): Pick<MicroBatchConfig, 'parallelism' | 'shard' | 'stage'> {
  return { ...parallelismAndShard(env), ...stageSetting(env) };
}

function stageSetting(env: Readonly<Record<string, string | undefined>>): { stage?: number } {
  if (!env[ENV.stage]?.trim()) return {};
  const stage = integerSetting(env, ENV.stage, 0);
  if (stage !== 1 && stage !== 2) {
    throw new InvalidOptionError(
      `${ENV.stage}='${stage}' must be 1 or 2: a split query has stage 1 (up to the repartition topic) and stage 2 (from it to the sink).`,
    );
  }
  return { stage };
}

function parallelismAndShard(
  env: Readonly<Record<string, string | undefined>>,
): Pick<MicroBatchConfig, 'parallelism' | 'shard'> {
  const parallelism = integerSetting(env, ENV.parallelism, 1);
  if (parallelism < 1) {
    throw new InvalidOptionError(`${ENV.parallelism}='${parallelism}' must be at least 1.`);
  }
  if (!env[ENV.shard]?.trim()) return { parallelism };
  const shard = integerSetting(env, ENV.shard, 0);
  if (shard >= parallelism) {
    throw new InvalidOptionError(
      `${ENV.shard}='${shard}' must be below ${ENV.parallelism} (${parallelism}): shards are numbered from 0.`,
    );
  }
  return { parallelism, shard };
}

function required(env: Readonly<Record<string, string | undefined>>, key: string): string {
  const value = env[key]?.trim();
  if (!value) throw new InvalidOptionError(`The function needs the environment variable ${key}.`);
  return value;
}

function matching(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  pattern: RegExp,
  rule: string,
): string {
  const value = required(env, key);
  if (!pattern.test(value)) {
    throw new InvalidOptionError(`${key}='${value}' is invalid: use ${rule}.`);
  }
  return value;
}

/** The state prefix, by the rule the construct and the backends share. */
function statePrefix(env: Readonly<Record<string, string | undefined>>): string {
  return validateKeyPrefix(env[ENV.statePrefix]?.trim() || 'sluice', ENV.statePrefix);
}

function durationSetting(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  fallback: string,
): number {
  const text = env[key]?.trim() || fallback;
  try {
    return parseDuration(text, key) / 1000;
  } catch (error) {
    throw new InvalidOptionError(
      `${key}='${text}' is not a duration; use for example '1 minute' or '10 seconds'.`,
      { cause: error },
    );
  }
}

/** The lease's duration: under a second it would lapse between the renewals of a live batch. */
function leaseSetting(env: Readonly<Record<string, string | undefined>>): number {
  const ms = integerSetting(env, ENV.leaseDurationMs, 30_000);
  if (ms < 1000) {
    throw new InvalidOptionError(
      `${ENV.leaseDurationMs}='${ms}' is too short for a batch to renew the lease: use at least 1000 (ms; 30000 by default).`,
    );
  }
  return ms;
}

function integerSetting(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  fallback: number,
): number {
  const text = env[key]?.trim();
  if (!text) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidOptionError(`${key}='${text}' must be a non-negative integer.`);
  }
  return n;
}

/** 'true' or 'false' in any case, as Spark reads a boolean setting; anything else is refused. */
function booleanSetting(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  fallback: boolean,
): boolean {
  const text = env[key]?.trim();
  if (!text) return fallback;
  const value = text.toLowerCase();
  if (value !== 'true' && value !== 'false') {
    throw new InvalidOptionError(`${key}='${text}' must be 'true' or 'false'.`);
  }
  return value === 'true';
}

function jsonSetting<T>(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  schema: z.ZodMiniType<T>,
): T {
  const text = required(env, key);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidOptionError(`${key} is not valid JSON: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    throw new InvalidOptionError(`${key} is invalid: ${problems}.`);
  }
  return parsed.data;
}
