import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CheckpointError,
  col,
  ConsoleSink,
  count,
  FileCheckpointStore,
  from_json,
  LocalDirectoryStore,
  MemoryObjectStore,
  MemorySink,
  progressLine,
  SluiceSession,
  window,
} from '../../core/index.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

function clicks(session: SluiceSession) {
  const events = session.memoryStream(clickSchema, 'clicks');
  return { events, df: session.readStream.memory(events) };
}

describe('triggers', () => {
  it('once: runs a single batch with everything available, then stops', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    events.addData([{ ts: at('10:01:00'), category: 'b', user: 'u' }]);
    const query = await df.writeStream
      .trigger({ once: true })
      .format('memory')
      .queryName('once')
      .start();
    expect(await query.awaitTermination()).toBe(true);
    expect(query.isActive).toBe(false);
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([2]);
  });

  it('availableNow: runs until everything available is processed, including the no-data batch that closes windows', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    events.addData([
      { ts: at('10:01:00'), category: 'a', user: 'u' },
      { ts: at('10:25:00'), category: 'a', user: 'u' },
    ]);
    const counts = df
      .withWatermark('ts', '5 minutes')
      .groupBy(window(col('ts'), '10 minutes'))
      .agg(count().alias('n'));
    const query = await counts.writeStream
      .trigger({ availableNow: true })
      .format('memory')
      .queryName('avail')
      .start();
    await query.awaitTermination();
    expect(query.recentProgress.map((p) => [p.numInputRows, p.sink.numOutputRows])).toEqual([
      [2, 0],
      [0, 1],
    ]);
  });

  it('processingTime: keeps running batches as data arrives until stopped', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    const query = await df.writeStream
      .trigger({ processingTime: '20 milliseconds' })
      .format('memory')
      .queryName('pt')
      .start();
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await query.processAllAvailable();
    events.addData([{ ts: at('10:00:00'), category: 'b', user: 'u' }]);
    await query.processAllAvailable();
    expect(await query.awaitTermination(30)).toBe(false);
    await query.stop();
    expect(query.isActive).toBe(false);
    expect((await session.table('pt').collect()).map((r) => r.category)).toEqual(['a', 'b']);
  });

  it('rejects an unknown trigger naming the accepted ones', () => {
    const session = new SluiceSession();
    const { df } = clicks(session);
    expect(() => df.writeStream.trigger({ every: 5 } as never)).toThrow(
      /processingTime.*once.*availableNow/,
    );
  });
});

describe('progress', () => {
  it('reports input, output, offsets, watermark, state and a duration per protocol step', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    const counts = df
      .withWatermark('ts', '10 minutes')
      .groupBy(window(col('ts'), '10 minutes'), col('category'))
      .count();
    const query = await counts.writeStream
      .outputMode('update')
      .format('memory')
      .queryName('prog')
      .start();
    events.addData([
      { ts: at('10:00:00'), category: 'a', user: 'u' },
      { ts: at('10:30:00'), category: 'b', user: 'u' },
    ]);
    await query.processAllAvailable();
    events.addData([{ ts: at('10:05:00'), category: 'a', user: 'late' }]);
    await query.processAllAvailable();
    await query.stop();
    const [first, noData, third] = query.recentProgress;
    expect(first).toMatchObject({
      batchId: 0,
      numInputRows: 2,
      stateLoad: 'cold',
      sources: [
        { description: 'MemoryStream[clicks]', startOffset: null, endOffset: 2, numInputRows: 2 },
      ],
      sink: { description: 'MemorySink[prog]', numOutputRows: 2 },
      stateOperators: [{ operatorId: 0, numRowsTotal: 2, numRowsUpdated: 2 }],
      eventTime: { max: '2026-01-01T10:30:00.000Z' },
    });
    // the protocol's steps, and the same time under Spark's names
    expect(Object.keys(first.durationMs).sort()).toEqual([
      'addBatch',
      'commit',
      'commitOffsets',
      'latestOffset',
      'lease',
      'load',
      'persist',
      'plan',
      'run',
      'sink',
      'triggerExecution',
      'walCommit',
    ]);
    const d = first.durationMs;
    expect(d.addBatch).toBe(d.run + d.persist + d.sink);
    expect(d.commitOffsets).toBe(d.commit);
    expect(first.batchDuration).toBe(d.triggerExecution);
    expect(first.stateBytesWritten).toBeGreaterThan(0);
    // the watermark moved to 10:20 without new data: a no-data batch evicts window [10:00, 10:10)
    expect(noData).toMatchObject({
      batchId: 1,
      numInputRows: 0,
      stateLoad: 'warm',
      eventTime: { watermark: '2026-01-01T10:20:00.000Z' },
    });
    expect(noData.stateOperators[0]).toMatchObject({ numRowsRemoved: 1, numRowsTotal: 1 });
    expect(third).toMatchObject({ batchId: 2, numInputRows: 1, lateRowsDropped: 1 });
    expect(query.lastProgress).toBe(third);
    expect(query.id).toBe(first.id);
  });

  it('counts records that DROPMALFORMED parsing dropped', async () => {
    const session = new SluiceSession();
    const lines = session.memoryStream('value STRING');
    const parsed = session.readStream
      .memory(lines)
      .select(from_json(col('value'), 'category STRING', { mode: 'DROPMALFORMED' }).alias('e'))
      .select('e.*');
    const query = await parsed.writeStream.format('memory').queryName('malformed').start();
    lines.addData([
      { value: '{"category":"a"}' },
      { value: '{"category": oops' },
      { value: '{"category":"b"}' },
    ]);
    await query.processAllAvailable();
    await query.stop();
    expect(query.lastProgress?.malformedRecordsDropped).toBe(1);
    expect(await session.table('malformed').collect()).toEqual([
      { category: 'a' },
      { category: 'b' },
    ]);
  });
});

describe('stream-static joins', () => {
  it('joins each batch with the static side as it is when the batch runs', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'categories.json');
    writeFileSync(file, '{"category":"a","label":"Alpha"}\n');
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    const labels = session.read.schema('category STRING, label STRING').json(file);
    const joined = df.join(labels, 'category', 'left').select('user', 'label');
    const query = await joined.writeStream.format('memory').queryName('joined').start();
    events.addData([
      { ts: at('10:00:00'), category: 'a', user: 'u1' },
      { ts: at('10:00:00'), category: 'b', user: 'u2' },
    ]);
    await query.processAllAvailable();
    writeFileSync(file, '{"category":"a","label":"Alpha"}\n{"category":"b","label":"Beta"}\n');
    events.addData([{ ts: at('10:01:00'), category: 'b', user: 'u3' }]);
    await query.processAllAvailable();
    await query.stop();
    expect(await session.table('joined').collect()).toEqual([
      { user: 'u1', label: 'Alpha' },
      { user: 'u2', label: null },
      { user: 'u3', label: 'Beta' },
    ]);
  });

  it('refuses a full outer join of a stream with a static table when the query starts', async () => {
    const session = new SluiceSession();
    const { df } = clicks(session);
    const labels = session.createDataFrame([], 'category STRING, label STRING');
    await expect(df.join(labels, 'category', 'full').writeStream.start()).rejects.toThrow(
      /full join with a streaming DataFrame on the left/,
    );
  });
});

describe('sinks and checkpoints', () => {
  it('the console sink prints each batch as a table', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    const printed: string[] = [];
    const sink = new ConsoleSink({}, (t) => printed.push(t));
    const query = await df
      .select('category', 'user')
      .writeStream.sink(sink)
      .option('checkpointLocation', tempDir())
      .start();
    events.addData([{ ts: at('10:00:00'), category: 'books', user: 'u1' }]);
    await query.processAllAvailable();
    await query.stop();
    expect(printed.join('')).toContain(
      [
        'Batch: 0',
        '-------------------------------------------',
        '+--------+----+',
        '|category|user|',
        '+--------+----+',
        '|   books|  u1|',
        '+--------+----+',
      ].join('\n'),
    );
  });

  it('runs on an in-memory checkpoint and resumes from it', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    const store = new MemoryObjectStore();
    const backend = { checkpoint: new FileCheckpointStore(store), stateObjects: store };
    const counts = df.groupBy('category').count();
    const sink = new MemorySink(counts.schema);
    const first = await counts.writeStream
      .outputMode('complete')
      .sink(sink)
      .checkpoint(backend)
      .start();
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await first.processAllAvailable();
    await first.stop();
    const second = await counts.writeStream
      .outputMode('complete')
      .sink(sink)
      .checkpoint(backend)
      .start();
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await second.processAllAvailable();
    await second.stop();
    expect(sink.rows()).toEqual([{ category: 'a', count: 2 }]);
    expect(second.recentProgress[0]).toMatchObject({ batchId: 1, stateLoad: 'cold' });
  });

  it('maintains its checkpoint once a batch makes maintenance due, as an invocation does: the log and state beyond minBatchesToRetain are deleted', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    const root = tempDir();
    const counts = df.groupBy('category').count();
    const query = await counts.writeStream
      .outputMode('complete')
      .sink(new MemorySink(counts.schema))
      .option('checkpointLocation', root)
      .option('minBatchesToRetain', 3)
      .option('snapshotInterval', 2)
      .option('inlineStateMaxBytes', 0)
      .start();
    // one batch per processAllAvailable; committing batch 9 makes maintenance due
    for (let batchId = 0; batchId < 10; batchId++) {
      events.addData([{ ts: at('10:00:00'), category: `c${batchId % 4}`, user: 'u' }]);
      await query.processAllAvailable();
    }
    await query.stop();
    expect(query.lastProgress?.batchId).toBe(9);
    const store = new LocalDirectoryStore(root);
    expect((await store.list('commits/')).map((k) => Number(k.slice(8, -5)))).toEqual([7, 8, 9]);
    expect(await store.list('offsets/')).toHaveLength(3);
    expect(await store.list('state/manifests/')).toHaveLength(3);
  });

  it('fails when another run holds the lease of its checkpoint: two queries must not share one', async () => {
    const session = new SluiceSession();
    const { events, df } = clicks(session);
    const store = new MemoryObjectStore();
    const checkpoint = new FileCheckpointStore(store);
    const heldByAnother: FileCheckpointStore = Object.assign(Object.create(checkpoint), {
      acquireLease: async () => ({ kind: 'held', owner: 'other-run' }),
    });
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    const query = await df.writeStream
      .format('memory')
      .queryName('shared')
      .checkpoint({ checkpoint: heldByAnother, stateObjects: store })
      .start();
    await expect(query.awaitTermination()).rejects.toThrow(
      /Another run \(other-run\) holds the lease of this query's checkpoint; two queries must not share a checkpoint/,
    );
    expect(query.isActive).toBe(false);
    expect(query.exception).toBeInstanceOf(CheckpointError);
    expect(query.recentProgress).toEqual([]);
  });

  it('needs a checkpointLocation for a sink that is not a development sink', async () => {
    const session = new SluiceSession();
    const { df } = clicks(session);
    await expect(df.writeStream.foreachBatch(() => {}).start()).rejects.toThrow(
      /checkpointLocation/,
    );
  });
});

describe('backfills', () => {
  it('availableNow reports how much of the input available at start is done', async () => {
    const dir = tempDir();
    for (const i of [0, 1, 2])
      writeFileSync(path.join(dir, `f${i}.json`), `{"category":"c${i}"}\n`);
    const session = new SluiceSession();
    const query = await session.readStream
      .schema('category STRING')
      .option('maxFilesPerTrigger', 1)
      .json(dir)
      .writeStream.format('memory')
      .queryName('backfill')
      .option('checkpointLocation', tempDir())
      .trigger({ availableNow: true })
      .start();
    await query.awaitTermination();
    expect(query.recentProgress.map((p) => p.backfill)).toEqual([
      { done: 1, total: 3 },
      { done: 2, total: 3 },
      { done: 3, total: 3 },
    ]);
    expect(progressLine(query.recentProgress[0])).toContain('[#######-------------] 33%');
  });
});
