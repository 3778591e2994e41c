/**
 * The `sluice` command, run as a process (tsx on the source) on a query module and its local
 * checkpoint: run a backfill, inspect it with status, history and state, replay a batch without
 * writing anything, stop a running query with Ctrl-C between batches, and one-line errors.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(REPO, 'cli', 'sluice.ts');
const QUERY = path.join(REPO, 'test', 'fixtures', 'cli', 'window-counts-query.ts');

interface Exit {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `sluice args` with the query module's input in `clicksDir`. */
function start(args: readonly string[], clicksDir = ''): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: REPO,
    env: { ...process.env, CLICKS_DIR: clicksDir },
  });
}

/** What the process printed, once it exited. */
function finished(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const sluice = (args: readonly string[], clicksDir?: string) => finished(start(args, clicksDir));

/** A directory of click files, one per batch (the module reads one file per trigger). */
function clickFiles(): string {
  const dir = tempDir('sluice-cli-in-');
  const file = (name: string, rows: object[]) =>
    writeFileSync(path.join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n'));
  file('1.json', [
    { ts: '2026-01-01T10:00:00Z', category: 'a', user: 'u1' },
    { ts: '2026-01-01T10:01:00Z', category: 'b', user: 'u2' },
  ]);
  file('2.json', [{ ts: '2026-01-01T10:30:00Z', category: 'a', user: 'u3' }]);
  return dir;
}

/** Every file under a checkpoint, with its size. */
function checkpointFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('sluice on a backfill', () => {
  const input = clickFiles();
  const checkpoint = path.join(tempDir('sluice-cli-cp-'), 'checkpoint');
  let backfill: Exit;

  beforeAll(async () => {
    backfill = await sluice(['run', QUERY, '-c', checkpoint, '--available-now'], input);
  }, 60_000);

  it('run --available-now processes every file, a progress line per batch, then stops', () => {
    expect(backfill.status).toBe(0);
    expect(backfill.stderr).toMatch(/^batch 0 \| 2 rows in \| 2 out .*\[#{10}-{10}\] 50%$/m);
    expect(backfill.stderr).toMatch(/^batch 1 \| 1 rows in \| 1 out .*100%$/m);
    expect(backfill.stderr).toMatch(/^finished: last committed batch 2$/m);
    expect(backfill.stdout).toMatch(/Batch: 0[\s\S]*Batch: 1/);
  });

  it('status shows the last committed batch, the watermark and the last progress', async () => {
    const { status, stdout } = await sluice(['status', '-c', checkpoint]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^last committed batch: 2$/m);
    expect(stdout).toMatch(/^watermark: 2026-01-01T10:20:00.000Z$/m);
    expect(stdout).toMatch(/^uncommitted batch: none$/m);
    expect(stdout).toMatch(/^last progress: batch 2 \| 0 rows in/m);
  }, 30_000);

  it('history prints the batches as a table, or their progress JSON', async () => {
    const table = await sluice(['history', '-c', checkpoint]);
    const rows = table.stdout.split('\n').filter((l) => /^\|\s+\d/.test(l));
    expect(
      rows.map((r) =>
        r
          .split('|')
          .slice(1, 6)
          .map((c) => c.trim()),
      ),
    ).toEqual([
      ['0', expect.any(String), '2', '2', expect.any(String)],
      ['1', expect.any(String), '1', '1', expect.any(String)],
      ['2', expect.any(String), '0', '0', expect.any(String)],
    ]);
    const json = await sluice(['history', '-c', checkpoint, '--json', '-n', '2']);
    const records = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.map((r) => [r.batchId, r.numInputRows, r.sink.numOutputRows])).toEqual([
      [1, 1, 1],
      [2, 0, 0],
    ]);
  }, 30_000);

  it('state lists the stores, and shows a store at a batch as JSON', async () => {
    const stores = await sluice(['state', '-c', checkpoint]);
    expect(stores.stdout).toMatch(/\|\s+0\|default\|\s+16\|\s+2\|aggregate\(keys: window/);
    const atFirst = await sluice([
      'state',
      '-c',
      checkpoint,
      '--operator',
      '0',
      '--batch',
      '0',
      '--json',
    ]);
    const rows = atFirst.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.value[0][1]).sort()).toEqual(['a', 'b']);
  }, 30_000);

  it('replay re-runs a batch from its intent and state, printing its output and writing nothing', async () => {
    const before = checkpointFiles(checkpoint);
    const replay = await sluice(
      ['replay', QUERY, '-c', checkpoint, '--batch', '1', '--json'],
      input,
    );
    expect(replay.status).toBe(0);
    expect(replay.stderr).toMatch(
      /^batch 1: offsets .* watermark 2026-01-01T09:51:00.000Z, 1 rows out$/m,
    );
    const rows = replay.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toMatchObject([{ category: 'a', count: 1 }]);
    expect(checkpointFiles(checkpoint)).toEqual(before);
  }, 30_000);

  it('refuses to replay a batch the checkpoint never planned, in one line', async () => {
    const { status, stderr } = await sluice(
      ['replay', QUERY, '-c', checkpoint, '--batch', '9'],
      input,
    );
    expect(status).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^sluice: Checkpoint .* has no intent of batch 9: .*sluice history/),
    ]);
  }, 30_000);
});

describe('sluice run until Ctrl-C', () => {
  it('stops after the batch in flight and exits 0, leaving no batch half done', async () => {
    const checkpoint = path.join(tempDir('sluice-cli-cp-'), 'checkpoint');
    const child = start(
      ['run', QUERY, '-c', checkpoint, '--processing-time', '200 milliseconds'],
      clickFiles(),
    );
    const exit = finished(child);
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (d: Buffer) => {
        if (d.toString().includes('batch 0 |')) resolve();
      }),
    );
    child.kill('SIGINT');
    const { status, stderr } = await exit;
    expect(status).toBe(0);
    expect(stderr).toMatch(/stopping after the batch in flight/);
    expect(stderr).toMatch(/^stopped: last committed batch \d+$/m);
    const after = await sluice(['status', '-c', checkpoint]);
    expect(after.stdout).toMatch(/^uncommitted batch: none$/m);
  }, 60_000);
});

describe('sluice usage', () => {
  it('has --help for every command', async () => {
    const top = await sluice(['--help']);
    expect(top.stdout).toMatch(/Usage: sluice/);
    const state = await sluice(['state', '--help']);
    expect(state.stdout).toMatch(
      /--operator <id>[\s\S]*--store <name>[\s\S]*--batch <id>[\s\S]*--json/,
    );
  }, 30_000);

  it('says in one line where the checkpoint must be given, or that none is there', async () => {
    const missing = await sluice(['status']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      'sluice: say where the checkpoint is: --checkpoint DIR (local) or --table T --query-id Q (deployed) (add --help for usage)\n',
    );
    const empty = await sluice(['status', '-c', tempDir()]);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/^sluice: .* holds no checkpoint: check the location.*\n$/);
  }, 30_000);

  it('refuses a bad number in an option, naming it', async () => {
    const { status, stderr } = await sluice(['state', '-c', tempDir(), '--batch', 'last']);
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /option '--batch <id>' argument 'last' is invalid\. 'last' is not a whole number >= 0\./,
    );
  }, 30_000);
});
