/**
 * The key of the item a result row is written to: which output columns make up the table's
 * partition key and sort key attributes, checked against the table when the query starts, and how
 * their values become key attribute values.
 *
 * - A key attribute of type N is made of one numeric, timestamp (microseconds since the epoch) or date
 *   (days since the epoch) column.
 * - A key attribute of type S is made of one or more columns, as text joined by `#`: strings as they
 *   are, numbers and booleans as JavaScript prints them, timestamps as ISO 8601 with microseconds
 *   (`2026-01-01T10:00:00.000000Z`, so text order is time order), dates as `2026-01-01`, binary as
 *   base64, and structs as their fields joined by `/` (a window reads as an ISO interval,
 *   `2026-01-01T10:00:00.000000Z/2026-01-01T10:10:00.000000Z`). Null is `\N`, and a single empty
 *   string (which DynamoDB refuses in a key) is `\E`; so that different keys never share a text, a
 *   `\` in a value is escaped as `\\`, and in a key of several parts (columns, struct fields) so
 *   are `#` and `/`. A key of one string column is thus that string unless it holds a `\`.
 * - Without key columns, append mode keys a row by its position: the query's id, the batch id and
 *   the row's sequence number in the batch. A batch that is run again produces the same rows in the
 *   same order, so its items land on the same keys. With a sort key the partition key is
 *   `<queryId>#<batchId>` and the sort key the sequence number; else the partition key is
 *   `<queryId>#<batchId>#<seq>`.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { sortableId } from '../checkpoint/sortable-id.js';
import { InvalidOptionError, SinkError } from '../errors.js';
import type { DataType, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { formatDate } from '../types/timestamp-text.js';
import { isoTimestamp, type ItemAttributes } from './dynamodb-item-codec.js';

/** The scalar types a key attribute can have (binary keys are not supported). */
export type KeyAttributeType = 'S' | 'N';

/** A key attribute of the table, and the output columns it is made of (none: the row's position). */
export interface KeyAttributeLayout {
  readonly attribute: string;
  readonly type: KeyAttributeType;
  readonly columns: readonly string[];
}

/** The table's key: its partition key attribute and its sort key attribute, if it has one. */
export interface ItemKeyLayout {
  readonly partition: KeyAttributeLayout;
  readonly sort?: KeyAttributeLayout;
}

/** Where a row stands: what position keys are made of. */
export interface RowPosition {
  readonly queryId: string;
  readonly batchId: number;
  readonly seq: number;
}

/** A key attribute as the table defines it. */
export interface TableKeyAttribute {
  readonly attribute: string;
  readonly type: string;
}

/** What the user asked for one key attribute: its name and columns, each optional. */
export interface KeyAttributeRequest {
  readonly attribute?: string;
  readonly columns?: readonly string[];
}

/** Everything that decides the key layout when a query starts. */
export interface KeyLayoutRequest {
  /** Names the sink and the table in messages. */
  readonly context: string;
  readonly schema: StructType;
  readonly table: { readonly partition: TableKeyAttribute; readonly sort?: TableKeyAttribute };
  readonly partitionKey: KeyAttributeRequest;
  readonly sortKey?: KeyAttributeRequest;
  /** The columns that identify a result row: given by the user, or an aggregation's grouping keys. */
  readonly keyColumns?: readonly string[];
  /** An aggregation's grouping keys, which the key must include whatever the user gave. */
  readonly groupingKeys?: readonly string[];
  /** True in append mode, where rows without key columns are keyed by their position. */
  readonly positionKeysAllowed: boolean;
}

/**
 * Decides which columns make up each key attribute (see the module doc), or fails with a message
 * naming the table, the attribute and the option to set.
 */
export function itemKeyLayout(request: KeyLayoutRequest): ItemKeyLayout {
  const { context, table, schema } = request;
  checkAttributeName('partitionKey', request.partitionKey, table.partition, context);
  if (request.sortKey && !table.sort) {
    throw new InvalidOptionError(
      `${context}: option sortKey is given, but the table has no sort key; leave sortKey out.`,
    );
  }
  if (table.sort) checkAttributeName('sortKey', request.sortKey ?? {}, table.sort, context);
  const resolve = (names: readonly string[] | undefined, option: string) =>
    names?.map((n) => columnName(schema, n, option, context));
  const keyColumns = resolve(request.keyColumns, 'keyColumns');
  const split = splitColumns(
    request,
    keyColumns,
    resolve(request.partitionKey.columns, 'partitionKey.columns'),
    resolve(request.sortKey?.columns, 'sortKey.columns'),
  );
  const layout: ItemKeyLayout = {
    partition: attributeLayout('partition', table.partition, split.partition, schema, context),
    ...(table.sort
      ? { sort: attributeLayout('sort', table.sort, split.sort, schema, context) }
      : {}),
  };
  const mustCover = [...(keyColumns ?? []), ...(resolve(request.groupingKeys, 'keyColumns') ?? [])];
  checkCovers(layout, [...new Set(mustCover)], context);
  return layout;
}

/** Builds the key attributes of each row, `layout` having been checked against `schema`. */
export function keyEncoder(
  layout: ItemKeyLayout,
  schema: StructType,
  context: string,
): (row: Row, position: RowPosition) => ItemAttributes {
  const partition = attributeEncoder(
    layout.partition,
    schema,
    layout.sort ? 'batch' : 'row',
    context,
  );
  const sort = layout.sort && attributeEncoder(layout.sort, schema, 'seq', context);
  return (row, position) => {
    const key: ItemAttributes = { [layout.partition.attribute]: partition(row, position) };
    if (sort) key[layout.sort!.attribute] = sort(row, position);
    return key;
  };
}

function checkAttributeName(
  option: string,
  requested: KeyAttributeRequest,
  actual: TableKeyAttribute,
  context: string,
): void {
  if (requested.attribute !== undefined && requested.attribute !== actual.attribute) {
    throw new InvalidOptionError(
      `${context}: option ${option} names attribute '${requested.attribute}', but the table's ${option === 'sortKey' ? 'sort' : 'partition'} key is '${actual.attribute}'; name that attribute or leave it out.`,
    );
  }
}

/** The output field a (case-insensitive) column name refers to. */
function columnName(schema: StructType, name: string, option: string, context: string): string {
  const found =
    schema.fields.find((f) => f.name === name) ??
    schema.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
  if (!found) {
    throw new InvalidOptionError(
      `${context}: option ${option} names column '${name}', which the query's output does not have; its columns are ${schema.fields.map((f) => f.name).join(', ')}.`,
    );
  }
  return found.name;
}

/** Which columns go to the partition key and to the sort key; empty lists mean position keys. */
function splitColumns(
  request: KeyLayoutRequest,
  keyColumns: readonly string[] | undefined,
  partition: readonly string[] | undefined,
  sort: readonly string[] | undefined,
): { partition: readonly string[]; sort: readonly string[] } {
  const { context, table } = request;
  const rest = (taken: readonly string[]) => (keyColumns ?? []).filter((c) => !taken.includes(c));
  if (!table.sort) {
    const columns = partition ?? keyColumns ?? [];
    if (columns.length === 0) return noKeyColumns(request);
    return { partition: columns, sort: [] };
  }
  const given =
    partition && sort
      ? { partition, sort }
      : partition
        ? { partition, sort: rest(partition) }
        : sort && { partition: rest(sort), sort };
  if (given) {
    const empty =
      given.partition.length === 0
        ? 'partitionKey'
        : given.sort.length === 0
          ? 'sortKey'
          : undefined;
    if (empty === undefined) return given;
    throw new InvalidOptionError(
      `${context}: the ${empty === 'sortKey' ? 'sort' : 'partition'} key would be made of no column; name its columns with the option ${empty}.columns.`,
    );
  }
  if (!keyColumns || keyColumns.length === 0) return noKeyColumns(request);
  if (keyColumns.length === 1) {
    throw new InvalidOptionError(
      `${context}: the table has a partition key and a sort key, but the only key column is '${keyColumns[0]}'; name the columns of each with the options partitionKey.columns and sortKey.columns.`,
    );
  }
  // the last key column (a window, say, after groupBy(category, window)) sorts within the others
  return { partition: keyColumns.slice(0, -1), sort: keyColumns.slice(-1) };
}

/** Position keys in append mode; otherwise the user must name the key columns. */
function noKeyColumns(request: KeyLayoutRequest): { partition: []; sort: [] } {
  if (request.positionKeysAllowed) return { partition: [], sort: [] };
  throw new InvalidOptionError(
    `${request.context}: in update and complete mode every result row is upserted by its key, but the query has no grouping keys; name the columns that identify a row with the option keyColumns.`,
  );
}

function attributeLayout(
  role: 'partition' | 'sort',
  table: TableKeyAttribute,
  columns: readonly string[],
  schema: StructType,
  context: string,
): KeyAttributeLayout {
  const where = `${context}, key attribute '${table.attribute}'`;
  if (table.type !== 'S' && table.type !== 'N') {
    throw new InvalidOptionError(
      `${where} has type ${table.type}; the sink writes keys of type S (string) or N (number), so use a table with such keys.`,
    );
  }
  const layout: KeyAttributeLayout = { attribute: table.attribute, type: table.type, columns };
  if (columns.length === 0) {
    if (role === 'sort' || table.type === 'S') return layout;
    throw new InvalidOptionError(
      `${where} has type N, but without key columns rows are keyed by their position, whose partition key is text; name the key columns with the option keyColumns, or use a table whose partition key has type S.`,
    );
  }
  const unkeyable = columns.find((c) => !keyableType(fieldType(schema, c)));
  if (unkeyable !== undefined) {
    throw new InvalidOptionError(
      `${where}: column ${unkeyable} is of a type a key cannot hold (arrays and maps are not keys); choose other key columns.`,
    );
  }
  if (
    table.type === 'N' &&
    (columns.length !== 1 || !numericKeyType(fieldType(schema, columns[0])))
  ) {
    throw new InvalidOptionError(
      `${where} has type N, so it must be made of exactly one int, long, double, timestamp or date column, not of ${columns.join(', ')}; use a table whose key has type S, or name one numeric column.`,
    );
  }
  return layout;
}

/** Every column that identifies a row must be part of the key, or different rows share an item. */
function checkCovers(layout: ItemKeyLayout, keyColumns: readonly string[], context: string): void {
  const used = [...layout.partition.columns, ...(layout.sort?.columns ?? [])];
  const missing = keyColumns.filter((c) => !used.includes(c));
  if (missing.length > 0) {
    throw new InvalidOptionError(
      `${context}: ${missing.length > 1 ? 'columns' : 'column'} ${missing.join(', ')} ${missing.length > 1 ? 'identify' : 'identifies'} result rows but ${missing.length > 1 ? 'are' : 'is'} not part of the item's key, so different rows would be written to the same item; include ${missing.length > 1 ? 'them' : 'it'} in keyColumns (or in partitionKey.columns or sortKey.columns).`,
    );
  }
  const repeated = used.filter((c, i) => used.indexOf(c) !== i);
  if (repeated.length > 0) {
    throw new InvalidOptionError(
      `${context}: column ${repeated[0]} is named twice in partitionKey.columns and sortKey.columns; name each key column once.`,
    );
  }
}

function attributeEncoder(
  layout: KeyAttributeLayout,
  schema: StructType,
  position: PositionPart,
  context: string,
): (row: Row, position: RowPosition) => AttributeValue {
  if (layout.columns.length === 0) return positionEncoder(layout.type, position);
  const indexes = layout.columns.map((c) => schema.fields.findIndex((f) => f.name === c));
  if (layout.type === 'N') {
    const [index] = indexes;
    return (row) => {
      const value = row[index];
      if (value === null || value === undefined) {
        throw new SinkError(
          `${context}: a row has null in column ${layout.columns[0]}, which makes up the number key attribute '${layout.attribute}'; DynamoDB keys cannot be null. Filter such rows out, or use a table whose key has type S.`,
        );
      }
      return { N: String(value) };
    };
  }
  const composite = indexes.length > 1 || schema.fields[indexes[0]].dataType.kind === 'struct';
  const escape = composite ? escapeParts : escapeMarkers;
  const parts = indexes.map((i) => partText(schema.fields[i].dataType, escape));
  return (row) => {
    const text = indexes.map((index, i) => parts[i](row[index])).join('#');
    return { S: text === '' ? '\\E' : text };
  };
}

/**
 * Which part of a row's position a key attribute holds: all of it (a partition key alone), the batch
 * (a partition key with a sort key), or the sequence number (that sort key).
 */
type PositionPart = 'row' | 'batch' | 'seq';

/** Position keys (see the module doc); a text sequence number is zero-padded to sort as a number. */
function positionEncoder(
  type: KeyAttributeType,
  part: PositionPart,
): (row: Row, position: RowPosition) => AttributeValue {
  switch (part) {
    case 'row':
      return (_, p) => ({ S: `${p.queryId}#${p.batchId}#${p.seq}` });
    case 'batch':
      return (_, p) => ({ S: `${p.queryId}#${p.batchId}` });
    case 'seq':
      return type === 'N' ? (_, p) => ({ N: String(p.seq) }) : (_, p) => ({ S: sortableId(p.seq) });
  }
}

/** One column's value as key text; escaping keeps the `#` and `/` separators unambiguous. */
function partText(type: DataType, escape: (text: string) => string): (value: unknown) => string {
  if (type.kind === 'struct') {
    const fields = type.fields.map((f) => partText(f.dataType, escape));
    return (v) =>
      v === null || v === undefined
        ? '\\N'
        : fields.map((text, i) => text((v as Row)[i])).join('/');
  }
  const scalar = scalarText(type);
  return (v) => (v === null || v === undefined ? '\\N' : escape(scalar(v)));
}

function scalarText(type: DataType): (value: unknown) => string {
  switch (type.kind) {
    case 'timestamp':
      return (v) => isoTimestamp(v as number);
    case 'date':
      return (v) => formatDate(v as number);
    case 'binary':
      return (v) => Buffer.from(v as Uint8Array).toString('base64');
    default:
      return (v) => String(v);
  }
}

/** In a key of one part only the backslash needs escaping: `\N` and `\E` stay unambiguous. */
function escapeMarkers(text: string): string {
  return text.replace(/\\/g, '\\\\');
}

/** In a key of several parts the separators are escaped as well. */
function escapeParts(text: string): string {
  return text.replace(/[\\#/]/g, (c) => `\\${c}`);
}

function keyableType(type: DataType): boolean {
  if (type.kind === 'struct') return type.fields.every((f) => keyableType(f.dataType));
  return type.kind !== 'array' && type.kind !== 'map';
}

function numericKeyType(type: DataType): boolean {
  return ['int', 'long', 'double', 'timestamp', 'date'].includes(type.kind);
}

function fieldType(schema: StructType, name: string): DataType {
  return schema.fields.find((f) => f.name === name)!.dataType;
}
