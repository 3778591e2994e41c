import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointError, InvalidOptionError } from '../../core/errors.js';
import type { Offset } from '../../core/sources/source.js';
import { type FileStreamOptions, FileStreamSource } from '../../core/sources/file-stream-source.js';
import { parseSchema } from '../../core/types/type-names.js';
import { writeJsonLines } from '../support/files.js';
import { tempDir } from '../support/temp-dir.js';

const schema = parseSchema('file STRING, n INT');
/** 2026-01-01T00:00:00Z in seconds: file ages are set relative to it. */
const T0 = 1_767_225_600;

/** A directory to watch and a checkpoint directory for the source's file log. */
function fixture() {
  const dir = tempDir('sluice-input-');
  const metadataPath = path.join(tempDir('sluice-checkpoint-'), 'sources', '0');
  const source = (options: Partial<FileStreamOptions> = {}) =>
    new FileStreamSource(
      { directory: dir, format: 'json', read: { schema }, ...options },
      { metadataPath },
    );
  /** Writes a file of two rows tagged with its name, modified `age` seconds after T0. */
  const add = (name: string, age: number) =>
    writeJsonLines(
      dir,
      name,
      [
        { file: name, n: 1 },
        { file: name, n: 2 },
      ],
      { mtime: T0 + age },
    );
  return { dir, metadataPath, source, add };
}

/** The distinct files a batch read, in the order they were read. */
async function filesOf(
  source: FileStreamSource,
  start: Offset | undefined,
  end: Offset,
): Promise<string[]> {
  const rows = await source.getBatch(start, end);
  return [...new Set(rows.map((r) => r[0] as string))];
}

describe('FileStreamSource', () => {
  it('needs a checkpoint directory to keep its file log in', () => {
    expect(
      () => new FileStreamSource({ directory: '/data/in', format: 'json', read: { schema } }, {}),
    ).toThrow(InvalidOptionError);
    expect(
      () => new FileStreamSource({ directory: '/data/in', format: 'json', read: { schema } }, {}),
    ).toThrow(/FileSource\[\/data\/in\] needs a checkpointLocation/);
  });

  it('has no offset while the directory is empty, and keeps its offset while no new file arrives', async () => {
    const { source, add } = fixture();
    const s = source();
    expect(await s.latestOffset(undefined)).toBeUndefined();
    add('a.json', 0);
    const end = await s.latestOffset(undefined);
    expect(await s.latestOffset(end)).toBe(end);
  });

  it('admits files oldest first by modification time, whatever their names', async () => {
    const { source, add } = fixture();
    add('b.json', 0);
    add('a.json', 20);
    add('c.json', 10);
    const s = source({ maxFilesPerTrigger: 1 });
    let start: Offset | undefined;
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const end = await s.latestOffset(start);
      order.push(...(await filesOf(s, start, end)));
      start = end;
    }
    expect(order).toEqual(['b.json', 'c.json', 'a.json']);
  });

  it('admits files of the same modification time in name order', async () => {
    const { source, add } = fixture();
    for (const name of ['b.json', 'c.json', 'a.json']) add(name, 0);
    const s = source();
    expect(await filesOf(s, undefined, await s.latestOffset(undefined))).toEqual([
      'a.json',
      'b.json',
      'c.json',
    ]);
  });

  it('admits at most maxFilesPerTrigger files per batch', async () => {
    const { source, add } = fixture();
    for (let i = 0; i < 5; i++) add(`f${i}.json`, i);
    const s = source({ maxFilesPerTrigger: 2 });
    const ends: Offset[] = [];
    let start: Offset | undefined;
    for (let i = 0; i < 4; i++) {
      start = await s.latestOffset(start);
      ends.push(start);
    }
    expect(ends).toEqual([2, 4, 5, 5]);
    expect(await filesOf(s, 2, 4)).toEqual(['f2.json', 'f3.json']);
    expect(await s.getBatch(4, 5)).toEqual([
      ['f4.json', 1],
      ['f4.json', 2],
    ]);
  });

  it('admits the newest files first with latestFirst', async () => {
    const { source, add } = fixture();
    add('old.json', 0);
    add('new.json', 20);
    add('mid.json', 10);
    const s = source({ maxFilesPerTrigger: 2, latestFirst: true });
    const first = await s.latestOffset(undefined);
    expect(await filesOf(s, undefined, first)).toEqual(['new.json', 'mid.json']);
    expect(await filesOf(s, first, await s.latestOffset(first))).toEqual(['old.json']);
  });

  it('ignores files and directories whose names start with . or _, and reads nested directories', async () => {
    const { source, add } = fixture();
    add('.hidden.json', 0);
    add('_SUCCESS', 0);
    add('_temporary/part-0.json', 0);
    add('.staging/part-1.json', 0);
    add('visible.json', 1);
    add('2026/01/nested.json', 2);
    const s = source();
    expect(await filesOf(s, undefined, await s.latestOffset(undefined))).toEqual([
      'visible.json',
      '2026/01/nested.json',
    ]);
  });

  it('replays the same files for the same offsets, also in a new source on the same checkpoint', async () => {
    const { source, add } = fixture();
    add('a.json', 0);
    add('b.json', 1);
    const s = source();
    const end = await s.latestOffset(undefined);
    const rows = await s.getBatch(undefined, end);
    add('c.json', 2);
    await s.latestOffset(end);
    expect(await s.getBatch(undefined, end)).toEqual(rows);
    expect(await source().getBatch(undefined, end)).toEqual(rows);
  });

  it('never admits a file again after a restart, even one with an older modification time', async () => {
    const { source, add } = fixture();
    add('a.json', 10);
    add('b.json', 20);
    const first = source();
    const end = await first.latestOffset(undefined);

    const restarted = source();
    expect(await restarted.latestOffset(end)).toBe(end);
    add('c.json', 30);
    add('older-but-new.json', 0);
    const next = await restarted.latestOffset(end);
    expect(await filesOf(restarted, end, next)).toEqual(['older-but-new.json', 'c.json']);
    expect(await restarted.latestOffset(next)).toBe(next);
  });

  it('reuses the log entry a crashed attempt wrote: planning from the same start again gives the same end', async () => {
    const { source, add } = fixture();
    add('a.json', 0);
    add('b.json', 1);
    const crashed = source({ maxFilesPerTrigger: 5 });
    const end = await crashed.latestOffset(undefined); // wrote its log entry, then died before its intent
    add('c.json', 2);

    const retry = source({ maxFilesPerTrigger: 5 });
    expect(await retry.latestOffset(undefined)).toBe(end);
    expect(await filesOf(retry, undefined, end)).toEqual(['a.json', 'b.json']);
    // the same holds within one run
    expect(await crashed.latestOffset(undefined)).toBe(end);
    // and the new file goes to the next batch
    const next = await retry.latestOffset(end);
    expect(await filesOf(retry, end, next)).toEqual(['c.json']);
  });

  it('makes two runs planning the same batch at once agree on the files of the run that wrote the log entry first', async () => {
    const { source, add } = fixture();
    add('old.json', 0);
    add('new.json', 10);
    const oldestFirst = source({ maxFilesPerTrigger: 1 });
    const newestFirst = source({ maxFilesPerTrigger: 1, latestFirst: true });
    const [a, b] = await Promise.all([
      oldestFirst.latestOffset(undefined),
      newestFirst.latestOffset(undefined),
    ]);
    expect(a).toBe(1);
    expect(b).toBe(1);
    const files = await filesOf(oldestFirst, undefined, 1);
    expect(files).toHaveLength(1);
    expect(await filesOf(newestFirst, undefined, 1)).toEqual(files);
  });

  it('keeps one log entry per planning step in its checkpoint directory', async () => {
    const { source, add, metadataPath } = fixture();
    add('a.json', 0);
    const s = source();
    const end = await s.latestOffset(undefined);
    await s.latestOffset(end); // nothing new: no entry
    add('b.json', 1);
    await s.latestOffset(end);
    expect(readdirSync(metadataPath).sort()).toEqual([
      `${'0'.padStart(20, '0')}.json`,
      `${'1'.padStart(20, '0')}.json`,
    ]);
  });

  it('fails with a CheckpointError naming the file when its file log is corrupt', async () => {
    const { source, add, metadataPath } = fixture();
    add('a.json', 0);
    await source().latestOffset(undefined);
    const entry = path.join(metadataPath, readdirSync(metadataPath)[0]);
    writeFileSync(entry, '{"formatVersion":1,"start":0,"files":["/da');
    const error = await source()
      .latestOffset(undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toContain(entry);
  });

  it('fails with a CheckpointError, rather than admitting files again, when its log is shorter than the offsets asked for', async () => {
    const { source, add, metadataPath } = fixture();
    add('a.json', 0);
    add('b.json', 1);
    const end = await source().latestOffset(undefined);
    rmSync(metadataPath, { recursive: true });
    await expect(source().latestOffset(end)).rejects.toThrow(CheckpointError);
    await expect(source().latestOffset(end)).rejects.toThrow(
      `lists 0 files, but the checkpoint's offsets refer to 2`,
    );
    await expect(source().getBatch(undefined, end!)).rejects.toThrow(CheckpointError);
  });

  it('reads a batch that another run planned after this source last read its log', async () => {
    const { source, add } = fixture();
    const reader = source();
    expect(await reader.latestOffset(undefined)).toBeUndefined(); // reads the (empty) log
    add('a.json', 0);
    const end = await source().latestOffset(undefined); // another run admits a.json
    expect(await filesOf(reader, undefined, end!)).toEqual(['a.json']);
  });

  it('fails with a CheckpointError when an entry of its file log is missing', async () => {
    const { source, add, metadataPath } = fixture();
    const s = source({ maxFilesPerTrigger: 1 });
    add('a.json', 0);
    add('b.json', 1);
    await s.latestOffset(await s.latestOffset(undefined));
    writeFileSync(
      path.join(metadataPath, readdirSync(metadataPath)[0]),
      JSON.stringify({ formatVersion: 1, start: 5, files: [] }),
    );
    await expect(source().latestOffset(undefined)).rejects.toThrow(/corrupt or out of order/);
  });
});
