/**
 * The monthly AWS bill of one deployed query, all-in, at the list prices of aws-prices.ts.
 *
 * The fixed part is read from the synthesized CloudFormation template of the stack that holds the
 * `MicroBatchQuery`, so whatever the construct deploys is priced: the function's memory and
 * architecture, the schedule's rate (invocations a month), every alarm (per metric it evaluates),
 * every dashboard, point-in-time recovery on each table, the log group's retention. The variable
 * part is what one typical invocation was measured to do on the local services (its duration, the
 * requests counted on the wire, its log bytes and the metric names of its EMF document) times the
 * schedule's invocations, plus the bytes stored in DynamoDB and S3.
 *
 * It lives with the benchmarks, not in the library: list prices change without a release, and a
 * bill read from one machine's measurements is an estimate to compare designs by, not a promise.
 */
import { UnsupportedOperationError } from '../core/errors.js';
import {
  CLOUDWATCH_LOGS_STORAGE_USD_PER_GB_MONTH,
  CLOUDWATCH_LOGS_USD_PER_GB,
  CLOUDWATCH_USD_PER_ALARM_METRIC_MONTH,
  CLOUDWATCH_USD_PER_DASHBOARD_MONTH,
  CLOUDWATCH_USD_PER_HIGH_RESOLUTION_ALARM_METRIC_MONTH,
  CLOUDWATCH_USD_PER_METRIC_MONTH,
  DYNAMODB_PITR_USD_PER_GB_MONTH,
  DYNAMODB_USD_PER_GB_MONTH,
  DYNAMODB_USD_PER_READ_UNIT,
  DYNAMODB_USD_PER_WRITE_UNIT,
  HOURS_PER_MONTH,
  LAMBDA_ARM64_USD_PER_GB_SECOND,
  LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION,
  LAMBDA_USD_PER_REQUEST,
  LAMBDA_X86_USD_PER_GB_SECOND,
  S3_USD_PER_GB_MONTH,
  S3_USD_PER_GET_CLASS_REQUEST,
  S3_USD_PER_PUT_CLASS_REQUEST,
  SCHEDULER_USD_PER_INVOCATION,
  SQS_USD_PER_REQUEST,
} from './aws-prices.js';

/** A synthesized CloudFormation template, as `Template.toJSON()` returns it. */
export interface CloudFormationTemplate {
  readonly Resources?: Readonly<Record<string, { Type: string; Properties?: unknown }>>;
}

/** What a deployed query keeps paying for, read from its template. */
export interface DeployedQuery {
  readonly memoryMb: number;
  readonly architecture: 'arm64' | 'x86_64';
  /** Scheduled invocations in a billing month. */
  readonly invocationsPerMonth: number;
  /** Metrics evaluated by standard-resolution alarms (an alarm on metric math counts each metric). */
  readonly alarmMetrics: number;
  /** Metrics evaluated by alarms with a period under a minute. */
  readonly highResolutionAlarmMetrics: number;
  readonly dashboards: number;
  /** Tables with point-in-time recovery on. */
  readonly pitrTables: number;
  /** How long the function's log is kept; undefined when it never expires. */
  readonly logRetentionDays: number | undefined;
}

/** What one typical invocation of a load was measured to do. */
export interface MeasuredInvocation {
  readonly durationMs: number;
  /** Bytes the function wrote to its log, EMF documents included. */
  readonly logBytes: number;
  /** Distinct metric names in its EMF document: the custom metrics the load keeps billed. */
  readonly metricNames: number;
  readonly dynamoDbWriteUnits: number;
  readonly dynamoDbReadUnits: number;
  readonly s3PutClass: number;
  readonly s3GetClass: number;
  /** SQS requests (dead letters). */
  readonly sqsRequests: number;
}

/** A month of one load: the typical invocation and what stays stored. */
export interface MonthlyLoad {
  readonly invocation: MeasuredInvocation;
  /** Average bytes in the checkpoint table over the month. */
  readonly dynamoDbStoredBytes: number;
  /** Average bytes in the state bucket and the sink's objects over the month. */
  readonly s3StoredBytes: number;
  /** Multiplies the measured duration, for a Lambda slower than the measuring machine. @default 1 */
  readonly durationFactor?: number;
}

/** One line of the bill. */
export interface BillLine {
  readonly item: BillItem;
  readonly usd: number;
}

/** The bill's items, in the order it prints them. */
export const BILL_ITEMS = [
  'Lambda duration',
  'Lambda requests',
  'Scheduler',
  'DynamoDB requests',
  'DynamoDB storage',
  'DynamoDB PITR',
  'S3 requests',
  'S3 storage',
  'CloudWatch logs',
  'CloudWatch custom metrics',
  'CloudWatch alarms',
  'CloudWatch dashboards',
  'SQS',
] as const;

/** An item of the bill. */
export type BillItem = (typeof BILL_ITEMS)[number];

const GB = 1024 ** 3;
const DAYS_PER_MONTH = HOURS_PER_MONTH / 24;
/** A log group that never expires is priced at a year of its log, its size after the first year. */
const NEVER_EXPIRES_DAYS = 365;

/**
 * Reads the priced resources of the one Sluice micro-batch function (the function whose environment
 * names SLUICE_QUERY_ID) and of everything else in `template`.
 */
export function deployedQuery(template: CloudFormationTemplate): DeployedQuery {
  const resources = Object.values(template.Resources ?? {});
  const ofType = (type: string) =>
    resources.filter((r) => r.Type === type).map((r) => (r.Properties ?? {}) as Properties);
  const fn = sluiceFunction(ofType('AWS::Lambda::Function'));
  const alarms = ofType('AWS::CloudWatch::Alarm');
  const logGroups = ofType('AWS::Logs::LogGroup');
  return {
    memoryMb: Number(fn.MemorySize ?? 128),
    architecture: (fn.Architectures as string[] | undefined)?.[0] === 'arm64' ? 'arm64' : 'x86_64',
    invocationsPerMonth: ofType('AWS::Scheduler::Schedule').reduce(
      (n, s) => n + invocationsPerMonth(String(s.ScheduleExpression)),
      0,
    ),
    alarmMetrics: alarms.filter((a) => !highResolution(a)).reduce((n, a) => n + alarmMetrics(a), 0),
    highResolutionAlarmMetrics: alarms
      .filter(highResolution)
      .reduce((n, a) => n + alarmMetrics(a), 0),
    dashboards: ofType('AWS::CloudWatch::Dashboard').length,
    pitrTables: ofType('AWS::DynamoDB::Table').filter(
      (t) =>
        (t.PointInTimeRecoverySpecification as Properties | undefined)
          ?.PointInTimeRecoveryEnabled === true,
    ).length,
    logRetentionDays: logGroups.length
      ? (logGroups[0].RetentionInDays as number | undefined)
      : undefined,
  };
}

/** The month's bill of `query` under `load`, one line per item of BILL_ITEMS. */
export function monthlyBill(query: DeployedQuery, load: MonthlyLoad): BillLine[] {
  const n = query.invocationsPerMonth;
  const v = load.invocation;
  const gbSeconds = (query.memoryMb / 1024) * ((v.durationMs * (load.durationFactor ?? 1)) / 1000);
  const gbSecondPrice =
    query.architecture === 'arm64' ? LAMBDA_ARM64_USD_PER_GB_SECOND : LAMBDA_X86_USD_PER_GB_SECOND;
  const logGb = (n * (v.logBytes + LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION)) / GB;
  const logStoredGb = (logGb / DAYS_PER_MONTH) * (query.logRetentionDays ?? NEVER_EXPIRES_DAYS);
  // a custom metric is billed for each hour it receives a value
  const metricHoursShare = Math.min(1, n / HOURS_PER_MONTH);
  const lines: Record<BillItem, number> = {
    'Lambda duration': n * gbSeconds * gbSecondPrice,
    'Lambda requests': n * LAMBDA_USD_PER_REQUEST,
    Scheduler: n * SCHEDULER_USD_PER_INVOCATION,
    'DynamoDB requests':
      n *
      (v.dynamoDbWriteUnits * DYNAMODB_USD_PER_WRITE_UNIT +
        v.dynamoDbReadUnits * DYNAMODB_USD_PER_READ_UNIT),
    'DynamoDB storage': (load.dynamoDbStoredBytes / GB) * DYNAMODB_USD_PER_GB_MONTH,
    'DynamoDB PITR':
      query.pitrTables > 0 ? (load.dynamoDbStoredBytes / GB) * DYNAMODB_PITR_USD_PER_GB_MONTH : 0,
    'S3 requests':
      n *
      (v.s3PutClass * S3_USD_PER_PUT_CLASS_REQUEST + v.s3GetClass * S3_USD_PER_GET_CLASS_REQUEST),
    'S3 storage': (load.s3StoredBytes / GB) * S3_USD_PER_GB_MONTH,
    'CloudWatch logs':
      logGb * CLOUDWATCH_LOGS_USD_PER_GB + logStoredGb * CLOUDWATCH_LOGS_STORAGE_USD_PER_GB_MONTH,
    'CloudWatch custom metrics': v.metricNames * metricHoursShare * CLOUDWATCH_USD_PER_METRIC_MONTH,
    'CloudWatch alarms':
      query.alarmMetrics * CLOUDWATCH_USD_PER_ALARM_METRIC_MONTH +
      query.highResolutionAlarmMetrics * CLOUDWATCH_USD_PER_HIGH_RESOLUTION_ALARM_METRIC_MONTH,
    'CloudWatch dashboards': query.dashboards * CLOUDWATCH_USD_PER_DASHBOARD_MONTH,
    SQS: n * v.sqsRequests * SQS_USD_PER_REQUEST,
  };
  return BILL_ITEMS.map((item) => ({ item, usd: lines[item] }));
}

/** The sum of a bill's lines. */
export function billTotal(lines: readonly BillLine[]): number {
  return lines.reduce((n, l) => n + l.usd, 0);
}

type Properties = Readonly<Record<string, unknown>>;

function sluiceFunction(functions: readonly Properties[]): Properties {
  const found = functions.filter(
    (f) =>
      ((f.Environment as Properties | undefined)?.Variables as Properties | undefined)
        ?.SLUICE_QUERY_ID !== undefined,
  );
  if (found.length !== 1) {
    throw new UnsupportedOperationError(
      `The template holds ${found.length} Sluice micro-batch functions (a Lambda function with SLUICE_QUERY_ID); price a stack with exactly one MicroBatchQuery.`,
    );
  }
  return found[0];
}

const RATE = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;
const UNIT_HOURS: Readonly<Record<string, number>> = {
  minute: 1 / 60,
  minutes: 1 / 60,
  hour: 1,
  hours: 1,
  day: 24,
  days: 24,
};

function invocationsPerMonth(expression: string): number {
  const rate = RATE.exec(expression);
  if (!rate) {
    throw new UnsupportedOperationError(
      `Schedule expression '${expression}' cannot be priced: the bill counts invocations of rate(<n> <unit>) schedules, which MicroBatchQuery creates.`,
    );
  }
  return HOURS_PER_MONTH / (Number(rate[1]) * UNIT_HOURS[rate[2]]);
}

/** An alarm on one metric, or on metric math over several (expressions themselves are free). */
function alarmMetrics(alarm: Properties): number {
  const metrics = alarm.Metrics as Properties[] | undefined;
  return metrics ? metrics.filter((m) => m.MetricStat !== undefined).length : 1;
}

function highResolution(alarm: Properties): boolean {
  const periods = alarm.Metrics
    ? (alarm.Metrics as Properties[]).map((m) => (m.MetricStat as Properties | undefined)?.Period)
    : [alarm.Period];
  return periods.some((p) => typeof p === 'number' && p < 60);
}
