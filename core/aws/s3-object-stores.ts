/**
 * The resolver of `s3://bucket/prefix` locations, registered once on the session:
 *
 * ```ts
 * const session = new SluiceSession({ objectStores: { s3: s3ObjectStores() } });
 * session.readStream.schema(schema).json('s3://landing/clicks/');
 * ```
 *
 * Every location shares one client, so its connection pool and credentials serve them all.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { ObjectStoreResolver } from '../checkpoint/object-store-resolver.js';
import { InvalidOptionError } from '../errors.js';
import { S3ObjectStore } from './s3-object-store.js';

/** How `s3://` locations reach S3. */
export interface S3ObjectStoresOptions {
  /** The client to use (tests pass one for a local endpoint). @default a new client with `region` and adaptive retries */
  readonly client?: S3Client;
  /** @default the SDK's region resolution (AWS_REGION in Lambda) */
  readonly region?: string;
  /** Attempts per request, with adaptive backoff for throttling and 5xx. @default 5 */
  readonly maxAttempts?: number;
}

/** A resolver of `s3://bucket/prefix` URLs to S3ObjectStores; the options are checked now. */
export function s3ObjectStores(options: S3ObjectStoresOptions = {}): ObjectStoreResolver {
  if (options.client && (options.region !== undefined || options.maxAttempts !== undefined)) {
    throw new InvalidOptionError(
      's3ObjectStores: give either a client or region/maxAttempts for a new one, not both: the client already has its region and retry settings.',
    );
  }
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new InvalidOptionError(
      `s3ObjectStores option 'maxAttempts' must be a positive integer, got ${maxAttempts}.`,
    );
  }
  const client =
    options.client ?? new S3Client({ region: options.region, maxAttempts, retryMode: 'adaptive' });
  return (bucket, prefix) => new S3ObjectStore({ client, bucket, prefix });
}
