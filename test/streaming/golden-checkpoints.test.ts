/**
 * Golden checkpoints: checkpoints written by an earlier Sluice and checked in, frozen, under
 * test/fixtures/golden-checkpoints/ (its README says what each holds). Each test copies one, restarts
 * its query on it, adds input and checks that the stream continues exactly where it stopped: what
 * the checkpointed batches wrote is neither written again nor lost, and state carries over, so the
 * output equals the batch query over all input. A checkpoint of a format version this code does not
 * know is refused, naming the version.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CheckpointError,
  type RowObject,
  SinkError,
  SluiceSession,
  type StreamingQueryProgress,
} from '../../core/index.js';
import { encodeCheckpointRecord } from '../../core/checkpoint/checkpoint-record.js';
import { decodeChecksummedRecord } from '../../core/checkpoint/checksummed-record.js';
import { isTextProblem, openText, sealText } from '../../core/checkpoint/checksummed-text.js';
import {
  type CaseDirectories,
  caseDirectories,
  fixSourceFileTime,
  type GoldenQuery,
  SOURCE_FILE_MTIME,
  statelessFileSink,
  updateAggregation,
  windowedCountAppend,
  windowedCountCrashed,
} from '../fixtures/golden-checkpoints/golden-queries.js';
import { writeJsonLines } from '../support/files.js';
import { tempDir } from '../support/temp-dir.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/golden-checkpoints/', import.meta.url));

/** A working copy of a golden case, its source files at the time the checkpoint recorded. */
function copyOf(golden: GoldenQuery): CaseDirectories {
  const root = tempDir('sluice-golden-');
  cpSync(path.join(FIXTURES, golden.name), root, { recursive: true });
  const dirs = caseDirectories(root);
  for (const file of readdirSync(dirs.source)) fixSourceFileTime(path.join(dirs.source, file));
  return dirs;
}

/** A row of the case's source, at 2026-12-01 `hhmm` (UTC). */
function event(hhmm: string, category: string, amount = 1) {
  return { ts: `2026-12-01T${hhmm}:00Z`, category, amount };
}

/** Adds a source file, with the modification time every golden source file has. */
function addSourceFile(dirs: CaseDirectories, name: string, rows: readonly object[]): void {
  writeJsonLines(dirs.source, name, rows, { mtime: SOURCE_FILE_MTIME });
}

/**
 * Restarts the case's query on its checkpoint and runs what is available (availableNow, as a
 * scheduled job would), returning each batch's progress and rows.
 */
async function restart(golden: GoldenQuery, dirs: CaseDirectories) {
  const session = new SluiceSession();
  const batches: { batchId: number; rows: RowObject[] }[] = [];
  const progress: StreamingQueryProgress[] = [];
  let writer = golden.writer(golden.query(session, dirs.source), dirs);
  if (golden === updateAggregation) {
    writer = writer.foreachBatch(async (batch, batchId) => {
      batches.push({ batchId, rows: await batch.collect() });
    });
  }
  const query = await writer
    .trigger({ availableNow: true })
    .onProgress((p) => progress.push(p))
    .start();
  await query.awaitTermination();
  return { batches, progress };
}

/** The error a restart of the case fails with. */
async function restartFailure(golden: GoldenQuery, dirs: CaseDirectories): Promise<unknown> {
  try {
    await restart(golden, dirs);
  } catch (e) {
    return e;
  }
  throw new Error(`The restart of ${golden.name} did not fail.`);
}

/** The case's query over every source file, as a table. */
function batchResult(golden: GoldenQuery, dirs: CaseDirectories): Promise<RowObject[]> {
  return golden.query(new SluiceSession(), dirs.source, true).collect();
}

/** What the case's file sink holds, read through its manifest log. */
async function sinkOutput(dirs: CaseDirectories, schema: string): Promise<RowObject[]> {
  return await new SluiceSession().read.schema(schema).json(dirs.output).collect();
}

/** Rows as sorted JSON texts: equal lists hold the same rows, each as many times. */
function sortedRows(rows: readonly RowObject[]): string[] {
  return rows.map((r) => JSON.stringify(r)).sort();
}

const WINDOWED_OUTPUT =
  'window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, category STRING, count BIGINT';
const STATELESS_OUTPUT = 'category STRING, doubled INT';

/** 2026-12-01 at `hhmm` (UTC). */
function time(hhmm: string): Date {
  return new Date(`2026-12-01T${hhmm}:00Z`);
}

describe('a golden checkpoint of the windowed count in append mode', () => {
  it('restarts without re-reading a file or re-emitting a window', async () => {
    const dirs = copyOf(windowedCountAppend);
    const before = await sinkOutput(dirs, WINDOWED_OUTPUT);
    const { progress } = await restart(windowedCountAppend, dirs);
    expect(progress).toEqual([]);
    expect(sortedRows(await sinkOutput(dirs, WINDOWED_OUTPUT))).toEqual(sortedRows(before));
  });

  it('continues with the open windows held in state: every closed window once, as the batch query counts it', async () => {
    const dirs = copyOf(windowedCountAppend);
    // 10:27 c and 10:29 a join windows opened before the checkpoint; 11:30 moves the watermark to
    // 11:20, which closes every window but its own.
    addSourceFile(dirs, '004.json', [
      event('10:27', 'c'),
      event('10:29', 'a'),
      event('11:30', 'z'),
    ]);
    const { progress } = await restart(windowedCountAppend, dirs);
    expect(progress.map((p) => [p.batchId, p.numInputRows, p.stateLoad])).toEqual([
      [8, 3, 'cold'],
      [9, 0, 'warm'],
    ]);
    const closed = (await batchResult(windowedCountAppend, dirs)).filter(
      (r) => (r.window as { end: Date }).end <= time('11:20'),
    );
    expect(sortedRows(await sinkOutput(dirs, WINDOWED_OUTPUT))).toEqual(sortedRows(closed));
    expect(closed).toContainEqual({
      window: { start: time('10:20'), end: time('10:30') },
      category: 'a',
      count: 2,
    });
  });
});

describe('a golden checkpoint of the windowed count killed in the middle of a batch', () => {
  it('re-runs the batch from the intent the old version wrote, then goes on: every closed window once', async () => {
    const dirs = copyOf(windowedCountCrashed);
    // arrives after the crash: the re-run batch 8 must not read it, its intent lists 004.json only
    addSourceFile(dirs, '005.json', [event('11:30', 'z')]);
    const { progress } = await restart(windowedCountCrashed, dirs);
    expect(progress[0].batchId).toBe(8);
    expect(progress[0].sources[0].numInputRows).toBe(2);
    expect(progress.reduce((n, p) => n + p.numInputRows, 0)).toBe(3);
    const closed = (await batchResult(windowedCountCrashed, dirs)).filter(
      (r) => (r.window as { end: Date }).end <= time('11:20'),
    );
    expect(sortedRows(await sinkOutput(dirs, WINDOWED_OUTPUT))).toEqual(sortedRows(closed));
    expect(closed).toContainEqual({
      window: { start: time('10:50'), end: time('11:00') },
      category: 'a',
      count: 1,
    });
  });
});

describe('a golden checkpoint of an update-mode aggregation', () => {
  it('emits the changed groups with totals that include every checkpointed batch', async () => {
    const dirs = copyOf(updateAggregation);
    addSourceFile(dirs, '004.json', [event('09:10', 'a', 10), event('09:11', 'c', 1)]);
    const { batches } = await restart(updateAggregation, dirs);
    const changed = (await batchResult(updateAggregation, dirs)).filter((r) =>
      ['a', 'c'].includes(r.category as string),
    );
    expect(batches.map((b) => b.batchId)).toEqual([4]);
    expect(sortedRows(batches[0].rows)).toEqual(sortedRows(changed));
    expect(changed).toContainEqual({ category: 'a', n: 4, total: 16 });
  });
});

describe('a golden checkpoint of a stateless query to a file sink', () => {
  it('adds the new files to the manifest log, so the output equals the batch query over all input', async () => {
    const dirs = copyOf(statelessFileSink);
    addSourceFile(dirs, '003.json', [event('08:10', 'e', 7), event('08:11', 'f', 1)]);
    const { progress } = await restart(statelessFileSink, dirs);
    expect(progress.map((p) => [p.batchId, p.numInputRows])).toEqual([[3, 2]]);
    const expected = await batchResult(statelessFileSink, dirs);
    expect(sortedRows(await sinkOutput(dirs, STATELESS_OUTPUT))).toEqual(sortedRows(expected));
    expect(readdirSync(path.join(dirs.output, '_sluice_metadata')).sort()).toEqual([
      '0',
      '1',
      '2',
      '3',
    ]);
  });
});

/** Rewrites a checkpoint record (checksummed JSON) with `change` applied, its checksum made valid. */
function editRecord(file: string, change: (record: Record<string, unknown>) => object): void {
  const decoded = decodeChecksummedRecord(readFileSync(file, 'utf8'));
  if ('problem' in decoded) throw new Error(`${file}: ${decoded.problem}`);
  writeFileSync(file, encodeCheckpointRecord(change(decoded.record as Record<string, unknown>)));
}

/** Rewrites a state file (checksummed text) with its header's format version set to `version`. */
function editStateFileVersion(file: string, version: number): void {
  const opened = openText(readFileSync(file, 'utf8'));
  if (isTextProblem(opened)) throw new Error(`${file}: ${opened.problem}`);
  writeFileSync(file, sealText({ ...opened.header, formatVersion: version }, opened.body));
}

/** The one file of `dir` whose name ends with `suffix` and sorts last. */
function lastFile(dir: string, suffix: string): string {
  const names = readdirSync(dir)
    .filter((n) => n.endsWith(suffix))
    .sort();
  return path.join(dir, names[names.length - 1]);
}

describe('a golden checkpoint whose format version this Sluice does not know', () => {
  const cases: readonly {
    readonly record: string;
    readonly edit: (checkpoint: string) => void;
    readonly message: RegExp;
  }[] = [
    {
      record: 'the query metadata',
      edit: (c) => editRecord(path.join(c, 'metadata.json'), (r) => ({ ...r, formatVersion: 2 })),
      message: /metadata\.json has format version 2; this Sluice reads version 1/,
    },
    {
      record: 'the last commit',
      edit: (c) =>
        editRecord(lastFile(path.join(c, 'commits'), '.json'), (r) => ({ ...r, formatVersion: 2 })),
      message:
        /commits\/00000000000000000007\.json has format version 2; this Sluice reads version 1/,
    },
    {
      record: 'the last intent',
      edit: (c) =>
        editRecord(lastFile(path.join(c, 'offsets'), '.json'), (r) => ({ ...r, formatVersion: 2 })),
      message:
        /offsets\/00000000000000000007\.json has format version 2; this Sluice reads version 1/,
    },
    {
      record: "the last intent's file source offset",
      edit: (c) =>
        editRecord(lastFile(path.join(c, 'offsets'), '.json'), (r) => ({
          ...r,
          end: (r.end as object[]).map((o) => ({ ...o, formatVersion: 2 })),
        })),
      message: /"formatVersion":2.*which is not a file source offset of format version 1/,
    },
    {
      record: 'the last state manifest',
      edit: (c) =>
        editRecord(lastFile(path.join(c, 'state', 'manifests'), '.json'), (r) => ({
          ...r,
          formatVersion: 2,
        })),
      message:
        /state\/manifests\/00000000000000000007-\w+\.json is corrupt \(unknown format version 2\)/,
    },
    {
      record: 'a state snapshot',
      edit: (c) => editStateFileVersion(lastFile(path.join(c, 'state', '0', '0'), '.snapshot'), 2),
      message:
        /state\/0\/0\/00000000000000000007-\w+\.snapshot is corrupt \(unknown format version 2\)/,
    },
  ];

  it.each(cases)('refuses $record of version 2, naming the file and the version', async (c) => {
    const dirs = copyOf(windowedCountAppend);
    c.edit(dirs.checkpoint);
    // new input, so that the restart runs a batch and loads its state
    addSourceFile(dirs, '004.json', [event('10:40', 'a')]);
    const failure = await restartFailure(windowedCountAppend, dirs);
    expect(failure).toBeInstanceOf(CheckpointError);
    expect((failure as Error).message).toMatch(c.message);
  });

  it('refuses a file sink manifest of version v2, naming the manifest and the version', async () => {
    const dirs = copyOf(statelessFileSink);
    const manifest = path.join(dirs.output, '_sluice_metadata', '2');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^v1\n/, 'v2\n'));
    await expect(sinkOutput(dirs, STATELESS_OUTPUT)).rejects.toThrow(SinkError);
    await expect(sinkOutput(dirs, STATELESS_OUTPUT)).rejects.toThrow(
      /_sluice_metadata\/2 has format v2; this version of Sluice reads v1/,
    );
  });
});
