/**
 * An ObjectStore on Amazon S3: the checkpoint's and the state store's objects, under one key prefix
 * of a bucket that many queries share.
 *
 * Invariants the engine relies on are the interface's: `put` of attempt-unique keys (S3 gives
 * read-after-write consistency for them), `get` of a missing key is undefined, `list` is complete
 * and sorted. `putIfAbsent` uses S3's conditional write (If-None-Match: *), which real S3 enforces;
 * the checkpoint never depends on it on S3 (commits are decided in DynamoDB), a Delta table's log
 * does (delta-log.ts). The local test server (s3rver) accepts the header without enforcing it, so
 * the tests of concurrent writers put a relay in front of it that does.
 *
 * It also lists objects with their size and time after a key (`listObjects`), which the file stream
 * source uses to find new objects without listing the whole prefix.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { validateKeyPrefix } from '../checkpoint/checkpoint-identifiers.js';
import type {
  CreateResult,
  ObjectStore,
  ObjectStreamReading,
  ObjectRangeReading,
} from '../checkpoint/object-store.js';
import { InvalidOptionError } from '../errors.js';
import type { ObjectMetadataListing, StoredObject } from '../sources/object-store-listing.js';
import { awsFailure, classifyAwsError } from './aws-error.js';

/** Where an S3ObjectStore keeps its objects. */
export interface S3ObjectStoreOptions {
  /** The client; its region, credentials and endpoint decide where requests go. */
  readonly client: S3Client;
  /** The bucket. */
  readonly bucket: string;
  /**
   * The key prefix every object of this store lives under, e.g. `checkpoints/query-1`; a trailing
   * `/` is added when missing, so two stores never share keys by accident.
   * @default '' (the whole bucket)
   */
  readonly prefix?: string;
  /**
   * Keys per ListObjectsV2 page, 1 to 1000 (S3's maximum). Lower values only serve tests that must
   * cross page boundaries without writing thousands of objects.
   * @default 1000
   */
  readonly listPageSize?: number;
}

/** S3's maximum (and default) keys per ListObjectsV2 page. */
const MAX_LIST_PAGE_SIZE = 1000;

/**
 * How many times a conditional create is sent while S3 answers 409 ConditionalRequestConflict: S3
 * documents that status as "a concurrent operation interfered, retry", after which the retry gets a
 * definite 200 or 412.
 */
const CONDITIONAL_PUT_ATTEMPTS = 3;

/** An object store under a prefix of an S3 bucket. */
export class S3ObjectStore
  implements ObjectStore, ObjectMetadataListing, ObjectStreamReading, ObjectRangeReading
{
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly listPageSize: number;

  constructor(options: S3ObjectStoreOptions) {
    this.client = options.client;
    this.bucket = validBucket(options.bucket);
    this.prefix = validPrefix(options.prefix ?? '');
    this.listPageSize = validPageSize(options.listPageSize ?? MAX_LIST_PAGE_SIZE);
    this.location = `s3://${this.bucket}/${this.prefix}`;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.s3Key(key), Body: bytes }),
      );
    } catch (e) {
      throw this.failure('write', key, e);
    }
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: this.s3Key(key),
            Body: bytes,
            IfNoneMatch: '*',
          }),
        );
        return 'created';
      } catch (e) {
        const kind = classifyAwsError(e);
        if (kind === 'precondition-failed') return 'exists';
        if (kind !== 'transaction-conflict' || attempt === CONDITIONAL_PUT_ATTEMPTS) {
          throw this.failure('create', key, e);
        }
      }
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.s3Key(key) }),
      );
      return response.Body ? await response.Body.transformToByteArray() : new Uint8Array();
    } catch (e) {
      if (classifyAwsError(e) === 'not-found') return undefined;
      throw this.failure('read', key, e);
    }
  }

  /**
   * `length` bytes of the object from byte `start`, in one GetObject with a Range header (S3
   * answers fewer at the object's end); undefined when the object does not exist.
   */
  async getRange(key: string, start: number, length: number): Promise<Uint8Array | undefined> {
    try {
      const response = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.s3Key(key),
          Range: `bytes=${start}-${start + length - 1}`,
        }),
      );
      return response.Body ? await response.Body.transformToByteArray() : new Uint8Array();
    } catch (e) {
      if (classifyAwsError(e) === 'not-found') return undefined;
      throw this.failure('read a range of', key, e);
    }
  }

  /** The object's body as it arrives; undefined when it does not exist. */
  async getStream(key: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    let body: AsyncIterable<Uint8Array> | undefined;
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.s3Key(key) }),
      );
      // In Node.js the SDK's body is a Readable, which is an async iterable of Buffers.
      body = response.Body as AsyncIterable<Uint8Array> | undefined;
    } catch (e) {
      if (classifyAwsError(e) === 'not-found') return undefined;
      throw this.failure('read', key, e);
    }
    return this.bodyChunks(key, body);
  }

  private async *bodyChunks(
    key: string,
    body: AsyncIterable<Uint8Array> | undefined,
  ): AsyncGenerator<Uint8Array> {
    if (!body) return;
    try {
      yield* body;
    } catch (e) {
      throw this.failure('read', key, e);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const object of this.pages(prefix)) keys.push(object.key);
    // S3 orders by UTF-8 bytes; the interface promises JavaScript's string order, as the other stores.
    return keys.sort();
  }

  /**
   * The objects under `prefix` with their size and time, in S3's key order (UTF-8 bytes). With
   * `startAfter`, S3 itself starts the listing after that key, so continuing after the last key seen
   * costs requests for the new keys only, however many objects sort before it.
   */
  async listObjects(prefix: string, startAfter?: string): Promise<StoredObject[]> {
    const objects: StoredObject[] = [];
    for await (const object of this.pages(prefix, startAfter)) objects.push(object);
    return objects;
  }

  /** Every object of every ListObjectsV2 page under `prefix`, keys relative to the store's prefix. */
  private async *pages(prefix: string, startAfter?: string): AsyncGenerator<StoredObject> {
    let continuationToken: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.s3Key(prefix),
            MaxKeys: this.listPageSize,
            ContinuationToken: continuationToken,
            StartAfter:
              continuationToken === undefined && startAfter !== undefined
                ? this.s3Key(startAfter)
                : undefined,
          }),
        );
      } catch (e) {
        throw this.failure('list', prefix, e);
      }
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield {
          key: object.Key.slice(this.prefix.length),
          size: object.Size ?? 0,
          lastModifiedMs: object.LastModified?.getTime() ?? 0,
        };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.bucket, Key: this.s3Key(key) }),
      );
    } catch (e) {
      throw this.failure('delete', key, e);
    }
  }

  private s3Key(key: string): string {
    return this.prefix + key;
  }

  private failure(action: string, key: string, e: unknown): Error {
    return awsFailure(`Could not ${action} s3://${this.bucket}/${this.s3Key(key)}`, e);
  }
}

function validBucket(bucket: string): string {
  // S3's rules: 3 to 63 characters, lowercase letters, digits, dots and hyphens. Checked here so a
  // typo fails when the query is configured, not at its first batch.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new InvalidOptionError(
      `S3ObjectStore option 'bucket' must be an S3 bucket name (3 to 63 lowercase letters, digits, '.' or '-'), got ${JSON.stringify(bucket)}.`,
    );
  }
  return bucket;
}

/** '' (the whole bucket), or a key prefix by the shared rule, to which a trailing '/' may be added. */
function validPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const withoutSlash = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return `${validateKeyPrefix(withoutSlash, "S3ObjectStore option 'prefix'")}/`;
}

function validPageSize(size: number): number {
  if (!Number.isInteger(size) || size < 1 || size > MAX_LIST_PAGE_SIZE) {
    throw new InvalidOptionError(
      `S3ObjectStore option 'listPageSize' must be an integer from 1 to ${MAX_LIST_PAGE_SIZE}, got ${size}.`,
    );
  }
  return size;
}
