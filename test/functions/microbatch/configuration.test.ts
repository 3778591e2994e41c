/**
 * The function's configuration: what a valid environment gives, and a bad setting named in the
 * error of the cold start that reads it.
 */
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../core/index.js';
import { ENV, readConfiguration } from '../../../functions/microbatch/configuration.js';

const KAFKA = { kind: 'kafka', bootstrapServers: ['b-1.msk:9098'], topic: 'clicks' };
const DELTA = { kind: 'delta', bucket: 'lake-bucket', path: 'tables/clicks' };
const S3_FILES = { kind: 's3-files', bucket: 'landing', prefix: 'clicks/', format: 'text' };

/** A complete, valid environment with the given changes (undefined removes a variable). */
function environment(changes: Record<string, string | undefined> = {}) {
  return {
    [ENV.queryId]: 'clicks',
    [ENV.checkpointTable]: 'sluice-checkpoints',
    [ENV.stateBucket]: 'sluice-state',
    [ENV.source]: JSON.stringify(KAFKA),
    [ENV.sink]: JSON.stringify(DELTA),
    ...changes,
  };
}

describe('readConfiguration', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    [' True ', true],
    ['false', false],
    ['FALSE', false],
    ['', false],
  ])('reads SLUICE_S3_FORCE_PATH_STYLE=%j as %s, in any case', (text, expected) => {
    const config = readConfiguration(environment({ [ENV.s3ForcePathStyle]: text }));
    expect(config.s3ForcePathStyle).toBe(expected);
  });

  it('reads a valid environment, with the defaults for what it leaves out', () => {
    expect(readConfiguration(environment())).toEqual({
      queryId: 'clicks',
      checkpointTable: 'sluice-checkpoints',
      stateBucket: 'sluice-state',
      statePrefix: 'sluice',
      scheduleIntervalMs: 60_000,
      triggerIntervalMs: 60_000,
      safetyMarginMs: 5_000,
      leaseDurationMs: 30_000,
      source: {
        ...KAFKA,
        ssl: false,
        startingOffsets: 'earliest',
        failOnDataLoss: true,
        maxOffsetsPerTrigger: 100_000,
      },
      sink: DELTA,
      s3ForcePathStyle: false,
      detailedMetrics: false,
      parallelism: 1,
    });
  });

  it("publishes only the alarms' metrics unless SLUICE_DETAILED_METRICS is true", () => {
    expect(readConfiguration(environment()).detailedMetrics).toBe(false);
    const detailed = readConfiguration(environment({ [ENV.detailedMetrics]: 'true' }));
    expect(detailed.detailedMetrics).toBe(true);
    expect(() => readConfiguration(environment({ [ENV.detailedMetrics]: 'all' }))).toThrow(
      /SLUICE_DETAILED_METRICS='all' must be 'true' or 'false'/,
    );
  });

  it.each<[string, object, object]>([
    ['a Kafka source without a batch cap', KAFKA, { maxOffsetsPerTrigger: 100_000 }],
    [
      'a Kafka source with its own cap',
      { ...KAFKA, maxOffsetsPerTrigger: 5 },
      { maxOffsetsPerTrigger: 5 },
    ],
    ['an S3 files source without a batch cap', S3_FILES, { maxBytesPerTrigger: 64 * 1024 * 1024 }],
    [
      'an S3 files source with its own caps',
      { ...S3_FILES, maxBytesPerTrigger: 1_000_000, maxFilesPerTrigger: 3 },
      { maxBytesPerTrigger: 1_000_000, maxFilesPerTrigger: 3 },
    ],
  ])('bounds each batch of %s', (_, source, bound) => {
    const config = readConfiguration(environment({ [ENV.source]: JSON.stringify(source) }));
    expect(config.source).toMatchObject(bound);
  });

  it('reads every optional setting', () => {
    const source = {
      ...KAFKA,
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', secretArn: 'arn:aws:secretsmanager:x' },
      startingOffsets: 'latest',
      maxOffsetsPerTrigger: 10_000,
      minOffsetsPerTrigger: 100,
      maxTriggerDelay: '5 minutes',
      failOnDataLoss: false,
    };
    const config = readConfiguration(
      environment({
        [ENV.statePrefix]: 'queries',
        [ENV.scheduleInterval]: '1 minute',
        [ENV.triggerInterval]: '10 seconds',
        [ENV.safetyMarginMs]: '3000',
        [ENV.leaseDurationMs]: '10000',
        [ENV.source]: JSON.stringify(source),
        [ENV.sink]: JSON.stringify({ ...DELTA, partitionBy: ['category'] }),
        [ENV.s3ForcePathStyle]: 'true',
      }),
    );
    expect(config).toMatchObject({
      statePrefix: 'queries',
      scheduleIntervalMs: 60_000,
      triggerIntervalMs: 10_000,
      safetyMarginMs: 3_000,
      leaseDurationMs: 10_000,
      source,
      sink: { ...DELTA, partitionBy: ['category'] },
      s3ForcePathStyle: true,
    });
  });

  it.each([
    [ENV.queryId, { [ENV.queryId]: undefined }, /needs the environment variable SLUICE_QUERY_ID/],
    [ENV.queryId, { [ENV.queryId]: 'query#1' }, /SLUICE_QUERY_ID='query#1' is invalid/],
    [ENV.checkpointTable, { [ENV.checkpointTable]: ' ' }, /SLUICE_CHECKPOINT_TABLE/],
    [ENV.stateBucket, { [ENV.stateBucket]: undefined }, /SLUICE_STATE_BUCKET/],
    [ENV.stateBucket, { [ENV.stateBucket]: 'State_Bucket' }, /SLUICE_STATE_BUCKET=.*bucket name/],
    [ENV.queryId, { [ENV.queryId]: '.' }, /SLUICE_QUERY_ID='\.' is invalid/],
    [ENV.queryId, { [ENV.queryId]: '..' }, /SLUICE_QUERY_ID='\.\.' is invalid/],
    [ENV.statePrefix, { [ENV.statePrefix]: '/sluice' }, /SLUICE_STATE_PREFIX=.*leading slash/],
    [
      ENV.statePrefix,
      { [ENV.statePrefix]: '../../etc' },
      /SLUICE_STATE_PREFIX='\.\.\/\.\.\/etc' is invalid/,
    ],
    [
      ENV.statePrefix,
      { [ENV.statePrefix]: 'x/' },
      /SLUICE_STATE_PREFIX='x\/' is invalid: it ends with '\/'/,
    ],
    [ENV.scheduleInterval, { [ENV.scheduleInterval]: 'hourly' }, /SLUICE_SCHEDULE_INTERVAL=/],
    [ENV.triggerInterval, { [ENV.triggerInterval]: '10 sekunds' }, /SLUICE_TRIGGER_INTERVAL=/],
    [
      ENV.triggerInterval,
      { [ENV.triggerInterval]: '5 minutes' },
      /SLUICE_TRIGGER_INTERVAL \(300000 ms\) is longer than SLUICE_SCHEDULE_INTERVAL \(60000 ms\)/,
    ],
    [ENV.safetyMarginMs, { [ENV.safetyMarginMs]: '-1' }, /SLUICE_SAFETY_MARGIN_MS='-1'/],
    [
      ENV.leaseDurationMs,
      { [ENV.leaseDurationMs]: '500' },
      /SLUICE_LEASE_MS='500' is too short for a batch to renew the lease/,
    ],
    [ENV.source, { [ENV.source]: undefined }, /needs the environment variable SLUICE_SOURCE/],
    [ENV.source, { [ENV.source]: '{kind: kafka}' }, /SLUICE_SOURCE is not valid JSON/],
    [ENV.source, { [ENV.source]: '{"kind":"ftp"}' }, /SLUICE_SOURCE is invalid: kind: /],
    [
      ENV.source,
      { [ENV.source]: JSON.stringify({ ...KAFKA, bootstrapServers: [] }) },
      /SLUICE_SOURCE is invalid: bootstrapServers: /,
    ],
    [
      ENV.source,
      { [ENV.source]: JSON.stringify({ ...KAFKA, maxOffsetsPerTrigger: 0 }) },
      /SLUICE_SOURCE is invalid: maxOffsetsPerTrigger: /,
    ],
    [
      ENV.source,
      { [ENV.source]: JSON.stringify({ ...S3_FILES, maxBytesPerTrigger: '64m' }) },
      /SLUICE_SOURCE is invalid: maxBytesPerTrigger: /,
    ],
    [
      ENV.source,
      { [ENV.source]: JSON.stringify({ ...S3_FILES, maxBytesPerTrigger: 0 }) },
      /SLUICE_SOURCE is invalid: maxBytesPerTrigger: /,
    ],
    [
      ENV.source,
      { [ENV.source]: JSON.stringify({ ...KAFKA, sasl: { mechanism: 'plain' } }) },
      /SLUICE_SOURCE is invalid: sasl.secretArn: /,
    ],
    [
      ENV.sink,
      { [ENV.sink]: JSON.stringify({ ...DELTA, path: '/tables/clicks' }) },
      /SLUICE_SINK is invalid: path: must not start with "\/"/,
    ],
    [
      ENV.sink,
      { [ENV.sink]: JSON.stringify({ ...DELTA, bucket: 's3://lake' }) },
      /SLUICE_SINK is invalid: bucket: must be an S3 bucket name/,
    ],
    [
      ENV.sink,
      { [ENV.sink]: JSON.stringify({ ...DELTA, partitionBy: ['a,b'] }) },
      /SLUICE_SINK is invalid: partitionBy.0: a column name with "," cannot be given to the sink/,
    ],
    [
      ENV.sink,
      { [ENV.sink]: JSON.stringify({ ...DELTA, partitonBy: ['category'] }) },
      /SLUICE_SINK is invalid: \(root\): unknown key "partitonBy"; correct the spelling or remove it/,
    ],
    [
      ENV.source,
      {
        [ENV.source]: JSON.stringify({
          ...KAFKA,
          maxOffsetPerTrigger: 10,
          startingOffset: 'latest',
        }),
      },
      /SLUICE_SOURCE is invalid: \(root\): unknown keys "maxOffsetPerTrigger", "startingOffset"/,
    ],
    [
      ENV.source,
      {
        [ENV.source]: JSON.stringify({
          ...KAFKA,
          sasl: { mechanism: 'plain', secretArn: 'arn:x', secretArm: 'arn:y' },
        }),
      },
      /SLUICE_SOURCE is invalid: sasl: unknown key "secretArm"/,
    ],
    [
      ENV.s3ForcePathStyle,
      { [ENV.s3ForcePathStyle]: 'yes' },
      /SLUICE_S3_FORCE_PATH_STYLE='yes' must be 'true' or 'false'/,
    ],
    [ENV.s3ForcePathStyle, { [ENV.s3ForcePathStyle]: '1' }, /SLUICE_S3_FORCE_PATH_STYLE='1'/],
  ])('names %s when it is missing or invalid (%o)', (_, changes, message) => {
    const read = () => readConfiguration(environment(changes));
    expect(read).toThrow(InvalidOptionError);
    expect(read).toThrow(message);
  });
});
