/**
 * The function's sink configuration as the writer's format and options: every sink kind maps to the
 * options the sink registry names, the writer accepts them, and the writer's option checks now apply
 * to the function's sinks as to any query's.
 */
import { describe, expect, it } from 'vitest';
import { clickstreamQuery } from '../../../examples/clickstream-query.js';
import { SluiceSession } from '../../../core/index.js';
import { dynamoDbSinks, s3ObjectStores } from '../../../core/aws/index.js';
import type { SinkConfig } from '../../../functions/microbatch/configuration.js';
import { sinkWriterOptions } from '../../../functions/microbatch/sink-writer-options.js';
import { MemoryObjectStore } from '../../../core/checkpoint/memory-object-store.js';
import { FileCheckpointStore } from '../../../core/checkpoint/file-checkpoint-store.js';

const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:kafka-clicks-AbCdEf';
const KAFKA = { bootstrapServers: ['b-1:9092', 'b-2:9092'], topic: 'counts', ssl: true };

/** The clickstream query written with `sink`'s writer settings, checked as the function checks it. */
function check(sink: SinkConfig) {
  const session = new SluiceSession({
    objectStores: { s3: s3ObjectStores({ region: 'us-east-1' }) },
    dynamoDbSinks: dynamoDbSinks({ region: 'us-east-1' }),
  });
  const input = session.readStream.format('kafka').optionsFrom({
    'kafka.bootstrap.servers': 'b-1:9092',
    subscribe: 'clicks',
  });
  const { format, options } = sinkWriterOptions(sink);
  const store = new MemoryObjectStore();
  return clickstreamQuery
    .query(input.load(), session)
    .writeStream.format(format)
    .optionsFrom(options)
    .outputMode(clickstreamQuery.outputMode)
    .checkpoint({ checkpoint: new FileCheckpointStore(store), stateObjects: store })
    .check();
}

describe('sinkWriterOptions', () => {
  it.each<[string, SinkConfig, { format: string; options: Record<string, string> }]>([
    [
      'a Delta table, its partition columns comma-separated',
      { kind: 'delta', bucket: 'lake', path: 'tables/clicks', partitionBy: ['category'] },
      { format: 'delta', options: { path: 's3://lake/tables/clicks', partitionBy: 'category' } },
    ],
    [
      'data files',
      { kind: 'files', bucket: 'out', path: 'counts', format: 'parquet' },
      { format: 'parquet', options: { path: 's3://out/counts' } },
    ],
    [
      'a DynamoDB table with every key setting',
      {
        kind: 'dynamodb',
        tableName: 'counts',
        partitionKey: 'pk',
        sortKey: 'sk',
        keyColumns: ['window', 'category'],
      },
      {
        format: 'dynamodb',
        options: {
          tableName: 'counts',
          partitionKey: 'pk',
          sortKey: 'sk',
          keyColumns: 'window,category',
        },
      },
    ],
    [
      'a DynamoDB table keyed by the grouping keys',
      { kind: 'dynamodb', tableName: 'counts' },
      { format: 'dynamodb', options: { tableName: 'counts' } },
    ],
    [
      'a Kafka topic',
      { kind: 'kafka', ...KAFKA },
      {
        format: 'kafka',
        options: {
          'kafka.bootstrap.servers': 'b-1:9092,b-2:9092',
          'kafka.security.protocol': 'SSL',
          topic: 'counts',
        },
      },
    ],
  ])('gives %s as the writer names it, which the writer accepts', (_, sink, expected) => {
    expect(sinkWriterOptions(sink)).toEqual(expected);
    expect(check(sink).trigger).toEqual({ kind: 'processingTime', intervalMs: 0 });
  });

  it('gives a Kafka sink its SCRAM secret under the option name the sink reads', () => {
    const sink: SinkConfig = {
      kind: 'kafka',
      ...KAFKA,
      sasl: { mechanism: 'scram-sha-512', secretArn: SECRET },
    };
    expect(sinkWriterOptions(sink).options).toMatchObject({
      'kafka.sasl.mechanism': 'SCRAM-SHA-512',
      'kafka.sasl.secretArn': SECRET,
    });
    expect(() => check(sink)).not.toThrow();
  });
});
