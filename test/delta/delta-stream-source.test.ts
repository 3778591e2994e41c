import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  type BatchStep,
  type DataFrame,
  DeltaLog,
  DeltaSink,
  DeltaStreamSource,
  InvalidOptionError,
  MemoryObjectStore,
  MemorySink,
  type ObjectStore,
  type OutputMode,
  type Sink,
  SluiceSession,
  SourceError,
  type StreamingQuery,
  type StreamingQueryProgress,
} from '../../core/index.js';
import type { Row } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';
import { tempDir } from '../support/temp-dir.js';

const SCHEMA = parseSchema('id LONG, category STRING');
const rows = (...ids: number[]): Row[] => ids.map((id) => [id, id % 2 === 0 ? 'even' : 'odd']);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

class Crash extends Error {}

/** A table written by a DeltaSink, one version a batch; `write` appends (or replaces) rows. */
function deltaTable(
  location: string | ObjectStore = tempDir('sluice-delta-'),
  partitionBy?: string[],
) {
  const sink = new DeltaSink(location, {
    appId: 'writer',
    ...(partitionBy ? { partitionBy } : {}),
  });
  let batch = 0;
  return {
    location,
    /** Commits one version holding `ids`; complete mode replaces the table's content. */
    write: (ids: number[], mode: OutputMode = 'append') =>
      sink.addBatch(batch++, rows(...ids), SCHEMA, mode),
  };
}

/**
 * A sink that records every delivery by batch id and checks that a batch delivered again (the
 * re-run of a batch whose commit did not land) brings exactly the rows of its first delivery.
 */
class RecordingSink implements Sink {
  readonly description = 'RecordingSink';
  readonly batches = new Map<number, Row[]>();
  readonly mismatches: number[] = [];

  async addBatch(batchId: number, batchRows: readonly Row[]): Promise<void> {
    const before = this.batches.get(batchId);
    if (before && JSON.stringify(before) !== JSON.stringify(batchRows)) {
      this.mismatches.push(batchId);
    }
    this.batches.set(batchId, [...batchRows]);
  }

  ids(): number[] {
    return [...this.batches.values()]
      .flat()
      .map((r) => r[0] as number)
      .sort((a, b) => a - b);
  }
}

/** Starts `df` into `sink` on `checkpoint`; with `crash`, fails with Crash after that step of that batch. */
function start(
  df: DataFrame,
  sink: Sink,
  checkpoint: string,
  crash?: { step: BatchStep; batchId: number },
): Promise<StreamingQuery> {
  const writer = df.writeStream.sink(sink).option('checkpointLocation', checkpoint);
  if (crash) {
    writer.afterStep((step, batchId) => {
      if (step === crash.step && batchId === crash.batchId) {
        throw new Crash(`after ${step} of batch ${batchId}`);
      }
    });
  }
  return writer.start();
}

const inputRows = (progress: readonly StreamingQueryProgress[]) =>
  progress.map((p) => p.numInputRows);

describe('a Delta table read as a stream', () => {
  it('reads the snapshot at start in batches of maxFilesPerTrigger, then each new version', async () => {
    const table = deltaTable();
    for (const b of range(0, 5)) await table.write([2 * b, 2 * b + 1]);
    const session = new SluiceSession();
    const df = await session.readStream
      .format('delta')
      .option('maxFilesPerTrigger', 2)
      .load(table.location);
    expect(df.isStreaming).toBe(true);
    expect(df.schema.fields.map((f) => f.name)).toEqual(['id', 'category']);
    const sink = new MemorySink(df.schema);
    const query = await start(df, sink, tempDir());
    await query.processAllAvailable();
    // 5 files of the initial snapshot (version 4), two a batch
    expect(inputRows(query.recentProgress)).toEqual([4, 4, 2]);
    expect(query.recentProgress[0].sources[0].endOffset).toEqual({
      formatVersion: 1,
      tableId: (await DeltaLog.at(table.location).snapshot())!.metadata.id,
      version: 4,
      index: 2,
      initialSnapshot: true,
    });
    expect(query.recentProgress[2].sources[0].endOffset).toMatchObject({
      version: 5,
      index: 0,
      initialSnapshot: false,
    });

    await table.write([10, 11, 12]);
    await table.write([13]);
    await query.processAllAvailable();
    await query.stop();
    // the two new versions in one batch or in two, as the trigger found them
    expect(inputRows(query.recentProgress.slice(3)).reduce((a, b) => a + b)).toBe(4);
    expect(sink.rows().map((r) => r.id)).toEqual(range(0, 14));
  });

  for (const step of ['plan', 'run', 'sink', 'commit'] as const) {
    it(`loses and doubles no row when the query is killed after '${step}' and restarted while the table grows`, async () => {
      const table = deltaTable(new MemoryObjectStore('mem://source'), ['category']);
      for (const b of range(0, 12)) await table.write([3 * b, 3 * b + 1, 3 * b + 2]);
      const checkpoint = tempDir();
      const sink = new RecordingSink();
      const define = () =>
        new SluiceSession().readStream.delta(table.location, { maxFilesPerTrigger: 5 });

      const first = await start(await define(), sink, checkpoint, { step, batchId: 2 });
      await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);
      for (const b of range(12, 15)) await table.write([3 * b, 3 * b + 1, 3 * b + 2]);

      // a new process: the stream is defined anew on the same checkpoint
      const second = await start(await define(), sink, checkpoint);
      await second.processAllAvailable();
      for (const b of range(15, 23)) await table.write([3 * b, 3 * b + 1, 3 * b + 2]);
      await second.processAllAvailable();
      await second.stop();

      expect(sink.ids()).toEqual(range(0, 69));
      expect(sink.mismatches).toEqual([]);
      expect(second.recentProgress[0].batchId).toBe(step === 'commit' ? 3 : 2);
      // every batch within the admission limit: at most 5 files of one or two rows each
      expect(second.recentProgress.every((p) => p.numInputRows <= 10)).toBe(true);
    });
  }

  it('reads only the versions from startingVersion, or after the latest one', async () => {
    const table = deltaTable();
    for (const b of range(0, 4)) await table.write([b]);
    const session = new SluiceSession();
    const fromTwo = await session.readStream
      .format('delta')
      .option('startingVersion', 2)
      .load(table.location);
    const latest = await session.readStream
      .format('delta')
      .option('startingVersion', 'latest')
      .load(table.location);
    const sinks = [new MemorySink(SCHEMA), new MemorySink(SCHEMA)];
    const queries = [
      await start(fromTwo, sinks[0], tempDir()),
      await start(latest, sinks[1], tempDir()),
    ];
    for (const q of queries) await q.processAllAvailable();
    await table.write([4]);
    for (const q of queries) {
      await q.processAllAvailable();
      await q.stop();
    }
    expect(sinks[0].rows().map((r) => r.id)).toEqual([2, 3, 4]);
    expect(sinks[1].rows().map((r) => r.id)).toEqual([4]);

    await expect(
      session.readStream.format('delta').option('startingVersion', 'first').load(table.location),
    ).rejects.toThrow(/startingVersion='first'/);
    const beyond = await session.readStream.delta(table.location, { startingVersion: 9 });
    const failed = await start(beyond, new MemorySink(SCHEMA), tempDir());
    await expect(failed.processAllAvailable()).rejects.toThrow(
      /option startingVersion is 9, but the table's latest version is 4/,
    );
  });

  it('backfills with availableNow: every file there at start, in admission-sized batches, with progress', async () => {
    const table = deltaTable();
    for (const b of range(0, 7)) await table.write([b]);
    const df = await new SluiceSession().readStream.delta(table.location, {
      maxFilesPerTrigger: 3,
    });
    const sink = new MemorySink(SCHEMA);
    const query = await df.writeStream
      .sink(sink)
      .option('checkpointLocation', tempDir())
      .trigger({ availableNow: true })
      .start();
    expect(await query.awaitTermination(30_000)).toBe(true);
    expect(inputRows(query.recentProgress)).toEqual([3, 3, 1]);
    expect(query.recentProgress.map((p) => p.backfill)).toEqual([
      { done: 3, total: 7 },
      { done: 6, total: 7 },
      { done: 7, total: 7 },
    ]);
    // Files of one millisecond follow each other by path, as in Delta, so only the set is certain.
    expect(
      sink
        .rows()
        .map((r) => r.id as number)
        .sort((x, y) => x - y),
    ).toEqual(range(0, 7));
  });

  it('honours maxBytesPerTrigger as a soft limit: the file that crosses it is still read', async () => {
    const table = deltaTable();
    for (const b of range(0, 4)) await table.write([b]);
    const fileSize = [...(await DeltaLog.at(table.location).snapshot())!.files.values()][0].size;
    const df = await new SluiceSession().readStream.delta(table.location, {
      maxBytesPerTrigger: fileSize + 1,
    });
    const query = await start(df, new MemorySink(SCHEMA), tempDir());
    await query.processAllAvailable();
    await query.stop();
    expect(inputRows(query.recentProgress)).toEqual([2, 2]);
  });
});

describe('a Delta stream meeting a commit that takes data away', () => {
  /** A table with versions 0 and 1 appended, 2 rewriting the table (complete mode), 3 appended. */
  async function rewrittenTable() {
    const table = deltaTable();
    await table.write([1]);
    await table.write([2]);
    await table.write([3, 4], 'complete');
    await table.write([5]);
    return table;
  }

  /** Streams the table with `options` from version 0 (after reading versions 0 and 1 first). */
  async function streamIds(location: string | ObjectStore, options: Record<string, boolean> = {}) {
    const df = await new SluiceSession().readStream.delta(location, {
      startingVersion: 0,
      ...options,
    });
    const sink = new MemorySink(SCHEMA);
    const query = await start(df, sink, tempDir());
    try {
      await query.processAllAvailable();
    } finally {
      await query.stop();
    }
    return sink.rows().map((r) => r.id as number);
  }

  it('fails naming the version and the options, since a stream cannot take rows back', async () => {
    const table = await rewrittenTable();
    const failure = await streamIds(table.location).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SourceError);
    expect((failure as Error).message).toMatch(
      /Delta stream over .*: version 2 updates data .* set the option skipChangeCommits to true; .* ignoreChanges/,
    );
  });

  it('with skipChangeCommits passes over it whole; with ignoreChanges reads its new files', async () => {
    const table = await rewrittenTable();
    expect(await streamIds(table.location, { skipChangeCommits: true })).toEqual([1, 2, 5]);
    expect(await streamIds(table.location, { ignoreChanges: true })).toEqual([1, 2, 3, 4, 5]);
    // ignoreDeletes admits commits that only delete, not this one, which also adds
    await expect(streamIds(table.location, { ignoreDeletes: true })).rejects.toThrow(
      /version 2 updates data/,
    );
  });

  it('that only deletes: fails unless ignoreDeletes', async () => {
    const store = new MemoryObjectStore('mem://deletes');
    const table = deltaTable(store);
    await table.write([1]);
    await table.write([2]);
    const log = new DeltaLog(store);
    const [first] = (await log.readCommit(0)).flatMap((a) => ('add' in a ? [a.add] : []));
    await log.commit(2, [
      { remove: { path: first.path, deletionTimestamp: Date.now(), dataChange: true } },
    ]);
    await table.write([3]);
    await expect(streamIds(store)).rejects.toThrow(
      /version 2 deletes data \(for example part-.*\) .* set the option ignoreDeletes to true/,
    );
    expect(await streamIds(store, { ignoreDeletes: true })).toEqual([1, 2, 3]);
  });

  it('ignores files moved by a commit with dataChange false (compaction)', async () => {
    const store = new MemoryObjectStore('mem://compaction');
    const table = deltaTable(store);
    await table.write([1]);
    const log = new DeltaLog(store);
    const [add] = (await log.readCommit(0)).flatMap((a) => ('add' in a ? [a.add] : []));
    await log.commit(1, [
      { remove: { path: add.path, deletionTimestamp: Date.now(), dataChange: false } },
      { add: { ...add, dataChange: false } },
    ]);
    await table.write([2]);
    expect(await streamIds(store)).toEqual([1, 2]);
  });
});

describe('defining a Delta stream', () => {
  it('fails at once for a missing table, a user schema or an invalid option', async () => {
    const session = new SluiceSession();
    await expect(session.readStream.format('delta').load(tempDir())).rejects.toBeInstanceOf(
      AnalysisError,
    );
    expect(() => session.readStream.schema('id LONG').format('delta')).toThrow(
      /schema comes from its log/,
    );
    const table = deltaTable();
    await table.write([1]);
    await expect(
      session.readStream.format('delta').option('maxFilesPerTrigger', 0).load(table.location),
    ).rejects.toThrow(InvalidOptionError);
    await expect(
      session.readStream.delta(table.location, { maxBytesPerTrigger: -1 }),
    ).rejects.toThrow(/option maxBytesPerTrigger must be a positive integer, got -1/);
  });

  it('fails the query when a later version changes the schema', async () => {
    const store = new MemoryObjectStore('mem://schema');
    const table = deltaTable(store);
    await table.write([1]);
    const df = await new SluiceSession().readStream.delta(store, { startingVersion: 0 });
    const log = new DeltaLog(store);
    const metadata = (await log.snapshot())!.metadata;
    await log.commit(1, [
      {
        metaData: {
          ...metadata,
          schemaString: JSON.stringify({
            type: 'struct',
            fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }],
          }),
        },
      },
    ]);
    const query = await start(df, new MemorySink(SCHEMA), tempDir());
    await expect(query.processAllAvailable()).rejects.toThrow(
      /the table's schema or partitioning changed at version 1/,
    );
  });

  it('is a Source of its own: offsets from another table are refused', async () => {
    const store = new MemoryObjectStore('mem://own');
    const table = deltaTable(store);
    await table.write([1]);
    const source = new DeltaStreamSource(
      new DeltaLog(store),
      (await DeltaLog.at(store).snapshot())!,
      {},
      {
        metadataStore: new MemoryObjectStore(),
      },
    );
    const end = (await source.latestOffset(undefined)) as Record<string, unknown>;
    expect(end).toMatchObject({ version: 1, index: 0, initialSnapshot: false });
    expect(await source.getBatch(undefined, end)).toEqual(rows(1));
    await expect(source.getBatch(undefined, { ...end, tableId: 'other' })).rejects.toThrow(
      /belong to the table with id other/,
    );
  });
});
