/**
 * A file stream over a file sink's output reads only the files the sink's manifest log lists, as
 * Spark's file source honours `_spark_metadata`: a crashed attempt's files are never read.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySink, type MemoryStream, SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const SCHEMA = 'id INT, name STRING';

/** Writes what `input` holds beyond the checkpoint through the JSON file sink into `out`. */
async function sinkBatch(
  session: SluiceSession,
  input: MemoryStream,
  out: string,
  checkpoint: string,
) {
  const query = await session.readStream
    .memory(input)
    .writeStream.format('json')
    .option('checkpointLocation', checkpoint)
    .trigger({ availableNow: true })
    .start(out);
  await query.awaitTermination();
}

/** Streams everything now under `directory` into a memory sink; returns the ids read. */
async function streamIds(session: SluiceSession, directory: string, checkpoint: string) {
  const df = session.readStream.schema(SCHEMA).json(directory);
  const sink = new MemorySink(df.schema);
  const query = await df.writeStream
    .sink(sink)
    .option('checkpointLocation', checkpoint)
    .trigger({ availableNow: true })
    .start();
  await query.awaitTermination();
  return sink
    .rows()
    .map((r) => r.id)
    .sort();
}

describe('a file stream over a file sink output', () => {
  it('reads the files the manifest log lists and never an unlisted one', async () => {
    const session = new SluiceSession();
    const [out, written, read] = [tempDir(), tempDir(), tempDir()];
    const input = session.memoryStream(SCHEMA);
    input.addData([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    await sinkBatch(session, input, out, written);
    // what a crashed attempt leaves behind: a data file no manifest lists
    writeFileSync(path.join(out, 'part-00001-crashed.json'), '{"id":666,"name":"orphan"}\n');

    expect(await streamIds(session, out, read)).toEqual([1, 2]);

    input.addData([{ id: 3, name: 'c' }]);
    await sinkBatch(session, input, out, written);
    expect(await streamIds(session, out, read)).toEqual([3]);
  });

  it('reads every data file of a directory without a manifest log', async () => {
    const session = new SluiceSession();
    const directory = tempDir();
    writeFileSync(path.join(directory, 'a.json'), '{"id":1,"name":"a"}\n');
    writeFileSync(path.join(directory, 'b.json'), '{"id":2,"name":"b"}\n');
    expect(await streamIds(session, directory, tempDir())).toEqual([1, 2]);
  });
});
