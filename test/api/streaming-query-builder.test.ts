/**
 * Building a streaming query (`writeStream.check()`, which `start()` and the Lambda function begin
 * with): every setting that can be checked without I/O is checked at once, each bad one named; the
 * checkpoint is opened (and a connector's sink created) only when the checked query starts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  col,
  type DataFrame,
  type DataStreamWriter,
  InvalidOptionError,
  MemorySink,
  SluiceSession,
  UnsupportedOperationError,
} from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

/** A stream of (id, n) rows from a memory stream. */
function rows() {
  const session = new SluiceSession();
  return { df: session.readStream.memory(session.memoryStream('id STRING, n BIGINT')) };
}

const sinkObject = (df: DataFrame) => new MemorySink(df.schema, 'out');

describe('writeStream.check()', () => {
  it.each<[string, (w: DataStreamWriter, df: DataFrame) => DataStreamWriter, RegExp]>([
    ['a file sink without a location', (w) => w.format('json'), /json sink needs a location/],
    [
      'a Delta option Sluice does not implement',
      (w) => w.format('delta').option('path', tempDir()).option('mergeSchema', 'true'),
      /'mergeSchema' is not implemented/,
    ],
    ['a DynamoDB sink without a table', (w) => w.format('dynamodb'), /needs its table/],
    [
      'a sink object without a checkpoint location',
      (w, df) => w.sink(sinkObject(df)),
      /checkpointLocation', dir\) is required for this sink/,
    ],
    [
      'a state partition count that is not a positive integer',
      (w) => w.option('numStatePartitions', 0),
      /numStatePartitions/,
    ],
    [
      'more state in the commit than a DynamoDB item holds',
      (w) => w.option('inlineStateMaxBytes', '300k'),
      /inlineStateMaxBytes='300k': a commit carries at most 256k/,
    ],
    [
      'a state-in-commit budget that is not a size',
      (w) => w.option('inlineStateMaxBytes', 'lots'),
      /inlineStateMaxBytes='lots'/,
    ],
  ])('refuses %s, naming it, before any I/O', (_, configure, message) => {
    const { df } = rows();
    const check = () => configure(df.writeStream, df).check();
    expect(check).toThrow(InvalidOptionError);
    expect(check).toThrow(message);
  });

  it('refuses a query its output mode cannot run', () => {
    const { df } = rows();
    const check = () => df.groupBy(col('id')).count().writeStream.outputMode('append').check();
    expect(check).toThrow(UnsupportedOperationError);
  });

  it('opens the checkpoint only when the checked query starts', async () => {
    const { df } = rows();
    const checkpoint = path.join(tempDir(), 'checkpoint');
    const query = df.writeStream
      .sink(sinkObject(df))
      .option('checkpointLocation', checkpoint)
      .check();
    expect(existsSync(checkpoint)).toBe(false);

    const execution = await query.start();
    expect(existsSync(checkpoint)).toBe(true);
    await execution.stop();
  });
});
