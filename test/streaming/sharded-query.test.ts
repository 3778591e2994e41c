/**
 * A query that runs as shards on a local checkpoint (docs/scale-out.md): each shard reads its share
 * of the files, keeps its own checkpoint below the query's, and the union of the shards' output is
 * the batch query's result. A restart with another parallelism is refused before it writes anything.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  col,
  localCheckpointBackend,
  MemorySink,
  ParallelismChangedError,
  queryWatermark,
  readShardWatermark,
  SluiceSession,
  type StreamingQuery,
  UnsupportedOperationError,
} from '../../core/index.js';
import { parseSchema } from '../../core/types/type-names.js';
import { writeJsonLines } from '../support/files.js';
import { tempDir } from '../support/temp-dir.js';

const schema = parseSchema('user STRING, n INT');

/** Writes `files` files of three rows each under `dir`. */
function addFiles(dir: string, from: number, files: number): void {
  for (let f = from; f < from + files; f++) {
    writeJsonLines(
      dir,
      `part-${f}.json`,
      [0, 1, 2].map((i) => ({ user: `u${(f + i) % 5}`, n: f * 10 + i })),
    );
  }
}

/** Starts shard `shard` of `parallelism` of a projection of `input` into `sink`. */
function startShard(
  input: string,
  checkpoint: string,
  sink: MemorySink,
  parallelism: number,
  shard?: number,
): Promise<StreamingQuery> {
  const writer = new SluiceSession().readStream
    .schema(schema)
    .json(input)
    .select(col('user'), col('n').multiply(2).alias('doubled'))
    .writeStream.sink(sink)
    .option('checkpointLocation', checkpoint)
    .option('parallelism', parallelism);
  if (shard !== undefined) writer.option('shard', shard);
  return writer.start();
}

const sorted = (rows: readonly object[]) =>
  rows.map((r) => JSON.stringify(r)).sort((a, b) => (a < b ? -1 : 1));

describe('a query that runs as four shards over a directory of files', () => {
  it('reads each file in exactly one shard: the union of their outputs is the batch result', async () => {
    const input = tempDir('sluice-input-');
    const checkpoint = tempDir('sluice-checkpoint-');
    addFiles(input, 0, 12);
    const outSchema = parseSchema('user STRING, doubled INT');
    const sinks = [0, 1, 2, 3].map((i) => new MemorySink(outSchema, `shard${i}`));
    const shards = await Promise.all(
      sinks.map((sink, shard) => startShard(input, checkpoint, sink, 4, shard)),
    );
    await Promise.all(shards.map((q) => q.processAllAvailable()));
    addFiles(input, 12, 8);
    await Promise.all(shards.map((q) => q.processAllAvailable()));
    await Promise.all(shards.map((q) => q.stop()));

    const batch = await new SluiceSession().read
      .schema(schema)
      .json(input)
      .select(col('user'), col('n').multiply(2).alias('doubled'))
      .collect();
    expect(batch.length).toBe(60);
    expect(sorted(sinks.flatMap((s) => s.rows()))).toEqual(sorted(batch));
    // every shard got some files, and kept its own checkpoint below the query's
    for (const sink of sinks) expect(sink.rows().length).toBeGreaterThan(0);
    for (const shard of [0, 1, 2, 3]) {
      expect(existsSync(path.join(checkpoint, 'stages', '0', 'shards', String(shard)))).toBe(true);
    }
  });

  it('refuses to restart with another parallelism, naming both, and changes nothing', async () => {
    const input = tempDir('sluice-input-');
    addFiles(input, 0, 4);
    const outSchema = parseSchema('user STRING, doubled INT');
    const sink = () => new MemorySink(outSchema, 'out');

    const unsharded = tempDir('sluice-checkpoint-');
    const one = await startShard(input, unsharded, sink(), 1);
    await one.processAllAvailable();
    await one.stop();
    const grown = startShard(input, unsharded, sink(), 4, 0);
    await expect(grown).rejects.toThrow(ParallelismChangedError);
    await expect(grown).rejects.toThrow(/created with parallelism 1.*started with parallelism 4/);
    expect(existsSync(path.join(unsharded, 'stages'))).toBe(false);

    const sharded = tempDir('sluice-checkpoint-');
    const four = await startShard(input, sharded, sink(), 4, 2);
    await four.processAllAvailable();
    await four.stop();
    for (const [parallelism, shard] of [
      [1, undefined],
      [2, 0],
    ] as const) {
      const changed = startShard(input, sharded, sink(), parallelism, shard);
      await expect(changed).rejects.toMatchObject({
        recordedParallelism: 4,
        requestedParallelism: parallelism,
      });
    }
  });

  it('needs option shard with a parallelism above 1', async () => {
    const input = tempDir('sluice-input-');
    const checkpoint = tempDir('sluice-checkpoint-');
    const sink = new MemorySink(parseSchema('user STRING, doubled INT'), 'out');
    await expect(startShard(input, checkpoint, sink, 3)).rejects.toThrow(
      /needs option shard.*0 to 2/,
    );
    await expect(startShard(input, checkpoint, sink, 3, 3)).rejects.toThrow(/shard 3 of 3/);
  });

  it('refuses a source that cannot split, and complete mode, recording nothing', async () => {
    const session = new SluiceSession();
    const stream = session.memoryStream(parseSchema('user STRING'));
    const counts = session.readStream.memory(stream).groupBy('user').count();
    const checkpoint = tempDir('sluice-checkpoint-');
    const start = (df: typeof counts, mode: 'update' | 'complete', parallelism = 2) =>
      df.writeStream
        .sink(new MemorySink(df.schema, 'out'))
        .outputMode(mode)
        .option('checkpointLocation', checkpoint)
        .option('parallelism', parallelism)
        .option('shard', 0)
        .start();
    await expect(start(counts, 'update')).rejects.toThrow(UnsupportedOperationError);
    await expect(start(counts, 'update')).rejects.toThrow(/MemoryStream.*cannot be split/);
    // the refused starts left no parallelism behind: the query runs unsharded on the checkpoint
    const unsharded = await start(counts, 'update', 1);
    await unsharded.stop();

    const files = session.readStream.schema(schema).json(tempDir('sluice-input-'));
    await expect(start(files.groupBy('user').count(), 'complete')).rejects.toThrow(
      /output mode complete is not supported with parallelism 2/,
    );
  });

  it('publishes each shard watermark with its commits; the query watermark is their minimum', async () => {
    const input = tempDir('sluice-input-');
    const checkpoint = tempDir('sluice-checkpoint-');
    const events = parseSchema('user STRING, ts TIMESTAMP');
    // one file per shard's share: files whose path hashes to shard 0 carry later event times
    writeJsonLines(input, 'a.json', [{ user: 'a', ts: '2026-01-01T00:10:00Z' }]);
    writeJsonLines(input, 'b.json', [{ user: 'b', ts: '2026-01-01T00:20:00Z' }]);
    const start = (shard: number) =>
      new SluiceSession().readStream
        .schema(events)
        .json(input)
        .withWatermark('ts', '1 minute')
        .dropDuplicates(['user', 'ts'])
        .writeStream.sink(new MemorySink(events, `shard${shard}`))
        .option('checkpointLocation', checkpoint)
        .option('parallelism', 2)
        .option('shard', shard)
        .start();
    const shards = await Promise.all([start(0), start(1)]);
    await Promise.all(shards.map((q) => q.processAllAvailable()));
    await Promise.all(shards.map((q) => q.stop()));
    const published = await Promise.all(
      [0, 1].map((shard) =>
        readShardWatermark(
          shard,
          localCheckpointBackend(checkpoint, { stage: 0, shard, shards: 2 }).checkpoint,
        ),
      ),
    );
    const micros = (iso: string) => Date.parse(iso) * 1000;
    // a.json hashes to shard 0 of 2 and b.json to shard 1 (test/sources/file-shard.test.ts)
    expect(published.map((p) => p.watermarkMicros)).toEqual([
      micros('2026-01-01T00:09:00Z'),
      micros('2026-01-01T00:19:00Z'),
    ]);
    expect(published.every((p) => p.lastInputAtMs !== undefined)).toBe(true);
    expect(queryWatermark(published).watermarkMicros).toBe(micros('2026-01-01T00:09:00Z'));
  });
});
