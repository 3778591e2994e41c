import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  col,
  type CreateResult,
  FileSink,
  FileSinkLog,
  InvalidOptionError,
  LocalDirectoryStore,
  MemoryStream,
  SinkError,
  SluiceSession,
  UnsupportedOperationError,
} from '../../core/index.js';
import { treeString } from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';
import { windowCounts } from '../delta/window-counts.js';
import { tempDir } from '../support/temp-dir.js';
import {
  batchResult,
  canonical,
  clickBatches,
  clickStream,
  CrashBeforeManifest,
  FLAT_SCHEMA,
  feed,
  FLUSH,
  FORMATS,
  readDirectory,
  startQuery,
  STEPS,
  streamThroughCrash,
} from './file-sink-query.js';

/** The data files under a sink's directory, whether listed or not, relative and '/'-separated. */
function dataFilesOnDisk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && path.basename(e.name).startsWith('part-'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** The data files the sink's manifest log lists. */
async function listedFiles(dir: string): Promise<string[]> {
  const files = await new FileSinkLog(new LocalDirectoryStore(dir)).allFiles();
  return files.map((f) => f.path).sort();
}

/** The names of the manifest log's objects, in batch order. */
function manifestNames(dir: string): string[] {
  return readdirSync(path.join(dir, '_sluice_metadata')).sort(
    (a, b) => parseInt(a, 10) - parseInt(b, 10),
  );
}

describe('a streaming query written with writeStream.format(format).start(path)', () => {
  it.each(FORMATS)(
    'writes %s files that read back as the batch query computes it, one manifest per batch',
    async (format) => {
      const dir = tempDir('sluice-files-');
      const chunks = clickBatches();
      const events = clickStream();
      const query = await startQuery({ events, checkpoint: tempDir(), format, path: dir });
      await feed(query, events, [...chunks, [FLUSH]]);
      await query.stop();

      expect(await readDirectory(dir, format)).toEqual(await batchResult(chunks.flat()));
      // more than 10 batches: batch 9 wrote the compact manifest
      const batchIds = query.recentProgress.map((p) => p.batchId);
      expect(batchIds.length).toBeGreaterThan(10);
      expect(manifestNames(dir)).toEqual(batchIds.map((b) => (b === 9 ? '9.compact' : String(b))));
      expect(dataFilesOnDisk(dir)).toEqual(await listedFiles(dir));
      expect(dataFilesOnDisk(dir).every((f) => /^part-\d{5}-[0-9a-f-]{36}\./.test(f))).toBe(true);
    },
  );

  it('passes CSV options to the files: a header line and a delimiter', async () => {
    const dir = tempDir('sluice-files-');
    const chunks = clickBatches(2);
    const events = clickStream();
    const options = { header: true, delimiter: ';' };
    const query = await startQuery({
      events,
      checkpoint: tempDir(),
      format: 'csv',
      path: dir,
      options,
    });
    await feed(query, events, [...chunks, [FLUSH]]);
    await query.stop();

    expect(await readDirectory(dir, 'csv', options)).toEqual(await batchResult(chunks.flat()));
    for (const file of dataFilesOnDisk(dir)) {
      expect(readFileSync(path.join(dir, file), 'utf8').split('\n')[0]).toBe(
        'start;end;category;n',
      );
    }
  });

  it('gzips JSON lines with compression gzip: files named .json.gz, which read.json decompresses', async () => {
    const dir = tempDir('sluice-files-');
    const chunks = clickBatches(2);
    const events = clickStream();
    const options = { compression: 'gzip' };
    const query = await startQuery({
      events,
      checkpoint: tempDir(),
      format: 'json',
      path: dir,
      options,
    });
    await feed(query, events, [...chunks, [FLUSH]]);
    await query.stop();

    expect(await readDirectory(dir, 'json')).toEqual(await batchResult(chunks.flat()));
    const files = dataFilesOnDisk(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file).toMatch(/\.json\.gz$/);
      expect([...readFileSync(path.join(dir, file)).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    }
  });

  it('writes the text format: one line per row of a single string column', async () => {
    const dir = tempDir('sluice-files-');
    const session = new SluiceSession();
    const events = clickStream();
    const query = await session.readStream
      .memory(events)
      .select('user')
      .writeStream.format('text')
      .option('checkpointLocation', tempDir())
      .start(dir);
    events.addData([{ ts: new Date(0), category: 'a', user: 'ann' }]);
    await query.processAllAvailable();
    events.addData([
      { ts: new Date(1), category: 'b', user: 'bob' },
      { ts: new Date(2), category: 'c', user: 'cy' },
    ]);
    await query.processAllAvailable();
    await query.stop();

    const rows = await session.read.text(dir).collect();
    expect(rows.map((r) => r.value).sort()).toEqual(['ann', 'bob', 'cy']);
    expect(dataFilesOnDisk(dir).every((f) => f.endsWith('.txt'))).toBe(true);
  });
});

describe('exactly once through a crash after every step of the batch (local directory)', () => {
  for (const format of FORMATS) {
    it.each(STEPS)(`${format}: a crash after %s`, async (step) => {
      const dir = tempDir('sluice-files-');
      const chunks = clickBatches(3);
      const { crashed, resumedAt } = await streamThroughCrash(step, chunks, (spec) =>
        startQuery({ ...spec, format, path: dir }),
      );

      // before the commit the batch runs again; after it, never
      expect(resumedAt).toBe(step === 'commit' ? crashed + 1 : crashed);
      expect(await readDirectory(dir, format)).toEqual(await batchResult(chunks.flat()));
      const names = manifestNames(dir);
      expect(new Set(names.map((n) => parseInt(n, 10))).size).toBe(names.length);
      // crashes between steps leave no unlisted files: a re-run after the sink step writes nothing
      expect(dataFilesOnDisk(dir)).toEqual(await listedFiles(dir));
    });
  }
});

describe('files of an attempt that crashed inside the sink', () => {
  it('are not listed, and read.parquet does not read them', async () => {
    const dir = tempDir('sluice-files-');
    const checkpoint = tempDir();
    const chunks = clickBatches(3);
    const events = clickStream();
    const store = new CrashBeforeManifest(new LocalDirectoryStore(dir));
    const first = await startQuery({
      events,
      checkpoint,
      sink: new FileSink(store, { format: 'parquet' }),
    });
    events.addData(chunks[0]);
    await expect(first.processAllAvailable()).rejects.toThrow(/crash before creating/);
    const orphans = dataFilesOnDisk(dir);
    expect(orphans).toHaveLength(1);

    const second = await startQuery({ events, checkpoint, format: 'parquet', path: dir });
    await feed(second, events, [...chunks.slice(1), [FLUSH]]);
    await second.stop();

    const expected = await batchResult(chunks.flat());
    expect(await readDirectory(dir, 'parquet')).toEqual(expected);
    expect(await listedFiles(dir)).not.toContain(orphans[0]);
    expect(dataFilesOnDisk(dir)).toContain(orphans[0]);
  });
});

describe('two attempts of one batch writing at once', () => {
  it('leave the files of the one whose manifest is created; the other deletes its own', async () => {
    const dir = tempDir('sluice-files-');
    const context = { queryId: 'q-1', outputMode: 'append' as const, schema: FLAT_SCHEMA };
    const winner = new FileSink(new LocalDirectoryStore(dir), { format: 'json' });
    const row = [0, 600_000_000, 'books', 3];
    /** Lets the winner write the whole batch just before the loser creates its manifest. */
    class RacingStore extends LocalDirectoryStore {
      override async putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
        await winner.addBatch(0, [row], FLAT_SCHEMA, 'append');
        return super.putIfAbsent(key, bytes);
      }
    }
    const loser = new FileSink(new RacingStore(dir), { format: 'json' });
    await winner.open(context);
    await loser.open(context);

    await loser.addBatch(0, [row], FLAT_SCHEMA, 'append');

    expect(manifestNames(dir)).toEqual(['0']);
    expect(dataFilesOnDisk(dir)).toEqual(await listedFiles(dir));
    expect(dataFilesOnDisk(dir)).toHaveLength(1);
    expect(await readDirectory(dir, 'json')).toEqual(
      canonical([{ start: new Date(0), end: new Date(600_000), category: 'books', n: 3 }]),
    );
  });
});

describe('compaction of the manifest log', () => {
  const SECOND = 1_000_000;

  /** Writes batches 0..count-1 of one row each through a FileSink with `compactInterval`. */
  async function writeBatches(dir: string, count: number, compactInterval: number) {
    const sink = new FileSink(new LocalDirectoryStore(dir), { format: 'json', compactInterval });
    await sink.open({ queryId: 'q-1', outputMode: 'append', schema: FLAT_SCHEMA });
    for (let batchId = 0; batchId < count; batchId++) {
      await sink.addBatch(
        batchId,
        [[batchId * SECOND, (batchId + 1) * SECOND, `c${batchId}`, batchId]],
        FLAT_SCHEMA,
        'append',
      );
    }
  }

  const rowsOf = (batchIds: number[]) =>
    canonical(
      batchIds.map((b) => ({
        start: new Date(b * 1000),
        end: new Date((b + 1) * 1000),
        category: `c${b}`,
        n: b,
      })),
    );

  it('writes n.compact for every batch n with (n + 1) % interval == 0, listing every file so far', async () => {
    const dir = tempDir('sluice-files-');
    await writeBatches(dir, 8, 3);

    expect(manifestNames(dir)).toEqual(['0', '1', '2.compact', '3', '4', '5.compact', '6', '7']);
    const compact = readFileSync(path.join(dir, '_sluice_metadata', '5.compact'), 'utf8');
    const paths = compact
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => (JSON.parse(line) as { path: string }).path);
    expect(paths.map((p) => Number(p.slice(5, 10)))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await readDirectory(dir, 'json')).toEqual(rowsOf([0, 1, 2, 3, 4, 5, 6, 7]));
  });

  it('lets readers use only the latest compact manifest and the batches after it', async () => {
    const dir = tempDir('sluice-files-');
    await writeBatches(dir, 8, 3);
    for (const name of ['0', '1', '2.compact', '3', '4']) {
      writeFileSync(path.join(dir, '_sluice_metadata', name), 'not a manifest');
    }

    expect(await readDirectory(dir, 'json')).toEqual(rowsOf([0, 1, 2, 3, 4, 5, 6, 7]));
  });

  it('compacts every 10 batches by default, and as option compactInterval says', async () => {
    const dir = tempDir('sluice-files-');
    await writeBatches(dir, 11, 10);
    expect(manifestNames(dir).filter((n) => n.endsWith('.compact'))).toEqual(['9.compact']);

    const viaOption = tempDir('sluice-files-');
    const chunks = clickBatches(4);
    const events = clickStream();
    const query = await startQuery({
      events,
      checkpoint: tempDir(),
      format: 'json',
      path: viaOption,
      options: { compactInterval: 2 },
    });
    await feed(query, events, [...chunks, [FLUSH]]);
    await query.stop();
    const names = manifestNames(viaOption);
    expect(names.filter((n) => n.endsWith('.compact'))).toEqual(
      names.filter((n) => parseInt(n, 10) % 2 === 1),
    );
    expect(names.some((n) => n.endsWith('.compact'))).toBe(true);
    expect(await readDirectory(viaOption, 'json')).toEqual(await batchResult(chunks.flat()));
  });
});

describe('what the file sink refuses when the query starts', () => {
  it.each(['update', 'complete'] as const)('%s output mode, naming it', async (outputMode) => {
    const dir = tempDir('sluice-files-');
    const start = startQuery({
      events: clickStream(),
      checkpoint: tempDir(),
      path: dir,
      outputMode,
    });
    await expect(start).rejects.toThrow(UnsupportedOperationError);
    await expect(start).rejects.toThrow(`append output mode only, not ${outputMode}`);
    expect(existsSync(path.join(dir, '_sluice_metadata'))).toBe(false);
  });

  it('a schema the format cannot hold: CSV and a struct column', async () => {
    const dir = tempDir('sluice-files-');
    const start = windowCounts(new SluiceSession().readStream.memory(clickStream()))
      .writeStream.format('csv')
      .option('checkpointLocation', tempDir())
      .start(dir);
    await expect(start).rejects.toThrow(AnalysisError);
    await expect(start).rejects.toThrow(/CSV data source does not support struct.*'window'/);
  });

  it("another query's output: its batch ids would be taken for batches already written", async () => {
    const dir = tempDir('sluice-files-');
    const chunks = clickBatches(2);
    const events = clickStream();
    const first = await startQuery({ events, checkpoint: tempDir(), format: 'json', path: dir });
    await feed(first, events, chunks);
    await first.stop();

    const other = startQuery({
      events: clickStream(),
      checkpoint: tempDir(),
      format: 'json',
      path: dir,
    });
    await expect(other).rejects.toThrow(SinkError);
    await expect(other).rejects.toThrow(`holds batches of query ${first.id}`);
  });

  it('options it cannot honour, naming them', async () => {
    const start = (options: Record<string, string | number>) =>
      startQuery({
        events: clickStream(),
        checkpoint: tempDir(),
        format: 'parquet',
        path: tempDir(),
        options,
      });
    await expect(start({ partitionBy: 'category' })).rejects.toThrow(/'partitionBy'/);
    await expect(start({ maxRecordsPerFile: 10 })).rejects.toThrow(
      /writeStream\.format\('parquet'\) refuses an option: 'maxRecordsPerFile' is not implemented: .*\. Drop it; the supported options are compactInterval, compression\./,
    );
    await expect(start({ compactInterval: 0 })).rejects.toThrow(/compactInterval/);
    await expect(start({ compression: 'lz5' })).rejects.toThrow(/compression 'LZ5'/);
    await expect(
      startQuery({
        events: clickStream(),
        checkpoint: tempDir(),
        format: 'csv',
        path: tempDir(),
        options: { compression: 'snappy' },
      }),
    ).rejects.toThrow("Invalid option compression 'snappy' for csv files: use none or gzip.");
    await expect(
      startQuery({ events: clickStream(), checkpoint: tempDir(), format: 'json' }),
    ).rejects.toThrow(InvalidOptionError);
  });
});

describe('reading a file sink output whose log lists no files yet', () => {
  it.each(['json', 'csv', 'parquet'] as const)(
    'reads %s output as an empty table with the schema the sink wrote',
    async (format) => {
      const session = new SluiceSession();
      const stream = new MemoryStream(parseSchema('user STRING, n BIGINT, at TIMESTAMP'));
      const dir = tempDir('sluice-files-');
      const query = await session.readStream
        .memory(stream)
        .where(col('n').gt(100))
        .writeStream.format(format)
        .option('checkpointLocation', tempDir())
        .start(dir);
      stream.addData([{ user: 'ann', n: 1, at: new Date(0) }]);
      await query.processAllAvailable();
      await query.stop();
      expect(manifestNames(dir)).toEqual(['0']);

      const df = session.read.format(format).load(dir);
      expect(treeString(df.schema)).toBe(
        treeString(parseSchema('user STRING, n BIGINT, at TIMESTAMP')),
      );
      expect(await df.collect()).toEqual([]);
    },
  );
});
