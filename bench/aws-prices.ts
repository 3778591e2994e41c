/**
 * AWS list prices for the deployment benchmark's cost estimate: us-east-1, on-demand, no free tier,
 * as published on the services' pricing pages (checked November 2025; DynamoDB's on-demand prices
 * are those after the November 2024 reduction). Change them here when the pages change.
 */

/** Lambda duration, arm64 (the construct's default architecture), first 7.5 billion GB-s a month. aws.amazon.com/lambda/pricing */
export const LAMBDA_ARM64_USD_PER_GB_SECOND = 0.0000133334;
/** Lambda requests. aws.amazon.com/lambda/pricing */
export const LAMBDA_USD_PER_REQUEST = 0.2 / 1e6;
/** DynamoDB on-demand write request unit (1 KB written; transactional writes take 2). aws.amazon.com/dynamodb/pricing/on-demand */
export const DYNAMODB_USD_PER_WRITE_UNIT = 0.625 / 1e6;
/** DynamoDB on-demand read request unit (4 KB strongly consistent; eventually consistent reads take half). */
export const DYNAMODB_USD_PER_READ_UNIT = 0.125 / 1e6;
/** S3 Standard PUT, COPY, POST and LIST requests. aws.amazon.com/s3/pricing */
export const S3_USD_PER_PUT_CLASS_REQUEST = 0.005 / 1000;
/** S3 Standard GET, SELECT and all other requests (DELETE is free). aws.amazon.com/s3/pricing */
export const S3_USD_PER_GET_CLASS_REQUEST = 0.0004 / 1000;
/** EventBridge Scheduler invocations beyond the 14 million free each month. aws.amazon.com/eventbridge/pricing */
export const SCHEDULER_USD_PER_INVOCATION = 1 / 1e6;
/** CloudWatch Logs ingestion (standard class), which the function's logs and EMF metrics go through. aws.amazon.com/cloudwatch/pricing */
export const CLOUDWATCH_LOGS_USD_PER_GB = 0.5;
/** Amazon Managed Service for Apache Flink, per KPU-hour (1 vCPU, 4 GB). aws.amazon.com/managed-service-apache-flink/pricing */
export const MANAGED_FLINK_USD_PER_KPU_HOUR = 0.11;
/**
 * The smallest Managed Flink application: one KPU for the job plus the one KPU every application is
 * charged for orchestration (docs.aws.amazon.com/managed-flink/latest/java/how-pricing.html). Its
 * running storage (50 GB per KPU at $0.10 per GB-month, under a cent an hour) is left out.
 */
export const MANAGED_FLINK_MIN_KPUS = 2;
