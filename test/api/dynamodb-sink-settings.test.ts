/**
 * `writeStream.format('dynamodb')`'s options, checked when the query is checked, before the AWS SDK
 * is loaded: each setting read as the DynamoDB sink takes it, each bad one named.
 */
import { describe, expect, it } from 'vitest';
import { dynamoDbSinkSettings } from '../../core/api/dynamodb-sink-settings.js';
import type { OptionValue } from '../../core/api/reader-options.js';
import { InvalidOptionError } from '../../core/index.js';

/** Options keyed by lower-cased name, as the writer keeps them. */
function options(given: Record<string, OptionValue>): Map<string, OptionValue> {
  return new Map(Object.entries(given).map(([k, v]) => [k.toLowerCase(), v]));
}

describe("format('dynamodb') options", () => {
  it.each<[string, Record<string, OptionValue>, object]>([
    ['a table alone', { tableName: 'counts' }, { tableName: 'counts' }],
    [
      'every setting, trimmed, key columns split at commas',
      { tableName: ' counts ', partitionKey: 'pk', sortKey: 'sk', keyColumns: 'window, category' },
      {
        tableName: 'counts',
        partitionKey: 'pk',
        sortKey: 'sk',
        keyColumns: ['window', 'category'],
      },
    ],
    [
      "the streaming query's own options beside them",
      { tableName: 'counts', checkpointLocation: '/tmp/c', numStatePartitions: 4 },
      { tableName: 'counts' },
    ],
  ])('reads %s', (_, given, expected) => {
    expect(dynamoDbSinkSettings(options(given))).toEqual(expected);
  });

  it.each<[string, Record<string, OptionValue>, RegExp]>([
    ['no table', {}, /needs its table: option\('tableName', name\)/],
    ['a blank table', { tableName: ' ' }, /Invalid option tableName=' '/],
    ['a blank sort key', { tableName: 't', sortKey: '' }, /Invalid option sortKey=''/],
    [
      'an empty key column',
      { tableName: 't', keyColumns: 'window,,category' },
      /Invalid option keyColumns='window,,category'.*separated by commas/,
    ],
    [
      'a misspelt option',
      { tableName: 't', keyColumn: 'window' },
      /format\('dynamodb'\) refuses an option: 'keycolumn' is not an option.*tableName, partitionKey, sortKey, keyColumns/,
    ],
    [
      "an option of the sink object's",
      { tableName: 't', writeMethod: 'batchWrite' },
      /'writeMethod' is an option of the DynamoDbSink object.*writeStream\.sink\(new DynamoDbSink/,
    ],
  ])('refuses %s, naming the option', (_, given, message) => {
    const read = () => dynamoDbSinkSettings(options(given));
    expect(read).toThrow(InvalidOptionError);
    expect(read).toThrow(message);
  });
});
