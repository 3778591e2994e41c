import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CheckpointError,
  InvalidOptionError,
  LocalDirectoryStore,
  MemoryObjectStore,
  MemorySink,
  SluiceSession,
  type StreamingQuery,
} from '../../core/index.js';
import { parseSchema } from '../../core/types/type-names.js';
import { writeJsonLines } from '../support/files.js';
import { tempDir } from '../support/temp-dir.js';

const schema = parseSchema('file STRING, n INT');

/** Writes a JSON-lines file of `rows` rows, each tagged with the file's name. */
function addFile(dir: string, name: string, rows: number): void {
  writeJsonLines(
    dir,
    name,
    Array.from({ length: rows }, (_, n) => ({ file: name, n })),
  );
}

/** How many rows of each file a sink holds. */
function rowsPerFile(sink: MemorySink): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of sink.rows()) counts[row.file as string] = (counts[row.file as string] ?? 0) + 1;
  return counts;
}

/** Starts `readStream.schema(...).json(input)` into `sink` on `checkpoint`. */
function start(
  input: string,
  checkpoint: string,
  sink: MemorySink,
  options: Record<string, number> = {},
): Promise<StreamingQuery> {
  const reader = new SluiceSession().readStream.schema(schema);
  for (const [key, value] of Object.entries(options)) reader.option(key, value);
  return reader.json(input).writeStream.sink(sink).option('checkpointLocation', checkpoint).start();
}

describe('a streaming query over a directory of JSON files', () => {
  it('reads every file exactly once, across batches and a restart on the same checkpoint', async () => {
    const input = tempDir('sluice-input-');
    const checkpoint = tempDir('sluice-checkpoint-');
    const firstSink = new MemorySink(schema, 'first');
    const first = await start(input, checkpoint, firstSink);
    addFile(input, 'a.json', 3);
    await first.processAllAvailable();
    expect(rowsPerFile(firstSink)).toEqual({ 'a.json': 3 });
    addFile(input, 'b.json', 2);
    addFile(input, 'c.json', 4);
    await first.processAllAvailable();
    await first.processAllAvailable(); // nothing new: no batch
    await first.stop();
    expect(rowsPerFile(firstSink)).toEqual({ 'a.json': 3, 'b.json': 2, 'c.json': 4 });
    expect(first.recentProgress.map((p) => [p.batchId, p.numInputRows])).toEqual([
      [0, 3],
      [1, 6],
    ]);

    // a new query on the same checkpoint, with a sink of its own: it gets only files that arrive now
    const secondSink = new MemorySink(schema, 'second');
    const second = await start(input, checkpoint, secondSink);
    await second.processAllAvailable();
    expect(secondSink.rows()).toEqual([]);
    addFile(input, 'd.json', 5);
    await second.processAllAvailable();
    addFile(input, 'nested/e.json', 1);
    await second.processAllAvailable();
    await second.stop();
    expect(rowsPerFile(secondSink)).toEqual({ 'd.json': 5, 'nested/e.json': 1 });
    expect(second.recentProgress.map((p) => p.batchId)).toEqual([2, 3]);
  });

  it('stops with a CheckpointError instead of reading files again when the checkpoint lost its seen-files log', async () => {
    const input = tempDir('sluice-input-');
    const checkpoint = tempDir('sluice-checkpoint-');
    const first = await start(input, checkpoint, new MemorySink(schema, 'first'));
    addFile(input, 'a.json', 3);
    await first.processAllAvailable();
    addFile(input, 'b.json', 3);
    await first.processAllAvailable();
    await first.stop();
    rmSync(path.join(checkpoint, 'sources'), { recursive: true });

    const sink = new MemorySink(schema, 'second');
    const second = await start(input, checkpoint, sink);
    await expect(second.processAllAvailable()).rejects.toThrow(CheckpointError);
    expect(sink.rows()).toEqual([]);
  });

  it('reads gzip-compressed JSON-lines files', async () => {
    const input = tempDir('sluice-input-');
    const sink = new MemorySink(schema, 'gzip');
    const query = await start(input, tempDir('sluice-checkpoint-'), sink);
    addFile(input, 'plain.json', 1);
    addFile(input, 'packed.json.gz', 3);
    await query.processAllAvailable();
    await query.stop();
    expect(rowsPerFile(sink)).toEqual({ 'plain.json': 1, 'packed.json.gz': 3 });
    expect(sink.rows().filter((r) => r.file === 'packed.json.gz')).toEqual([
      { file: 'packed.json.gz', n: 0 },
      { file: 'packed.json.gz', n: 1 },
      { file: 'packed.json.gz', n: 2 },
    ]);
  });

  it('splits a backlog into batches of maxFilesPerTrigger files', async () => {
    const input = tempDir('sluice-input-');
    for (const name of ['a.json', 'b.json', 'c.json', 'd.json', 'e.json']) addFile(input, name, 2);
    const sink = new MemorySink(schema, 'limited');
    const query = await start(input, tempDir('sluice-checkpoint-'), sink, {
      maxFilesPerTrigger: 2,
    });
    await query.processAllAvailable();
    await query.stop();
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([4, 4, 2]);
    expect(rowsPerFile(sink)).toEqual({
      'a.json': 2,
      'b.json': 2,
      'c.json': 2,
      'd.json': 2,
      'e.json': 2,
    });
  });

  it('refuses a file stream without a schema, naming the directory', () => {
    const input = tempDir('sluice-input-');
    const session = new SluiceSession();
    expect(() => session.readStream.json(input)).toThrow(InvalidOptionError);
    expect(() => session.readStream.json(input)).toThrow(
      `A file stream over ${input} needs a schema`,
    );
    expect(() => session.readStream.format('csv').load(input)).toThrow(input);
  });

  it('streams the objects of any ObjectStore given to load(), such as a MemoryObjectStore', async () => {
    const store = new MemoryObjectStore('memory://landing');
    const put = (key: string, rows: number) =>
      store.put(
        key,
        Buffer.from(
          Array.from({ length: rows }, (_, n) => JSON.stringify({ file: key, n })).join('\n'),
        ),
      );
    await put('a.json', 2);
    await put('_SUCCESS', 1);
    const sink = new MemorySink(schema, 'store');
    const query = await new SluiceSession().readStream
      .schema(schema)
      .format('json')
      .option('maxFilesPerTrigger', 1)
      .load(store)
      .writeStream.sink(sink)
      .option('checkpointLocation', tempDir('sluice-checkpoint-'))
      .start();
    await query.processAllAvailable();
    await put('b.json', 1);
    await put('c.json', 3);
    await query.processAllAvailable();
    await query.stop();
    expect(rowsPerFile(sink)).toEqual({ 'a.json': 2, 'b.json': 1, 'c.json': 3 });
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([2, 1, 3]);
    expect(query.recentProgress[0].sources[0].description).toBe('FileSource[memory://landing]');
  });

  it('reads a LocalDirectoryStore as its directory, oldest file first', async () => {
    const input = tempDir('sluice-input-');
    writeJsonLines(input, 'new.json', [{ file: 'new.json', n: 0 }], { mtime: 2_000_000_000 });
    writeJsonLines(input, 'old.json', [{ file: 'old.json', n: 0 }], { mtime: 1_000_000_000 });
    const sink = new MemorySink(schema, 'directory-store');
    const query = await new SluiceSession().readStream
      .schema(schema)
      .format('json')
      .load(new LocalDirectoryStore(input))
      .writeStream.sink(sink)
      .option('checkpointLocation', tempDir('sluice-checkpoint-'))
      .start();
    await query.processAllAvailable();
    await query.stop();
    expect(sink.rows().map((r) => r.file)).toEqual(['old.json', 'new.json']);
  });

  it('reads only the files whose name matches pathGlobFilter', async () => {
    const input = tempDir('sluice-input-');
    addFile(input, 'a.json', 2);
    addFile(input, 'a.json.tmp', 5);
    addFile(path.join(input, '2026'), 'b.json', 1);
    const sink = new MemorySink(schema, 'glob');
    const query = await new SluiceSession().readStream
      .schema(schema)
      .option('pathGlobFilter', '*.json')
      .json(input)
      .writeStream.sink(sink)
      .option('checkpointLocation', tempDir('sluice-checkpoint-'))
      .start();
    await query.processAllAvailable();
    await query.stop();
    expect(rowsPerFile(sink)).toEqual({ 'a.json': 2, 'b.json': 1 });
  });

  it('does not read its own checkpoint when it is kept in an underscore folder of the input', async () => {
    const input = tempDir('sluice-input-');
    addFile(input, 'a.json', 2);
    const checkpoint = path.join(input, '_checkpoint');
    const sink = new MemorySink(schema, 'own-checkpoint');
    const query = await start(input, checkpoint, sink);
    await query.processAllAvailable();
    addFile(input, 'b.json', 1);
    await query.processAllAvailable();
    await query.stop();
    expect(rowsPerFile(sink)).toEqual({ 'a.json': 2, 'b.json': 1 });
  });
});
