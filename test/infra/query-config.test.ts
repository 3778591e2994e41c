/**
 * Source and sink settings checked at synth with the function's schemas: defaults filled in, bad
 * settings named, and deploy-time values (tokens) passed through untouched.
 */
import { Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import { sinkConfigSchema } from '../../functions/microbatch/configuration.js';
import { parseSink, parseSource } from '../../infra/query-config.js';

describe('parseSource and parseSink', () => {
  it('fill in the defaults the function would apply', () => {
    expect(parseSource({ kind: 'kafka', bootstrapServers: ['b:9092'], topic: 'clicks' })).toEqual({
      kind: 'kafka',
      bootstrapServers: ['b:9092'],
      topic: 'clicks',
      ssl: false,
      startingOffsets: 'earliest',
      failOnDataLoss: true,
      maxOffsetsPerTrigger: 100_000,
    });
    expect(
      parseSource({ kind: 's3-files', bucket: 'landing', format: 'json', schema: 'ts TIMESTAMP' }),
    ).toEqual({
      kind: 's3-files',
      bucket: 'landing',
      prefix: '',
      format: 'json',
      schema: 'ts TIMESTAMP',
      maxBytesPerTrigger: 64 * 1024 * 1024,
    });
  });

  it("accept an S3 files source's maxBytesPerTrigger and refuse one that is not a positive integer", () => {
    const source = { kind: 's3-files', bucket: 'landing', format: 'text' } as const;
    expect(parseSource({ ...source, maxBytesPerTrigger: 8_000_000 })).toMatchObject({
      maxBytesPerTrigger: 8_000_000,
    });
    expect(() => parseSource({ ...source, maxBytesPerTrigger: -1 })).toThrow(
      /source\.maxBytesPerTrigger/,
    );
  });

  it('name the setting that is wrong', () => {
    expect(() => parseSink({ kind: 'delta', bucket: 'Not_A_Bucket', path: 'tables/t' })).toThrow(
      /sink\.bucket/,
    );
    expect(() => parseSource({ kind: 'kafka', bootstrapServers: [], topic: 'clicks' })).toThrow(
      InvalidOptionError,
    );
    expect(() => parseSource({ kind: 'kafka', bootstrapServers: [], topic: 'clicks' })).toThrow(
      /source\.bootstrapServers/,
    );
  });

  it('refuse a key the function does not define, as the function does', () => {
    const typo = { kind: 'delta', bucket: 'lake', path: 'tables/t', partitonBy: ['category'] };
    expect(() => parseSink(typo as Parameters<typeof parseSink>[0])).toThrow(
      /The sink configuration is invalid: sink: unknown key "partitonBy"/,
    );
  });

  it('pass a bucket created in the same stack (a token) through to deploy time', () => {
    const stack = new Stack();
    const bucket = new s3.Bucket(stack, 'Lake');
    const sink = parseSink({ kind: 'delta', bucket: bucket.bucketName, path: 'tables/t' });
    expect(sink).toEqual({ kind: 'delta', bucket: bucket.bucketName, path: 'tables/t' });
    const json = stack.resolve(stack.toJsonString(sink));
    expect(JSON.stringify(json)).toContain(
      stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket),
    );
  });

  it('produce JSON the function parses to the same configuration', () => {
    const sink = parseSink({ kind: 'files', bucket: 'lake', path: 'out', format: 'json' });
    expect(sinkConfigSchema.parse(JSON.parse(JSON.stringify(sink)))).toEqual(sink);
  });
});
