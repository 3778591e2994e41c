/**
 * The monthly bill of a deployed query: the fixed part follows the synthesized template (an alarm
 * more, a dashboard, a slower schedule change it), the variable part follows what one invocation was
 * measured to do, times the schedule's invocations.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CLOUDWATCH_LOGS_STORAGE_USD_PER_GB_MONTH,
  CLOUDWATCH_LOGS_USD_PER_GB,
  CLOUDWATCH_USD_PER_ALARM_METRIC_MONTH,
  CLOUDWATCH_USD_PER_DASHBOARD_MONTH,
  CLOUDWATCH_USD_PER_METRIC_MONTH,
  LAMBDA_ARM64_USD_PER_GB_SECOND,
  LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION,
  LAMBDA_USD_PER_REQUEST,
  S3_USD_PER_PUT_CLASS_REQUEST,
  SCHEDULER_USD_PER_INVOCATION,
} from '../../bench/aws-prices.js';
import {
  BILL_ITEMS,
  type BillItem,
  billTotal,
  type DeployedQuery,
  deployedQuery,
  type MonthlyLoad,
  monthlyBill,
} from '../../bench/monthly-bill.js';
import { UnsupportedOperationError } from '../../core/errors.js';
import { type QueryStack, s3FilesIntoDynamoDb } from '../infra/query-stack.js';

/** An invocation that does nothing billable but run: the variable part is Lambda and Scheduler only. */
const QUIET: MonthlyLoad = {
  invocation: {
    durationMs: 0,
    logBytes: 0,
    metricNames: 0,
    dynamoDbWriteUnits: 0,
    dynamoDbReadUnits: 0,
    s3PutClass: 0,
    s3GetClass: 0,
    sqsRequests: 0,
  },
  dynamoDbStoredBytes: 0,
  s3StoredBytes: 0,
};

function line(query: DeployedQuery, load: MonthlyLoad, item: BillItem): number {
  return monthlyBill(query, load).find((l) => l.item === item)!.usd;
}

function priced(q: QueryStack): DeployedQuery {
  return deployedQuery(q.template.toJSON());
}

let defaults: QueryStack;

beforeAll(() => {
  defaults = s3FilesIntoDynamoDb();
});

describe('deployedQuery, from the synthesized template', () => {
  it("reads the default construct: 1,024 MB arm64, a minute's rate, three alarms, no dashboard, PITR", () => {
    expect(priced(defaults)).toEqual({
      memoryMb: 1024,
      architecture: 'arm64',
      invocationsPerMonth: 43_800,
      alarmMetrics: 3,
      highResolutionAlarmMetrics: 0,
      dashboards: 0,
      pitrTables: 1,
      logRetentionDays: 30,
    });
  });

  it('follows the props: memory, a two-minute trigger, a dashboard', () => {
    const q = s3FilesIntoDynamoDb({
      memorySize: 2048,
      triggerInterval: Duration.minutes(2),
      dashboard: true,
    });
    expect(priced(q)).toMatchObject({
      memoryMb: 2048,
      invocationsPerMonth: 21_900,
      dashboards: 1,
    });
  });

  it('refuses a template without exactly one Sluice function', () => {
    expect(() => deployedQuery({ Resources: {} })).toThrow(UnsupportedOperationError);
    expect(() => deployedQuery({ Resources: {} })).toThrow(/exactly one MicroBatchQuery/);
  });
});

describe('monthlyBill', () => {
  it('prices an alarm more on the stack at one more alarm metric', () => {
    const withThrottlesAlarm = s3FilesIntoDynamoDb({}, (stack) => {
      new cloudwatch.Alarm(stack, 'Throttles', {
        metric: new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles' }),
        threshold: 1,
        evaluationPeriods: 1,
      });
      return {};
    });
    const added =
      billTotal(monthlyBill(priced(withThrottlesAlarm), QUIET)) -
      billTotal(monthlyBill(priced(defaults), QUIET));
    expect(added).toBeCloseTo(CLOUDWATCH_USD_PER_ALARM_METRIC_MONTH, 10);
  });

  it('prices the opt-in dashboard at its monthly price, and none by default', () => {
    const withDashboard = priced(s3FilesIntoDynamoDb({ dashboard: true }));
    expect(line(withDashboard, QUIET, 'CloudWatch dashboards')).toBe(
      CLOUDWATCH_USD_PER_DASHBOARD_MONTH,
    );
    expect(line(priced(defaults), QUIET, 'CloudWatch dashboards')).toBe(0);
  });

  it("multiplies the invocation's duration, memory and requests by the month's invocations", () => {
    const query = priced(defaults);
    const load: MonthlyLoad = {
      ...QUIET,
      invocation: { ...QUIET.invocation, durationMs: 1_000, s3PutClass: 2 },
    };
    expect(line(query, load, 'Lambda duration')).toBeCloseTo(
      43_800 * LAMBDA_ARM64_USD_PER_GB_SECOND,
      10,
    );
    expect(line(query, { ...load, durationFactor: 2 }, 'Lambda duration')).toBeCloseTo(
      2 * 43_800 * LAMBDA_ARM64_USD_PER_GB_SECOND,
      10,
    );
    expect(line(query, load, 'S3 requests')).toBeCloseTo(
      43_800 * 2 * S3_USD_PER_PUT_CLASS_REQUEST,
      10,
    );
  });

  it('bills the custom metrics an invocation publishes for every hour, and none when it publishes none', () => {
    const query = priced(defaults);
    const publishing = { ...QUIET, invocation: { ...QUIET.invocation, metricNames: 3 } };
    expect(line(query, publishing, 'CloudWatch custom metrics')).toBeCloseTo(
      3 * CLOUDWATCH_USD_PER_METRIC_MONTH,
      10,
    );
    expect(line(query, QUIET, 'CloudWatch custom metrics')).toBe(0);
  });

  it("prices the function's log with Lambda's own lines, and its stored copy for the retention", () => {
    const query = priced(defaults);
    const month = line(query, QUIET, 'CloudWatch logs');
    expect(month).toBeGreaterThan(0);
    const kept = line({ ...query, logRetentionDays: 60 }, QUIET, 'CloudWatch logs');
    expect(kept).toBeGreaterThan(month);
  });

  it('prices storage and PITR on the stored bytes, PITR only where a table has it on', () => {
    const query = priced(defaults);
    const stored = { ...QUIET, dynamoDbStoredBytes: 1024 ** 3, s3StoredBytes: 1024 ** 3 };
    expect(line(query, stored, 'DynamoDB storage')).toBeCloseTo(0.25, 10);
    expect(line(query, stored, 'DynamoDB PITR')).toBeCloseTo(0.2, 10);
    expect(line({ ...query, pitrTables: 0 }, stored, 'DynamoDB PITR')).toBe(0);
    expect(line(query, stored, 'S3 storage')).toBeCloseTo(0.023, 10);
  });

  it("bills a do-nothing month of the default construct its alarms, invocations and Lambda's log lines", () => {
    const lines = monthlyBill(priced(defaults), QUIET);
    expect(lines.map((l) => l.item)).toEqual([...BILL_ITEMS]);
    const logGb = (43_800 * LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION) / 1024 ** 3;
    const expected =
      3 * CLOUDWATCH_USD_PER_ALARM_METRIC_MONTH +
      43_800 * (LAMBDA_USD_PER_REQUEST + SCHEDULER_USD_PER_INVOCATION) +
      logGb * CLOUDWATCH_LOGS_USD_PER_GB +
      logGb * CLOUDWATCH_LOGS_STORAGE_USD_PER_GB_MONTH * (30 / (730 / 24));
    expect(billTotal(lines)).toBeCloseTo(expected, 10);
  });
});
