/**
 * The runnable examples are part of the specification: each runs as a user runs it, through a crash
 * and a restart, and the stream's output equals the batch query over the same input. The canonical
 * clickstream job runs as `npm start` does, as a process that checks itself.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { adAttributionExample } from '../../examples/ad-attribution.js';
import { deduplicationExample } from '../../examples/deduplication.js';
import { enrichmentExample } from '../../examples/enrichment.js';
import { type ExampleSpec, runWithRestart } from '../../examples/run-with-restart.js';
import { sessionizationExample } from '../../examples/sessionization.js';
import { tempDir } from '../support/temp-dir.js';

async function run(spec: ExampleSpec) {
  const lines: string[] = [];
  const result = await runWithRestart(spec, path.join(tempDir(), 'work'), (l) => lines.push(l));
  expect(result.crashedBatch, 'one invocation died before its commit').toBeDefined();
  expect(result.batches).toBeGreaterThan(result.invocations);
  expect(result.streamed, lines.join('\n')).toEqual(result.batch);
  expect(result.exact).toBe(true);
  return result;
}

const inputLines = (spec: ExampleSpec) => spec.inputs.flatMap((i) => i.rounds.flat());

describe('the runnable examples', () => {
  it('deduplication counts each click once though about one in eight arrives twice', async () => {
    const spec = deduplicationExample(150);
    const clicks = inputLines(spec).map((l) => JSON.parse(l) as { eventId: string });
    expect(new Set(clicks.map((c) => c.eventId)).size).toBeLessThan(clicks.length);
    const result = await run(spec);
    expect(result.streamed.length).toBeGreaterThan(3);
  });

  it('sessionization writes each session of each user once, when it has closed', async () => {
    const spec = sessionizationExample(20);
    const users = new Set(inputLines(spec).map((l) => (JSON.parse(l) as { user: string }).user));
    const result = await run(spec);
    expect(result.streamed.length).toBeGreaterThan(users.size);
  });

  it('ad attribution joins each click to the impressions of its ad in the hour before it', async () => {
    const result = await run(adAttributionExample(120));
    expect(result.streamed.length).toBeGreaterThan(50);
  });

  it('enrichment counts clicks per section, unknown pages under unknown', async () => {
    const result = await run(enrichmentExample(120));
    expect(result.streamed.some((row) => row.includes('"unknown"'))).toBe(true);
  });

  it('the canonical clickstream job (npm start) resumes after its crash without double counting', async () => {
    const script = path.resolve('examples/clickstream.ts');
    const tsx = path.resolve('node_modules/.bin/tsx');
    const { stdout } = await promisify(execFile)(tsx, [script], { cwd: tempDir() });
    expect(stdout).toContain('simulated crash after the sink of batch 3');
    expect(stdout).toContain('=> no window written twice, no event counted twice or lost');
  });
});
