/**
 * Writing a batch's items to a DynamoDB table, in one of two ways.
 *
 * - Guarded puts (the default): one PutItem per item, many in flight at once, each on the condition
 *   `attribute_not_exists(batchId) OR attribute_not_exists(queryId) OR queryId <> :query OR
 *   batchId <= :batch`. An invocation that lost its lease but is still running (a zombie) may reach
 *   the sink with batch N after another invocation committed N+1; its write then fails the condition
 *   on every item N+1 wrote, and is skipped, so an older batch never overwrites a newer one.
 *   BatchWriteItem cannot carry conditions; TransactWriteItems can, but costs twice the write units,
 *   fails all of its (at most 100) items when one condition fails, and conflicts with a concurrent
 *   attempt of the same batch on any shared item. Items are independent and each put is idempotent,
 *   so parallel conditional puts give the same guarantee at one write unit per item.
 * - Batch writes: BatchWriteItem, 25 items a request, retrying unprocessed items with backoff: 25
 *   times fewer requests, but no guard. Safe only where no zombie can exist: the lease is short and
 *   renewed, so an invocation that stalls past it (a long pause, renewals failing) may still be
 *   writing after another took over; use it only for queries whose lease outlasts any such stall.
 *
 * Throttling, transaction conflicts and service failures are retried with exponential backoff and
 * jitter (on top of the SDK's own retries); what still fails becomes a SinkError that says whether
 * running the batch again can help.
 */
import {
  type AttributeValue,
  BatchWriteItemCommand,
  type DynamoDBClient,
  PutItemCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { SinkError } from '../errors.js';
import { awsFailure, classifyAwsError, isRetriableAwsError } from './aws-error.js';
import type { ItemAttributes } from './dynamodb-item-codec.js';

/** How a batch's items are written; see the module doc. */
export type DynamoDbWriteMethod = 'guardedPut' | 'batchWrite';

/** Where and as which batch items are written. */
export interface ItemWriteTarget {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** Names the sink and the table in messages. */
  readonly context: string;
  readonly queryId: string;
  readonly batchId: number;
  /** The attributes every item carries its writer's query id and batch id in. */
  readonly queryIdAttribute: string;
  readonly batchIdAttribute: string;
  /** The table's key attributes, to name an item in messages. */
  readonly keyAttributes: readonly string[];
  /** Requests in flight at once. */
  readonly concurrency: number;
}

/** Attempts of one request (or of one set of unprocessed items) before the batch fails. */
const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 25;
const MAX_BACKOFF_MS = 2_000;
/** BatchWriteItem's limit. */
const BATCH_WRITE_ITEMS = 25;

/** Writes `items` with `method`. */
export function writeItems(
  method: DynamoDbWriteMethod,
  items: readonly ItemAttributes[],
  target: ItemWriteTarget,
): Promise<void> {
  return method === 'guardedPut' ? putGuarded(items, target) : batchWrite(items, target);
}

/**
 * A failed DynamoDB request of the sink as a SinkError: `context` says what was done to which table
 * and item; the message adds what the service said and what to do, `retriable` follows the
 * classification, and the SDK error is the cause.
 */
export function dynamoDbSinkFailure(context: string, error: unknown): SinkError {
  const classified = awsFailure(context, error);
  return new SinkError(classified.message, { cause: error, retriable: classified.retriable });
}

async function putGuarded(
  items: readonly ItemAttributes[],
  target: ItemWriteTarget,
): Promise<void> {
  const guard = {
    ConditionExpression:
      'attribute_not_exists(#batch) OR attribute_not_exists(#query) OR #query <> :query OR #batch <= :batch',
    ExpressionAttributeNames: {
      '#batch': target.batchIdAttribute,
      '#query': target.queryIdAttribute,
    },
    ExpressionAttributeValues: {
      ':batch': { N: String(target.batchId) },
      ':query': { S: target.queryId },
    } satisfies Record<string, AttributeValue>,
  };
  await forEachConcurrently(items, target.concurrency, async (item) => {
    const put = new PutItemCommand({ TableName: target.tableName, Item: item, ...guard });
    await withRetries(`put item ${keyText(item, target)}`, target, async () => {
      try {
        await target.client.send(put);
      } catch (e) {
        // the item holds a newer batch of this query: the outcome the guard is there for
        if (classifyAwsError(e) !== 'condition-failed') throw e;
      }
    });
  });
}

async function batchWrite(
  items: readonly ItemAttributes[],
  target: ItemWriteTarget,
): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITE_ITEMS) {
    chunks.push(
      items.slice(i, i + BATCH_WRITE_ITEMS).map((item) => ({ PutRequest: { Item: item } })),
    );
  }
  await forEachConcurrently(chunks, target.concurrency, (chunk) => writeChunk(chunk, target));
}

/** One BatchWriteItem request, and the items DynamoDB left unprocessed again, with backoff. */
async function writeChunk(chunk: WriteRequest[], target: ItemWriteTarget): Promise<void> {
  let pending = chunk;
  for (let attempt = 1; ; attempt++) {
    const request = new BatchWriteItemCommand({ RequestItems: { [target.tableName]: pending } });
    const result = await withRetries(`write ${pending.length} items`, target, () =>
      target.client.send(request),
    );
    pending = result.UnprocessedItems?.[target.tableName] ?? [];
    if (pending.length === 0) return;
    if (attempt === MAX_ATTEMPTS) {
      throw new SinkError(
        `${target.context}: batch ${target.batchId}: DynamoDB left ${pending.length} items unprocessed (the first is ${keyText(pending[0].PutRequest!.Item!, target)}) ${attempt} times in a row, as it does when the table's throughput is exceeded; run the batch again, and raise the table's capacity if it persists.`,
        { retriable: true },
      );
    }
    await backoff(attempt);
  }
}

/** Runs `request`, retrying failures that a later attempt can get past. */
async function withRetries<T>(
  what: string,
  target: ItemWriteTarget,
  request: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (e) {
      if (!isRetriableAwsError(classifyAwsError(e)) || attempt === MAX_ATTEMPTS) {
        throw dynamoDbSinkFailure(
          `${target.context}: batch ${target.batchId}: ${what} (attempt ${attempt})`,
          e,
        );
      }
      await backoff(attempt);
    }
  }
}

/** Exponential backoff with full jitter, so concurrent writers spread out. */
function backoff(attempt: number): Promise<void> {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/**
 * Runs `work` on every element with at most `limit` running at once. After a failure no new work
 * starts, and the call settles only when the work in flight has, so nothing is written after the
 * sink has failed the batch; it then fails with the first failure.
 */
async function forEachConcurrently<T>(
  elements: readonly T[],
  limit: number,
  work: (element: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < elements.length) {
      try {
        await work(elements[next++]);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(limit, elements.length) }, worker),
  );
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure) throw failure.reason;
}

/** An item's key attributes as short text for messages. */
function keyText(item: ItemAttributes, target: ItemWriteTarget): string {
  const text = target.keyAttributes
    .map((name) => `${name}=${JSON.stringify(item[name]?.S ?? item[name]?.N ?? null)}`)
    .join(', ');
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
