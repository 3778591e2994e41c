/**
 * Meters the AWS requests a function bundle sends, as the bill would count them: it sits on the
 * relays in front of DynamoDB Local and s3rver (test/support/http-relay.ts), so it sees what goes
 * over the wire, retries included, from a bundle whose SDK clients it cannot reach.
 *
 * DynamoDB request units are derived from each request: writes take one unit per KB of item
 * (transactional writes two), reads one unit per 4 KB returned when strongly consistent and half
 * that otherwise (transactional reads two). Item sizes are taken from the JSON on the wire, which
 * is close to, and a little above, DynamoDB's own size rule for the small checkpoint items.
 */
import type { RelayedRequest } from '../test/support/http-relay.js';

/** What a run of requests will cost, in the units AWS bills. */
export interface MeteredRequests {
  /** Requests by operation: `DynamoDB UpdateItem`, `S3 PUT`, `S3 LIST`, ... */
  readonly operations: Map<string, number>;
  dynamoDbWriteUnits: number;
  dynamoDbReadUnits: number;
  /** S3 PUT, COPY, POST and LIST requests. */
  s3PutClass: number;
  /** S3 GET, HEAD and other requests, DELETE excepted. */
  s3GetClass: number;
  /** S3 PUT requests by bucket, so that state objects are told from the sink's. */
  readonly s3PutsByBucket: Map<string, number>;
  /** Bytes of S3 PUT bodies by bucket: what a bucket grows by. */
  readonly s3BytesPutByBucket: Map<string, number>;
}

/** An empty meter. */
export function newMeter(): MeteredRequests {
  return {
    operations: new Map(),
    dynamoDbWriteUnits: 0,
    dynamoDbReadUnits: 0,
    s3PutClass: 0,
    s3GetClass: 0,
    s3PutsByBucket: new Map(),
    s3BytesPutByBucket: new Map(),
  };
}

/** Counts one DynamoDB request and the units it consumed. */
export function meterDynamoDb(
  meter: MeteredRequests,
  request: RelayedRequest,
  responseBytes: number,
): void {
  const target = String(request.headers['x-amz-target'] ?? '');
  const operation = target.slice(target.indexOf('.') + 1);
  count(meter, `DynamoDB ${operation}`);
  const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
  const readUnits = Math.ceil(Math.max(1, responseBytes) / 4096);
  switch (operation) {
    case 'GetItem':
    case 'Query':
    case 'Scan':
      meter.dynamoDbReadUnits += body.ConsistentRead === true ? readUnits : readUnits / 2;
      break;
    case 'TransactGetItems':
      meter.dynamoDbReadUnits += 2 * readUnits;
      break;
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      meter.dynamoDbWriteUnits += kilobytes(request.body.length);
      break;
    case 'TransactWriteItems':
      for (const item of (body.TransactItems as unknown[] | undefined) ?? []) {
        meter.dynamoDbWriteUnits += 2 * kilobytes(JSON.stringify(item).length);
      }
      break;
  }
}

/** Counts one S3 request in its price class. */
export function meterS3(meter: MeteredRequests, request: RelayedRequest): void {
  const listing = request.method === 'GET' && /[?&]list-type=/.test(request.url);
  const operation = listing ? 'LIST' : request.method;
  count(meter, `S3 ${operation}`);
  if (operation === 'DELETE') return;
  if (['PUT', 'POST', 'LIST'].includes(operation)) meter.s3PutClass++;
  else meter.s3GetClass++;
  if (operation === 'PUT') {
    // path-style addressing (forcePathStyle): /<bucket>/<key>
    const bucket = request.url.split(/[/?]/)[1] ?? '';
    const decoded = Number(request.headers['x-amz-decoded-content-length']);
    add(meter.s3PutsByBucket, bucket, 1);
    add(meter.s3BytesPutByBucket, bucket, decoded >= 0 ? decoded : request.body.length);
  }
}

function count(meter: MeteredRequests, operation: string): void {
  add(meter.operations, operation, 1);
}

function add(counts: Map<string, number>, key: string, n: number): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

function kilobytes(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}
