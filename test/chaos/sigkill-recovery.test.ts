/**
 * Chaos: the query process is killed with SIGKILL while it runs a batch (no chance to clean up),
 * restarted on the same checkpoint each time, and finally run to completion. The windows it wrote
 * must equal the batch query over the same input: no row lost, none counted twice.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  col,
  count,
  type RowObject,
  SluiceSession,
  window,
} from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const TARGET = path.resolve('test/chaos/kill-target.ts');

function writeInput(dir: string): RowObject[] {
  const all: RowObject[] = [];
  let t = Date.UTC(2026, 0, 1, 10);
  for (let f = 0; f < 16; f++) {
    const events = Array.from({ length: 200 }, (_, i) => {
      t += 1_000 + ((f * 7 + i * 13) % 5) * 300;
      return {
        ts: new Date(t - ((i * 37) % 4) * 60_000).toISOString(),
        category: ['a', 'b', 'c'][(i * f) % 3],
      };
    });
    writeFileSync(
      path.join(dir, `in-${String(f).padStart(3, '0')}.json`),
      events.map((e) => JSON.stringify(e)).join('\n'),
    );
    all.push(...events);
  }
  return all;
}

/**
 * Runs the target; with `killAtStep`, sends SIGKILL as soon as it reports that step (of its second
 * batch or later, so every run makes progress). Resolves true when the target finished by itself.
 */
function runTarget(args: string[], killAtStep?: BatchStep): Promise<boolean> {
  return new Promise((resolve, reject) => {
    // node itself (not the tsx wrapper, which would leave its child running after SIGKILL)
    const child = spawn(process.execPath, ['--import', 'tsx', TARGET, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let firstBatch: number | undefined;
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      for (const line of d.toString().trim().split('\n')) {
        const [step, batchId] = line.split(' ');
        firstBatch ??= Number(batchId);
        if (step === killAtStep && Number(batchId) > firstBatch) child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(false);
      else if (code === 0) resolve(true);
      else reject(new Error(`kill target failed (${code}): ${stderr}`));
    });
  });
}

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

describe('a query process killed with SIGKILL during each protocol step', () => {
  it('ends with exactly the batch result after restarts on the same checkpoint', async () => {
    const root = tempDir();
    const [input, checkpoint, output] = ['in', 'checkpoint', 'out'].map((d) => path.join(root, d));
    [input, output].forEach((d) => mkdirSync(d));
    const events = writeInput(input);
    const args = [input, checkpoint, output];
    // One run killed at each protocol step, then one that runs to the end.
    for (const step of STEPS) expect(await runTarget(args, step)).toBe(false);
    expect(await runTarget(args)).toBe(true);

    const streamed = readdirSync(output)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => JSON.parse(readFileSync(path.join(output, f), 'utf8')) as RowObject[]);
    // The killed process wrote its rows as JSON, so its windows hold ISO text; the batch's, Dates.
    const time = (t: unknown) => new Date(t as string | Date).getTime();
    const key = (r: RowObject) => `${time((r.window as { start: unknown }).start)}|${r.category}`;
    const session = new SluiceSession();
    const batch = await session
      .createDataFrame(
        events.map((e) => ({ ts: new Date(e.ts as string), category: e.category })),
        'ts TIMESTAMP, category STRING',
      )
      .groupBy(window(col('ts'), '10 minutes'), col('category'))
      .agg(count().alias('n'))
      .collect();
    const lastEnd = Math.max(...streamed.map((r) => time((r.window as { end: unknown }).end)));
    const closed = batch.filter((r) => time((r.window as { end: unknown }).end) <= lastEnd);
    expect(new Set(streamed.map(key)).size).toBe(streamed.length);
    expect(streamed.map((r) => `${key(r)}=${r.n}`).sort()).toEqual(
      closed.map((r) => `${key(r)}=${r.n}`).sort(),
    );
    expect(streamed.length).toBeGreaterThan(10);
  }, 120_000);
});
