/**
 * DynamoDbSink: writes each batch's result rows as items of a DynamoDB table, with an exactly-once
 * effect (docs/architecture.md section 4).
 *
 * Exactly-once rests on keys, not on a log: every result row goes to the item its key columns name
 * (dynamodb-item-key.ts), so writing a batch again writes the same values to the same items.
 * - update and complete mode upsert each row by key: after batch N the table holds the query's
 *   result as of N (complete mode's rows all; update mode's changed rows on top of the earlier ones).
 * - append mode puts each final row by key too; without key columns, by its position in the batch.
 * Every item also carries the query's id and the batch id that wrote it (attributes `queryId` and
 * `batchId` unless renamed), and each put is guarded so that an older batch of the same query never
 * overwrites a newer one: invocations may be duplicated, and one that lost its lease can still reach
 * the sink after another committed later batches (dynamodb-item-writes.ts has the condition, and why
 * puts rather than BatchWriteItem or TransactWriteItems).
 *
 * Within a batch, rows with the same key are written once, the last one winning, as applying them in
 * order would leave the item. Rows become attributes as dynamodb-item-codec.ts describes; null
 * columns are left out of the item.
 *
 * The sink is built with an SDK client (`writeStream.sink(new DynamoDbSink({client, tableName}))`),
 * or by `writeStream.format('dynamodb').option('tableName', ...)`, whose client comes from the
 * session's `dynamoDbSinks` (dynamodb-sinks.ts; the writer itself knows no AWS SDK).
 * When the query starts, the sink reads the table's key schema (DescribeTable) and checks the key
 * layout and the output's columns against it, so a mismatch fails the start, not a batch.
 */
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { InvalidOptionError, SinkError } from '../errors.js';
import { openedSink, type OutputMode, type Sink, type SinkContext } from '../sinks/sink.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { classifyAwsError } from './aws-error.js';
import {
  type DynamoDbTimestampFormat,
  type ItemAttributes,
  rowEncoder,
} from './dynamodb-item-codec.js';
import {
  type ItemKeyLayout,
  itemKeyLayout,
  keyEncoder,
  type RowPosition,
  type TableKeyAttribute,
} from './dynamodb-item-key.js';
import {
  dynamoDbSinkFailure,
  type DynamoDbWriteMethod,
  writeItems,
} from './dynamodb-item-writes.js';

/** A key attribute of the table: its name (checked against the table) and the columns it is made of. */
export interface DynamoDbKeyAttribute {
  /** The attribute's name. @default the table's */
  readonly attribute?: string;
  /** The output columns whose values make it up, in order. @default see DynamoDbSinkOptions */
  readonly columns?: readonly string[];
}

/** Options of a {@link DynamoDbSink}. */
export interface DynamoDbSinkOptions {
  /** The client to write with; the sink never destroys it. */
  readonly client: DynamoDBClient;
  /** The table; it must exist when the query starts, with a key of type S or N. */
  readonly tableName: string;
  /**
   * The table's partition key: its attribute name, or the name and the columns it is made of.
   * @default the table's partition key, made of the key columns (all of them, or all but the last
   * when the table has a sort key)
   */
  readonly partitionKey?: string | DynamoDbKeyAttribute;
  /**
   * The table's sort key, if it has one: its attribute name, or the name and the columns it is made
   * of.
   * @default the table's sort key, made of the key columns the partition key does not take (the last
   * one unless partitionKey names its columns)
   */
  readonly sortKey?: string | DynamoDbKeyAttribute;
  /**
   * The output columns that identify a result row; each must be part of the key.
   * @default an aggregation's grouping keys; required in update and complete mode without one
   */
  readonly keyColumns?: readonly string[];
  /** How timestamps are written: `iso8601` text or `epochMicros` numbers. @default 'iso8601' */
  readonly timestampFormat?: DynamoDbTimestampFormat;
  /**
   * `guardedPut`: conditional PutItem per item, so an older batch never overwrites a newer one;
   * `batchWrite`: BatchWriteItem, 25 items a request, unguarded (see dynamodb-item-writes.ts).
   * @default 'guardedPut'
   */
  readonly writeMethod?: DynamoDbWriteMethod;
  /** Requests in flight at once. @default 16 */
  readonly maxConcurrentWrites?: number;
  /** The attribute that holds the id of the batch that wrote an item. @default 'batchId' */
  readonly batchIdAttribute?: string;
  /** The attribute that holds the id of the query that wrote an item. @default 'queryId' */
  readonly queryIdAttribute?: string;
  /**
   * The query id the guard compares; it must stand for one checkpoint, since batch ids restart with a
   * new one.
   * @default the id of the query that opens the sink (kept in its checkpoint)
   */
  readonly queryId?: string;
}

/** The default number of requests in flight. */
export const DEFAULT_MAX_CONCURRENT_WRITES = 16;

/** What `open` settles for every batch: the query, the key layout and the row converters. */
interface OpenedSink {
  readonly queryId: string;
  readonly layout: ItemKeyLayout;
  readonly encodeRow: (row: Row) => ItemAttributes;
  readonly encodeKey: (row: Row, position: RowPosition) => ItemAttributes;
}

/** Writes each batch's rows as items of a DynamoDB table. */
export class DynamoDbSink implements Sink {
  readonly description: string;
  private readonly timestampFormat: DynamoDbTimestampFormat;
  private readonly writeMethod: DynamoDbWriteMethod;
  private readonly concurrency: number;
  private readonly batchIdAttribute: string;
  private readonly queryIdAttribute: string;
  private tableKey: { partition: TableKeyAttribute; sort?: TableKeyAttribute } | undefined;
  private opened: OpenedSink | undefined;

  constructor(private readonly options: DynamoDbSinkOptions) {
    this.description = `DynamoDbSink[${nonEmpty('tableName', options.tableName)}]`;
    this.timestampFormat = oneOf('timestampFormat', options.timestampFormat ?? 'iso8601', [
      'iso8601',
      'epochMicros',
    ]);
    this.writeMethod = oneOf('writeMethod', options.writeMethod ?? 'guardedPut', [
      'guardedPut',
      'batchWrite',
    ]);
    const concurrency = options.maxConcurrentWrites ?? DEFAULT_MAX_CONCURRENT_WRITES;
    if (!Number.isInteger(concurrency) || concurrency <= 0) {
      throw new InvalidOptionError(
        `DynamoDbSink option maxConcurrentWrites must be a positive integer, got ${concurrency}.`,
      );
    }
    this.concurrency = concurrency;
    this.batchIdAttribute = nonEmpty('batchIdAttribute', options.batchIdAttribute ?? 'batchId');
    this.queryIdAttribute = nonEmpty('queryIdAttribute', options.queryIdAttribute ?? 'queryId');
    if (options.queryId !== undefined) nonEmpty('queryId', options.queryId);
  }

  /** Reads the table's key schema and settles how rows become items; fails on any mismatch. */
  async open(context: SinkContext): Promise<void> {
    this.tableKey ??= await this.describeTableKey();
    const layout = itemKeyLayout({
      context: this.description,
      schema: context.schema,
      table: this.tableKey,
      partitionKey: keyAttributeRequest(this.options.partitionKey),
      sortKey:
        this.options.sortKey === undefined ? undefined : keyAttributeRequest(this.options.sortKey),
      keyColumns: this.options.keyColumns ?? context.keyColumns,
      groupingKeys: context.keyColumns,
      positionKeysAllowed: context.outputMode === 'append',
    });
    this.checkAttributeNames(context.schema, layout);
    this.opened = {
      queryId: this.options.queryId ?? context.queryId,
      layout,
      encodeRow: rowEncoder(context.schema, this.timestampFormat, this.description),
      encodeKey: keyEncoder(layout, context.schema, this.description),
    };
  }

  /** Writes the rows of batch `batchId`, each to the item of its key (see the module doc). */
  async addBatch(
    batchId: number,
    rows: readonly Row[],
    _schema: StructType,
    _outputMode: OutputMode,
  ): Promise<void> {
    const opened = openedSink(this.opened, { sink: this.description, batchId });
    await writeItems(this.writeMethod, this.items(opened, batchId, rows), {
      client: this.options.client,
      tableName: this.options.tableName,
      context: this.description,
      queryId: opened.queryId,
      batchId,
      queryIdAttribute: this.queryIdAttribute,
      batchIdAttribute: this.batchIdAttribute,
      keyAttributes: [
        opened.layout.partition.attribute,
        ...(opened.layout.sort ? [opened.layout.sort.attribute] : []),
      ],
      concurrency: this.concurrency,
    });
  }

  /** The batch's items, one per key: a later row with the same key replaces an earlier one. */
  private items(opened: OpenedSink, batchId: number, rows: readonly Row[]): ItemAttributes[] {
    const writer = {
      [this.queryIdAttribute]: { S: opened.queryId },
      [this.batchIdAttribute]: { N: String(batchId) },
    };
    const byKey = new Map<string, ItemAttributes>();
    rows.forEach((row, seq) => {
      const key = opened.encodeKey(row, { queryId: opened.queryId, batchId, seq });
      byKey.set(JSON.stringify(Object.values(key)), {
        ...opened.encodeRow(row),
        ...key,
        ...writer,
      });
    });
    return [...byKey.values()];
  }

  /** The table's partition and sort key attributes with their types. */
  private async describeTableKey(): Promise<{
    partition: TableKeyAttribute;
    sort?: TableKeyAttribute;
  }> {
    const { client, tableName } = this.options;
    let table;
    try {
      table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    } catch (e) {
      if (classifyAwsError(e) === 'missing-resource') {
        throw new SinkError(
          `${this.description}: table ${tableName} does not exist; create it (a partition key of type S suits most queries) before starting the query, or fix tableName, region and endpoint.`,
          { cause: e },
        );
      }
      throw dynamoDbSinkFailure(`${this.description}: describe table ${tableName}`, e);
    }
    const attribute = (keyType: 'HASH' | 'RANGE'): TableKeyAttribute | undefined => {
      const name = table?.KeySchema?.find((k) => k.KeyType === keyType)?.AttributeName;
      if (name === undefined) return undefined;
      const type = table?.AttributeDefinitions?.find(
        (d) => d.AttributeName === name,
      )?.AttributeType;
      return { attribute: name, type: type ?? 'unknown' };
    };
    const partition = attribute('HASH');
    if (!partition) {
      throw new SinkError(
        `${this.description}: DescribeTable returned no partition key for table ${tableName}.`,
      );
    }
    const sort = attribute('RANGE');
    return sort ? { partition, sort } : { partition };
  }

  /**
   * A column may share its name with a key attribute only if it is that attribute's one column (the
   * key then stands for it), and never with the writer attributes.
   */
  private checkAttributeNames(schema: StructType, layout: ItemKeyLayout): void {
    const keys = [layout.partition, ...(layout.sort ? [layout.sort] : [])];
    for (const writer of [this.batchIdAttribute, this.queryIdAttribute]) {
      if (
        schema.fields.some((f) => f.name === writer) ||
        keys.some((k) => k.attribute === writer)
      ) {
        const option = writer === this.batchIdAttribute ? 'batchIdAttribute' : 'queryIdAttribute';
        throw new InvalidOptionError(
          `${this.description}: the sink records the writing batch in attribute '${writer}', which the query's output or the table's key also has; choose another name with the option ${option}.`,
        );
      }
    }
    for (const key of keys) {
      const clash = schema.fields.some((f) => f.name === key.attribute);
      if (clash && !(key.columns.length === 1 && key.columns[0] === key.attribute)) {
        throw new InvalidOptionError(
          `${this.description}: column ${key.attribute} has the name of the key attribute '${key.attribute}', which is made of ${key.columns.length ? key.columns.join(', ') : "the row's position"}; rename the column (alias) or make the key of that column alone.`,
        );
      }
    }
  }
}

function keyAttributeRequest(
  given: string | DynamoDbKeyAttribute | undefined,
): DynamoDbKeyAttribute {
  return typeof given === 'string' ? { attribute: given } : (given ?? {});
}

function nonEmpty(option: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidOptionError(
      `DynamoDbSink option ${option} must be a non-empty string, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidOptionError(
    `DynamoDbSink option ${option} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got '${value}'.`,
  );
}
