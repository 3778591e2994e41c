import { readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LocalDirectoryStore } from '../../core/checkpoint/local-directory-store.js';
import { CheckpointError, InvalidOptionError } from '../../core/errors.js';
import { DirectoryListing } from '../../core/sources/directory-listing.js';
import type { FileListing } from '../../core/sources/file-listing.js';
import { type FileStreamOptions, FileStreamSource } from '../../core/sources/file-stream-source.js';
import type { FileSourceOffset } from '../../core/sources/file-source-offset.js';
import { COMPACT_INTERVAL } from '../../core/sources/seen-files-log.js';
import type { Offset } from '../../core/sources/source.js';
import { parseSchema } from '../../core/types/type-names.js';
import { writeJsonLines } from '../support/files.js';
import { tempDir } from '../support/temp-dir.js';

const schema = parseSchema('file STRING, n INT');
/** 2026-01-01T00:00:00Z in seconds: file ages are set relative to it. */
const T0 = 1_767_225_600;
const DAY = 24 * 3600;

/** A directory to watch and a checkpoint directory for the source's metadata. */
function fixture() {
  const dir = tempDir('sluice-input-');
  const metadataPath = path.join(tempDir('sluice-checkpoint-'), 'sources', '0');
  const source = (options: Partial<FileStreamOptions> = {}) =>
    new FileStreamSource(
      { files: new DirectoryListing(dir), format: 'json', read: { schema }, ...options },
      { metadataStore: new LocalDirectoryStore(metadataPath) },
    );
  /** Writes a file of two rows tagged with its name, modified `age` seconds after T0. */
  const add = (name: string, age: number, rows = 2) =>
    writeJsonLines(
      dir,
      name,
      Array.from({ length: rows }, (_, i) => ({ file: name, n: i + 1 })),
      { mtime: T0 + age },
    );
  return { dir, metadataPath, source, add };
}

/** The distinct files a batch read, in the order they were read. */
/** Writes `name` as a gzip of JSON lines inflating to about `bytes` bytes, modified `age` s after T0. */
function addGzip(dir: string, name: string, age: number, bytes: number): void {
  const line = JSON.stringify({ file: name, n: 1 }) + '\n';
  const file = path.join(dir, name);
  writeFileSync(file, gzipSync(line.repeat(Math.ceil(bytes / line.length))));
  utimesSync(file, T0 + age, T0 + age);
}

function statSize(dir: string, name: string): number {
  return statSync(path.join(dir, name)).size;
}

async function filesOf(
  source: FileStreamSource,
  start: Offset | undefined,
  end: Offset,
): Promise<string[]> {
  const rows = await source.getBatch(start, end);
  return [...new Set(rows.map((r) => r[0] as string))];
}

/** Plans batches from `start` until nothing new is admitted; the files of each batch. */
async function drain(source: FileStreamSource, start?: Offset): Promise<string[][]> {
  const batches: string[][] = [];
  for (;;) {
    const end = await source.latestOffset(start);
    if (end === start) return batches;
    batches.push(await filesOf(source, start, end));
    start = end;
  }
}

describe('FileStreamSource over a local directory', () => {
  it('needs a checkpoint to keep its seen-files log in', () => {
    const files = new DirectoryListing('/data/in');
    const create = () => new FileStreamSource({ files, format: 'json', read: { schema } }, {});
    expect(create).toThrow(InvalidOptionError);
    expect(create).toThrow(/FileSource\[\/data\/in\] needs a checkpoint/);
  });

  it('has no offset while the directory is empty or missing, and keeps its offset while no new file arrives', async () => {
    const { source, add } = fixture();
    const s = source();
    expect(await s.latestOffset(undefined)).toBeUndefined();
    const missing = new FileStreamSource(
      {
        files: new DirectoryListing(path.join(tempDir(), 'not-yet')),
        format: 'json',
        read: { schema },
      },
      { metadataStore: new LocalDirectoryStore(tempDir()) },
    );
    expect(await missing.latestOffset(undefined)).toBeUndefined();
    add('a.json', 0);
    const end = await s.latestOffset(undefined);
    expect(await s.latestOffset(end)).toBe(end);
  });

  it('admits files oldest first by modification time, whatever their names', async () => {
    const { source, add } = fixture();
    add('b.json', 0);
    add('a.json', 20);
    add('c.json', 10);
    expect(await drain(source({ maxFilesPerTrigger: 1 }))).toEqual([
      ['b.json'],
      ['c.json'],
      ['a.json'],
    ]);
  });

  it('admits files of the same modification time in name order', async () => {
    const { source, add } = fixture();
    for (const name of ['b.json', 'c.json', 'a.json']) add(name, 0);
    expect(await drain(source())).toEqual([['a.json', 'b.json', 'c.json']]);
  });

  it('admits at most maxFilesPerTrigger files per batch', async () => {
    const { source, add } = fixture();
    for (let i = 0; i < 5; i++) add(`f${i}.json`, i);
    expect(await drain(source({ maxFilesPerTrigger: 2 }))).toEqual([
      ['f0.json', 'f1.json'],
      ['f2.json', 'f3.json'],
      ['f4.json'],
    ]);
  });

  it('admits files up to maxBytesPerTrigger per batch, and a larger file alone', async () => {
    const { source, add } = fixture();
    add('small-1.json', 0, 2);
    add('small-2.json', 1, 2);
    add('large.json', 2, 40);
    add('small-3.json', 3, 2);
    const twoSmall = (await source().latestOffset(undefined)) as FileSourceOffset;
    const smallBytes = twoSmall.files![0].size + twoSmall.files![1].size;
    expect(await drain(source({ maxBytesPerTrigger: smallBytes }))).toEqual([
      ['small-1.json', 'small-2.json'],
      ['large.json'],
      ['small-3.json'],
    ]);
  });

  it('counts a .gz file at the size it inflates to, so a batch of small .gz files stays within maxBytesPerTrigger', async () => {
    const { dir, source } = fixture();
    const names = ['a.json.gz', 'b.json.gz', 'c.json.gz'];
    names.forEach((name, i) => addGzip(dir, name, i, 80_000));
    const sizes = names.map((name) => statSize(dir, name));
    expect(sizes.every((size) => size * 3 < 100_000)).toBe(true); // all three fit when compressed
    expect(await drain(source({ maxBytesPerTrigger: 100_000 }))).toEqual(names.map((n) => [n]));
  });

  it('records the counted size of an admitted .gz in the file list, so a batch re-run from its intent reads the same files', async () => {
    const { dir, source } = fixture();
    ['a.json.gz', 'b.json.gz'].forEach((name, i) => addGzip(dir, name, i, 80_000));
    const planned = (await source({ maxBytesPerTrigger: 100_000 }).latestOffset(
      undefined,
    )) as FileSourceOffset;
    const inflated = gunzipSync(readFileSync(path.join(dir, 'a.json.gz'))).byteLength;
    expect(planned.files).toEqual([
      expect.objectContaining({ path: 'a.json.gz', countedSize: inflated }),
    ]);
    // the run crashed after writing the intent; the restarted run reads the intent's batch
    const restarted = source({ maxBytesPerTrigger: 100_000 });
    expect(await filesOf(restarted, undefined, planned)).toEqual(['a.json.gz']);
    const next = await restarted.latestOffset(planned);
    expect(await filesOf(restarted, planned, next)).toEqual(['b.json.gz']);
  });

  it('counts a .gz whose recorded size is below its compressed size (truncated or wrapped) at its compressed size', async () => {
    const { dir, source } = fixture();
    addGzip(dir, 'a.json.gz', 0, 80_000);
    const file = path.join(dir, 'a.json.gz');
    const bytes = readFileSync(file);
    bytes.writeUInt32LE(1, bytes.byteLength - 4); // ISIZE says 1 byte
    writeFileSync(file, bytes);
    utimesSync(file, T0, T0);
    const planned = (await source({ maxBytesPerTrigger: 100_000 }).latestOffset(
      undefined,
    )) as FileSourceOffset;
    expect(planned.files?.[0].countedSize).toBe(bytes.byteLength);
  });

  it('counts the listed size of a file not named .gz, and of a .gz on a listing that cannot read a range', async () => {
    const { dir, metadataPath } = fixture();
    ['a.json.gz', 'b.json.gz'].forEach((name, i) => addGzip(dir, name, i, 80_000));
    writeFileSync(
      path.join(dir, 'c.json'),
      gzipSync(JSON.stringify({ file: 'c', n: 1 }).repeat(9_000)),
    );
    utimesSync(path.join(dir, 'c.json'), T0 + 2, T0 + 2);
    const full = new DirectoryListing(dir);
    const withoutRanges: FileListing = {
      location: full.location,
      list: (startAfter) => full.list(startAfter),
      read: (file) => full.read(file),
      nameOf: (file) => full.nameOf(file),
    };
    const planned = (await new FileStreamSource(
      { files: withoutRanges, format: 'json', read: { schema }, maxBytesPerTrigger: 100_000 },
      { metadataStore: new LocalDirectoryStore(metadataPath) },
    ).latestOffset(undefined)) as FileSourceOffset;
    expect(planned.files?.map((f) => [f.path, f.size, f.countedSize])).toEqual(
      ['a.json.gz', 'b.json.gz', 'c.json'].map((name) => [name, statSize(dir, name), undefined]),
    );
  });

  it('applies both limits when both are set', async () => {
    const { source, add } = fixture();
    for (let i = 0; i < 4; i++) add(`f${i}.json`, i);
    expect(await drain(source({ maxFilesPerTrigger: 3, maxBytesPerTrigger: 1_000_000 }))).toEqual([
      ['f0.json', 'f1.json', 'f2.json'],
      ['f3.json'],
    ]);
  });

  it('admits the newest files first with latestFirst', async () => {
    const { source, add } = fixture();
    add('old.json', 0);
    add('new.json', 20);
    add('mid.json', 10);
    expect(await drain(source({ maxFilesPerTrigger: 2, latestFirst: true }))).toEqual([
      ['new.json', 'mid.json'],
      ['old.json'],
    ]);
  });

  it('ignores files and directories whose names start with . or _, and reads nested directories', async () => {
    const { source, add } = fixture();
    add('.hidden.json', 0);
    add('_SUCCESS', 0);
    add('_temporary/part-0.json', 0);
    add('.staging/part-1.json', 0);
    add('visible.json', 1);
    add('2026/01/nested.json', 2);
    expect(await drain(source())).toEqual([['visible.json', '2026/01/nested.json']]);
  });

  it('records the files of a batch in its offset, so even a source without its seen-files log replays them', async () => {
    const { source, add, dir } = fixture();
    add('a.json', 0);
    add('b.json', 1);
    const s = source();
    const end = (await s.latestOffset(undefined)) as FileSourceOffset;
    expect(end.files!.map((f) => f.path)).toEqual(['a.json', 'b.json']);
    expect(end.logOffset).toBe(0);
    const rows = await s.getBatch(undefined, end);
    add('c.json', 2);
    await s.latestOffset(end);
    expect(await s.getBatch(undefined, end)).toEqual(rows);
    const emptyCheckpoint = new FileStreamSource(
      { files: new DirectoryListing(dir), format: 'json', read: { schema } },
      { metadataStore: new LocalDirectoryStore(tempDir()) },
    );
    expect(await emptyCheckpoint.getBatch(undefined, end)).toEqual(rows);
  });

  it('keeps a long file list out of the offset, in an object of its checkpoint that the offset names', async () => {
    const { source, add, metadataPath } = fixture();
    for (let i = 0; i < 6; i++) add(`file-with-a-long-name-${i}.json`, i);
    const s = source({ maxInlineFileListBytes: 200 });
    const end = (await s.latestOffset(undefined)) as FileSourceOffset;
    expect(end.files).toBeUndefined();
    expect(end.filesKey).toMatch(/^files\/0{20}-[0-9a-f-]{36}\.json$/);
    expect(JSON.stringify(end).length).toBeLessThan(200);
    expect(readdirSync(path.join(metadataPath, 'files'))).toEqual([end.filesKey!.slice(6)]);
    const expected = Array.from({ length: 6 }, (_, i) => `file-with-a-long-name-${i}.json`);
    expect(await filesOf(source(), undefined, end)).toEqual(expected);

    rmSync(path.join(metadataPath, 'files'), { recursive: true });
    await expect(source().getBatch(undefined, end)).rejects.toThrow(CheckpointError);
    await expect(source().getBatch(undefined, end)).rejects.toThrow(end.filesKey!);
  });

  it('never admits a file again after a restart, even one with an older modification time', async () => {
    const { source, add } = fixture();
    add('a.json', 10);
    add('b.json', 20);
    const end = await source().latestOffset(undefined);

    const restarted = source();
    expect(await restarted.latestOffset(end)).toBe(end);
    add('c.json', 30);
    add('older-but-new.json', 0);
    expect(await drain(restarted, end)).toEqual([['older-but-new.json', 'c.json']]);
  });

  it('records nothing as seen before the batch commits: planning again from the same start admits the files again', async () => {
    const { source, add } = fixture();
    add('a.json', 0);
    add('b.json', 1);
    const crashed = source();
    await crashed.latestOffset(undefined); // its intent was never written
    add('c.json', 2);
    const retry = source();
    expect(await filesOf(retry, undefined, await retry.latestOffset(undefined))).toEqual([
      'a.json',
      'b.json',
      'c.json',
    ]);
  });

  it('lets the intent decide between two runs that planned the same batch differently, and loses no file', async () => {
    const { source, add } = fixture();
    add('old.json', 0);
    add('new.json', 10);
    const oldestFirst = source({ maxFilesPerTrigger: 1 });
    const newestFirst = source({ maxFilesPerTrigger: 1, latestFirst: true });
    const [a, b] = await Promise.all([
      oldestFirst.latestOffset(undefined),
      newestFirst.latestOffset(undefined),
    ]);
    expect(await filesOf(oldestFirst, undefined, a)).toEqual(['old.json']);
    expect(await filesOf(oldestFirst, undefined, b)).toEqual(['new.json']);
    // the checkpoint kept b's intent: both runs go on from it and admit old.json next
    for (const run of [oldestFirst, newestFirst]) {
      const next = await run.latestOffset(b);
      expect(await filesOf(run, b, next)).toEqual(['old.json']);
    }
  });

  it('keeps one seen-files record per committed batch and a compaction every 10 batches', async () => {
    const { source, add, metadataPath } = fixture();
    const s = source({ maxFilesPerTrigger: 1 });
    for (let i = 0; i < COMPACT_INTERVAL + 2; i++) add(`f${String(i).padStart(2, '0')}.json`, i);
    const batches = await drain(s); // ends with a planning from the last batch, which records it
    expect(batches).toHaveLength(COMPACT_INTERVAL + 2);
    const id = (n: number) => String(n).padStart(20, '0');
    expect(readdirSync(path.join(metadataPath, 'seen')).sort()).toEqual(
      [
        ...Array.from({ length: COMPACT_INTERVAL + 2 }, (_, i) => `${id(i)}.json`),
        `${id(COMPACT_INTERVAL - 1)}.compact.json`,
      ].sort(),
    );
  });

  it('loads what it has seen from the compaction and the records after it', async () => {
    const { source, add, metadataPath } = fixture();
    const names = Array.from(
      { length: COMPACT_INTERVAL + 3 },
      (_, i) => `f${String(i).padStart(2, '0')}.json`,
    );
    names.forEach((name, i) => add(name, i));
    let end: Offset | undefined;
    const s = source({ maxFilesPerTrigger: 1 });
    for (let i = 0; i < names.length; i++) end = await s.latestOffset(end);
    await s.latestOffset(end); // records the last batch
    // records before the compaction are no longer needed to know what was seen
    for (let i = 0; i < COMPACT_INTERVAL; i++) {
      rmSync(path.join(metadataPath, 'seen', `${String(i).padStart(20, '0')}.json`));
    }
    add('late.json', 100);
    expect(await drain(source(), end)).toEqual([['late.json']]);
  });

  it('ignores files older than maxFileAge before the newest file it admitted', async () => {
    const { source, add } = fixture();
    add('recent.json', 10 * DAY);
    const end = await source().latestOffset(undefined);
    add('eight-days-older.json', 2 * DAY);
    add('six-days-older.json', 4 * DAY);
    expect(await drain(source(), end)).toEqual([['six-days-older.json']]);
    expect(await drain(source({ maxFileAgeMs: 3 * DAY * 1000 }), end)).toEqual([]);
  });

  it('admits files of any age in the first batch, and ignores maxFileAge with latestFirst and a limit, as Spark', async () => {
    const { source, add } = fixture();
    add('ancient.json', 0);
    add('recent.json', 30 * DAY);
    expect(await drain(source())).toEqual([['ancient.json', 'recent.json']]);

    const other = fixture();
    other.add('ancient.json', 0);
    other.add('recent.json', 30 * DAY);
    expect(await drain(other.source({ latestFirst: true, maxFilesPerTrigger: 1 }))).toEqual([
      ['recent.json'],
      ['ancient.json'],
    ]);
  });

  it('refuses a longer maxFileAge than its checkpoint remembers files for, naming the option', async () => {
    const { source, add } = fixture();
    for (let i = 0; i < COMPACT_INTERVAL + 1; i++) add(`f${String(i).padStart(2, '0')}.json`, i);
    const limited = source({ maxFilesPerTrigger: 1, maxFileAgeMs: 60_000 });
    let end: Offset | undefined;
    for (let i = 0; i < COMPACT_INTERVAL + 1; i++) end = await limited.latestOffset(end);
    const longer = source({ maxFilesPerTrigger: 1, maxFileAgeMs: 120_000 });
    await expect(longer.latestOffset(end)).rejects.toThrow(InvalidOptionError);
    await expect(longer.latestOffset(end)).rejects.toThrow(
      /Set option maxFileAge to at most 60000 ms/,
    );
    expect(await source({ maxFilesPerTrigger: 1, maxFileAgeMs: 30_000 }).latestOffset(end)).toBe(
      end,
    );
  });

  it('fails with a CheckpointError naming the record when its seen-files log is corrupt', async () => {
    const { source, add, metadataPath } = fixture();
    add('a.json', 0);
    const end = await source().latestOffset(undefined);
    add('b.json', 1);
    const next = await source().latestOffset(end); // records batch 0
    const record = path.join(metadataPath, 'seen', `${'0'.padStart(20, '0')}.json`);
    writeFileSync(record, '{"formatVersion":1,"logOffset":0,"files":[{"pa');
    const error = await source()
      .latestOffset(next)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toContain(record);
  });

  it('fails with a CheckpointError, rather than admitting files again, when its log lost records the offsets refer to', async () => {
    const { source, add, metadataPath } = fixture();
    add('a.json', 0);
    add('b.json', 1);
    const s = source({ maxFilesPerTrigger: 1 });
    const first = await s.latestOffset(undefined);
    const second = await s.latestOffset(first);
    rmSync(metadataPath, { recursive: true });
    await expect(source().latestOffset(second)).rejects.toThrow(CheckpointError);
    await expect(source().latestOffset(second)).rejects.toThrow(
      /seen-files log lacks .*0{20}\.json/,
    );
  });

  it('recovers the record of the last committed batch from its offset', async () => {
    const { source, add, metadataPath } = fixture();
    add('a.json', 0);
    const end = await source().latestOffset(undefined);
    await source().latestOffset(end);
    rmSync(metadataPath, { recursive: true }); // as if the run died between the commit and the record
    add('b.json', 1);
    expect(await drain(source(), end)).toEqual([['b.json']]);
  });

  it('refuses offsets it did not write, such as the numbered offsets of an older file source', async () => {
    const { source } = fixture();
    await expect(source().latestOffset(5)).rejects.toThrow(CheckpointError);
    await expect(source().getBatch(undefined, 5)).rejects.toThrow(
      /not a file source offset of format version 1/,
    );
  });

  it('reads a batch that another run planned', async () => {
    const { source, add } = fixture();
    const reader = source();
    expect(await reader.latestOffset(undefined)).toBeUndefined();
    add('a.json', 0);
    const end = await source().latestOffset(undefined);
    expect(await filesOf(reader, undefined, end!)).toEqual(['a.json']);
  });

  it('counts the files not admitted yet as its backlog', async () => {
    const { source, add } = fixture();
    for (let i = 0; i < 5; i++) add(`f${i}.json`, i);
    const s = source({ maxFilesPerTrigger: 2 });
    expect(await s.backlog(undefined)).toBe(5);
    const end = await s.latestOffset(undefined);
    expect(await s.backlog(end)).toBe(3);
  });

  it('with incrementalListing, admits in path order and never reads a file whose path sorts before one admitted', async () => {
    const { source, add } = fixture();
    add('2026-01-02.json', 0);
    add('2026-01-01.json', 5);
    const s = source({ incrementalListing: true });
    const end = (await s.latestOffset(undefined)) as FileSourceOffset;
    expect(await filesOf(s, undefined, end)).toEqual(['2026-01-01.json', '2026-01-02.json']);
    expect(end.lastPath).toBe('2026-01-02.json');
    add('2025-12-31.json', 10); // late, and sorts before 2026-01-02.json: documented as never read
    add('2026-01-03.json', 10);
    expect(await drain(s, end)).toEqual([['2026-01-03.json']]);
    // the default listing finds it
    expect(await drain(source(), end)).toEqual([['2025-12-31.json', '2026-01-03.json']]);
  });

  it('refuses latestFirst with incrementalListing', () => {
    const { source } = fixture();
    expect(() => source({ incrementalListing: true, latestFirst: true })).toThrow(
      /latestFirst and incrementalListing cannot be combined/,
    );
  });

  it('reads CSV files record by record, within maxRecordBytes, naming a file whose record is longer', async () => {
    const { source, dir } = fixture();
    const csvSchema = parseSchema('file STRING, note STRING');
    writeFileSync(path.join(dir, 'many.csv'), 'many,"line one\nline two"\n'.repeat(5000));
    const small = source({ format: 'csv', read: { schema: csvSchema, maxRecordBytes: 1024 } });
    const rows = await small.getBatch(undefined, await small.latestOffset(undefined));
    expect(rows.length).toBe(5000);
    expect(rows[4999]).toEqual(['many', 'line one\nline two']);

    const other = fixture();
    writeFileSync(path.join(other.dir, 'wide.csv'), `wide,"${'x'.repeat(5000)}"\n`);
    for (const mode of ['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'] as const) {
      const s = other.source({
        format: 'csv',
        read: { schema: csvSchema, mode, maxRecordBytes: 1024 },
      });
      await expect(s.getBatch(undefined, await s.latestOffset(undefined))).rejects.toThrow(
        `${path.join(other.dir, 'wide.csv')} has a CSV record longer than maxRecordBytes (1024 bytes)`,
      );
    }
  });

  it('names the file when its content is bad', async () => {
    const { source, add, dir } = fixture();
    writeFileSync(path.join(dir, 'broken.json.gz'), 'not gzip');
    add('fine.json', 1);
    const s = source({ read: { schema, mode: 'FAILFAST' } });
    const end = await s.latestOffset(undefined);
    await expect(s.getBatch(undefined, end)).rejects.toThrow(path.join(dir, 'broken.json.gz'));

    const other = fixture();
    writeFileSync(path.join(other.dir, 'malformed.json'), '{"file": "x", "n": 1}\n{"file": \n');
    const failFast = other.source({ read: { schema, mode: 'FAILFAST' } });
    const end2 = await failFast.latestOffset(undefined);
    await expect(failFast.getBatch(undefined, end2)).rejects.toThrow(
      path.join(other.dir, 'malformed.json'),
    );
  });

  it('fails naming the file when a planned file was deleted', async () => {
    const { source, add, dir } = fixture();
    add('a.json', 0);
    const s = source();
    const end = await s.latestOffset(undefined);
    rmSync(path.join(dir, 'a.json'));
    await expect(s.getBatch(undefined, end)).rejects.toThrow(
      new RegExp(`Cannot read ${path.join(dir, 'a.json')}, which a planned batch lists`),
    );
  });
});
