/**
 * AWS list prices for the deployment benchmark's cost estimate: us-east-1, on-demand, no free tier
 * (an account's free tier is shared by everything in it, so a bill for one query cannot count on
 * it), as published on the services' pricing pages (checked November 2025; DynamoDB's on-demand
 * prices are those after the November 2024 reduction). Change them here when the pages change.
 */

/** Lambda duration, arm64 (the construct's default architecture), first 7.5 billion GB-s a month. aws.amazon.com/lambda/pricing */
export const LAMBDA_ARM64_USD_PER_GB_SECOND = 0.0000133334;
/** Lambda duration, x86_64, first 6 billion GB-s a month. aws.amazon.com/lambda/pricing */
export const LAMBDA_X86_USD_PER_GB_SECOND = 0.0000166667;
/** Lambda requests. aws.amazon.com/lambda/pricing */
export const LAMBDA_USD_PER_REQUEST = 0.2 / 1e6;
/** DynamoDB on-demand write request unit (1 KB written; transactional writes take 2). aws.amazon.com/dynamodb/pricing/on-demand */
export const DYNAMODB_USD_PER_WRITE_UNIT = 0.625 / 1e6;
/** DynamoDB on-demand read request unit (4 KB strongly consistent; eventually consistent reads take half). */
export const DYNAMODB_USD_PER_READ_UNIT = 0.125 / 1e6;
/** DynamoDB Standard table storage, per GB-month beyond the first 25 GB. aws.amazon.com/dynamodb/pricing/on-demand */
export const DYNAMODB_USD_PER_GB_MONTH = 0.25;
/** DynamoDB continuous backups (point-in-time recovery), per GB-month of table size. aws.amazon.com/dynamodb/pricing/on-demand */
export const DYNAMODB_PITR_USD_PER_GB_MONTH = 0.2;
/** S3 Standard storage, first 50 TB a month. aws.amazon.com/s3/pricing */
export const S3_USD_PER_GB_MONTH = 0.023;
/** S3 Standard PUT, COPY, POST and LIST requests. aws.amazon.com/s3/pricing */
export const S3_USD_PER_PUT_CLASS_REQUEST = 0.005 / 1000;
/** S3 Standard GET, SELECT and all other requests (DELETE is free). aws.amazon.com/s3/pricing */
export const S3_USD_PER_GET_CLASS_REQUEST = 0.0004 / 1000;
/** EventBridge Scheduler invocations beyond the 14 million free each month. aws.amazon.com/eventbridge/pricing */
export const SCHEDULER_USD_PER_INVOCATION = 1 / 1e6;
/** Step Functions Standard workflows, per state transition beyond the 4,000 free. aws.amazon.com/step-functions/pricing */
export const STEP_FUNCTIONS_USD_PER_STATE_TRANSITION = 0.025 / 1000;
/** CloudWatch Logs ingestion (standard class), which the function's logs and EMF metrics go through. aws.amazon.com/cloudwatch/pricing */
export const CLOUDWATCH_LOGS_USD_PER_GB = 0.5;
/** CloudWatch Logs storage (archived, compressed), per GB-month. aws.amazon.com/cloudwatch/pricing */
export const CLOUDWATCH_LOGS_STORAGE_USD_PER_GB_MONTH = 0.03;
/**
 * CloudWatch custom metric, first 10,000 a month; prorated by the hour, so a metric costs only for
 * the hours it receives data. aws.amazon.com/cloudwatch/pricing
 */
export const CLOUDWATCH_USD_PER_METRIC_MONTH = 0.3;
/** CloudWatch standard-resolution alarm, per metric it evaluates. aws.amazon.com/cloudwatch/pricing */
export const CLOUDWATCH_USD_PER_ALARM_METRIC_MONTH = 0.1;
/** CloudWatch high-resolution (period under a minute) alarm, per metric it evaluates. aws.amazon.com/cloudwatch/pricing */
export const CLOUDWATCH_USD_PER_HIGH_RESOLUTION_ALARM_METRIC_MONTH = 0.3;
/** CloudWatch dashboard, per month. aws.amazon.com/cloudwatch/pricing */
export const CLOUDWATCH_USD_PER_DASHBOARD_MONTH = 3;
/** SQS standard queue requests (the dead-letter queue's; it has no fixed charge). aws.amazon.com/sqs/pricing */
export const SQS_USD_PER_REQUEST = 0.4 / 1e6;
/**
 * What Lambda itself writes to the function's log per invocation: the START, END and REPORT lines
 * (about 60, 50 and 190 bytes in the text format), ingested like the function's own lines.
 */
export const LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION = 300;
/** AWS Glue streaming ETL, per DPU-hour. aws.amazon.com/glue/pricing */
export const GLUE_USD_PER_DPU_HOUR = 0.44;
/**
 * The smallest Glue streaming job: two G.025X workers of a quarter DPU each, the worker type Glue
 * offers for low-volume streaming (docs.aws.amazon.com/glue/latest/dg/add-job-streaming.html).
 */
export const GLUE_STREAMING_MIN_DPUS = 0.5;
/** Hours in AWS's billing month. */
export const HOURS_PER_MONTH = 730;
/** Amazon Managed Service for Apache Flink, per KPU-hour (1 vCPU, 4 GB). aws.amazon.com/managed-service-apache-flink/pricing */
export const MANAGED_FLINK_USD_PER_KPU_HOUR = 0.11;
/**
 * The smallest Managed Flink application: one KPU for the job plus the one KPU every application is
 * charged for orchestration (docs.aws.amazon.com/managed-flink/latest/java/how-pricing.html). Its
 * running storage (50 GB per KPU at $0.10 per GB-month, under a cent an hour) is left out.
 */
export const MANAGED_FLINK_MIN_KPUS = 2;
