/**
 * The rows of a Delta table on S3 (the local s3rver in tests and benchmarks), read as a user reads
 * one: the table that a run's Delta sink wrote, to compare with the batch query's result.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { type RowObject, SluiceSession } from '../../core/index.js';

/** Every row of the Delta table under `prefix` of `bucket`, through `client`. */
export async function deltaTableRows(
  client: S3Client,
  bucket: string,
  prefix: string,
): Promise<RowObject[]> {
  const store = new S3ObjectStore({ client, bucket, prefix });
  return (await new SluiceSession().read.delta(store)).collect();
}
