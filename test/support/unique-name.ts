/**
 * Names for tables, buckets and prefixes that no other test uses: all test files share one
 * DynamoDB Local and one s3rver, and run in parallel.
 */
import { randomUUID } from 'node:crypto';

/** `prefix` plus a random suffix; lowercase letters, digits and '-' only, valid for S3 and DynamoDB. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 13)}`;
}
