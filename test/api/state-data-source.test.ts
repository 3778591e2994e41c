/**
 * State as a table, as Spark's state data source: format('statestore') gives a state store's rows
 * (key, value, partition_id) at a committed batch, format('state-metadata') one row per store with
 * the batches whose state is retained.
 */
import { describe, expect, it } from 'vitest';
import {
  InvalidOptionError,
  localCheckpointBackend,
  type RowObject,
  SluiceSession,
} from '../../core/index.js';
import { countsCheckpoint } from '../support/counts-checkpoint.js';

/** The count each stored value holds, by key, from the JSON of the `value` column. */
const counts = (rows: RowObject[]) =>
  rows
    .map((r) => JSON.parse(r.value as string) as [string[], number[]])
    .map(([[k], [n]]) => `${k}=${n}`)
    .sort();

describe("session.read.format('statestore')", () => {
  it("reads the latest version of operator 0's default store, with each row's partition", async () => {
    const checkpoint = await countsCheckpoint([['a', 'b'], ['a']]);
    const df = new SluiceSession().read.format('statestore').load(checkpoint);
    expect(df.schema.fields.map((f) => `${f.name} ${f.dataType.kind}`)).toEqual([
      'key string',
      'value string',
      'partition_id int',
    ]);
    const rows = await df.collect();
    expect(counts(rows)).toEqual(['a=2', 'b=1']);
    expect(
      rows.every((r) => (r.partition_id as number) >= 0 && (r.partition_id as number) < 3),
    ).toBe(true);
  });

  it('reads the version of an earlier batch, and can be queried as any table', async () => {
    const checkpoint = await countsCheckpoint([
      ['a', 'b'],
      ['a', 'c'],
    ]);
    const df = new SluiceSession().read
      .format('statestore')
      .option('operatorId', 0)
      .option('storeName', 'default')
      .option('batchId', 0)
      .load(checkpoint);
    expect(counts(await df.collect())).toEqual(['a=1', 'b=1']);
    expect(await df.count()).toBe(2);
  });

  it('refuses an unknown option, a bad batch id and a stream, saying what to do', async () => {
    const checkpoint = await countsCheckpoint([['a']]);
    const read = () => new SluiceSession().read.format('statestore');
    expect(() => read().option('batch', 1).load(checkpoint)).toThrow(
      /format\('statestore'\) has no option 'batch'; it takes operatorId, storeName, batchId, checkpointTable, queryId and stateLocation/,
    );
    expect(() => read().option('batchId', -1).load(checkpoint)).toThrow(InvalidOptionError);
    expect(() => read().load()).toThrow(/load\('path\/to\/checkpoint'\)/);
    expect(() => new SluiceSession().readStream.format('statestore').load(checkpoint)).toThrow(
      /not a stream: use session.read/,
    );
    await expect(read().option('operatorId', 4).load(checkpoint).collect()).rejects.toThrow(
      /has no operator 4 store 'default'/,
    );
  });
});

describe("session.read.format('state-metadata')", () => {
  it('lists each state store with its operator, partitions and retained batches', async () => {
    const checkpoint = await countsCheckpoint([['a'], ['b'], ['c']]);
    const rows = await new SluiceSession().read.format('state-metadata').load(checkpoint).collect();
    expect(rows).toEqual([
      {
        operatorId: 0,
        operatorName: 'aggregate',
        stateStoreName: 'default',
        numPartitions: 3,
        minBatchId: 0,
        maxBatchId: 2,
      },
    ]);
  });

  it('starts the retained batches at the oldest commit the log still holds', async () => {
    const checkpoint = await countsCheckpoint([['a'], ['b'], ['c'], ['d']]);
    await localCheckpointBackend(checkpoint).checkpoint.forgetBatchesBefore!(2);
    const [row] = await new SluiceSession().read
      .format('state-metadata')
      .load(checkpoint)
      .collect();
    expect(row).toMatchObject({ minBatchId: 2, maxBatchId: 3 });
  });
});
