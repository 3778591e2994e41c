/**
 * `sluice status` on the checkpoint of a query that runs as shards: the query watermark over the
 * shards, and one row per shard with its last batch, watermark, lease holder and lag.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSluice } from '../../cli/program.js';
import { MemorySink, SluiceSession } from '../../core/index.js';
import { parseSchema } from '../../core/types/type-names.js';
import { writeJsonLines } from '../support/files.js';
import { tempDir } from '../support/temp-dir.js';

const events = parseSchema('user STRING, ts TIMESTAMP');

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs shards `started` of a parallelism-3 deduplication over `input` to the end of its files. */
async function runShards(input: string, checkpoint: string, started: readonly number[]) {
  for (const shard of started) {
    const query = await new SluiceSession().readStream
      .schema(events)
      .json(input)
      .withWatermark('ts', '1 minute')
      .dropDuplicates(['user', 'ts'])
      .writeStream.sink(new MemorySink(events, `shard${shard}`))
      .option('checkpointLocation', checkpoint)
      .option('parallelism', 3)
      .option('shard', shard)
      .start();
    await query.processAllAvailable();
    await query.stop();
  }
}

/** What `sluice args` prints, and its exit status. */
async function sluice(args: readonly string[]): Promise<{ status: number; stdout: string }> {
  let stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const status = await runSluice(['node', 'sluice', ...args], 'test');
  vi.restoreAllMocks();
  return { status, stdout };
}

describe('sluice status of a sharded query', () => {
  it('shows the query watermark and one row per shard, a shard not started yet too', async () => {
    const input = tempDir('sluice-input-');
    const checkpoint = tempDir('sluice-checkpoint-');
    for (let i = 0; i < 9; i++) {
      writeJsonLines(input, `part-${i}.json`, [
        { user: `u${i}`, ts: `2026-01-01T10:${String(10 + i)}:00Z` },
      ]);
    }
    await runShards(input, checkpoint, [0, 1]);

    const { status, stdout } = await sluice(['status', '-c', checkpoint]);
    expect(status).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('parallelism: 3');
    expect(lines[1]).toMatch(/^query watermark: 2026-01-01T10:\d\d:00\.000Z$/);
    const rows = lines.filter((l) => /^\|\s*\d\s*\|/.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatch(/^\|\s*2\s*\|\s*NULL\s*\|\s*NULL\s*\|\s*not started\s*\|/);
    for (const row of rows.slice(0, 2))
      expect(row).toMatch(/^\|\s*\d\s*\|\s*\d+\s*\|\s*2026-01-01T10:/);

    const json = await sluice(['status', '-c', checkpoint, '--json']);
    const parsed = JSON.parse(json.stdout) as {
      parallelism: number;
      queryWatermark: string;
      shards: { shard: number; status: { nextWatermark: string } | null }[];
    };
    expect(parsed.parallelism).toBe(3);
    const shardMarks = parsed.shards.flatMap((s) => (s.status ? [s.status.nextWatermark] : []));
    expect(parsed.queryWatermark).toBe([...shardMarks].sort()[0]);
  });
});
