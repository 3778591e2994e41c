import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ExecutionError, InputLimitError } from '../../core/errors.js';
import {
  bytesChunks,
  collectChunks,
  lines,
  localFileChunks,
  localFileLinesSync,
} from '../../core/io/file-bytes.js';
import { tempDir } from '../support/temp-dir.js';

/** The chunks of `parts`, as a stream delivers them. */
async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part, 'utf8');
}

/** Every line of a chunk stream. */
async function allLines(
  source: AsyncIterable<Uint8Array>,
  maxRecordBytes = 1024,
): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines('in.jsonl', source, { maxRecordBytes })) out.push(line);
  return out;
}

/** The error an async step rejects with, or fails the test. */
async function rejection(step: () => Promise<unknown>): Promise<Error> {
  try {
    await step();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('the lines of a chunk stream', () => {
  it('joins lines cut across chunks, drops \\r\\n and keeps a last line without a line end', async () => {
    expect(await allLines(chunks('{"a":', '1}\r\n{"b"', ':2}\n\n', 'lé', 'st'))).toEqual([
      '{"a":1}',
      '{"b":2}',
      '',
      'lést',
    ]);
  });

  it('decodes a UTF-8 character cut across chunks', async () => {
    const bytes = Buffer.from('é\n', 'utf8');
    async function* cut(): AsyncGenerator<Uint8Array> {
      yield bytes.subarray(0, 1);
      yield bytes.subarray(1);
    }
    expect(await allLines(cut())).toEqual(['é']);
  });

  it('refuses a line longer than maxRecordBytes, naming the file and the limit', async () => {
    const error = await rejection(() =>
      allLines(chunks('short\n', 'x'.repeat(600), 'x'.repeat(600)), 1000),
    );
    expect(error).toBeInstanceOf(InputLimitError);
    expect(error.message).toMatch(
      /^in\.jsonl has a line longer than maxRecordBytes \(1000 bytes\)/,
    );
  });

  it('reads a file far larger than maxRecordBytes line by line', () => {
    const file = path.join(tempDir(), 'many.jsonl');
    writeFileSync(file, '{"n":1}\n'.repeat(50_000)); // 400 KB
    const read = [...localFileLinesSync(file, { maxRecordBytes: 100 })];
    expect(read.length).toBe(50_000);
    expect(read.filter((line) => line !== '{"n":1}')).toEqual([]);
  });
});

describe('decompressing a .gz within maxDecompressedBytes', () => {
  // A gzip bomb in small: 8 MiB of zeros compresses to about 8 KB.
  const bomb = gzipSync(Buffer.alloc(8 * 1024 ** 2));

  it('inflates a file within the limit', async () => {
    const text = Buffer.from('{"n":1}\n');
    const inflated = await collectChunks(
      'a.json.gz',
      bytesChunks('a.json.gz', gzipSync(text), {}),
      {},
    );
    expect(inflated.equals(text)).toBe(true);
  });

  it('stops a stream of chunks at the limit, naming the file and the limit', async () => {
    const limits = { maxDecompressedBytes: 1024 ** 2 };
    const error = await rejection(() =>
      collectChunks('s3://b/bomb.json.gz', bytesChunks('s3://b/bomb.json.gz', bomb, limits), {}),
    );
    expect(error).toBeInstanceOf(InputLimitError);
    expect(error.message).toContain(
      's3://b/bomb.json.gz inflates to more than maxDecompressedBytes (1048576 bytes)',
    );
  });

  it('stops a local file, read as a stream or at once, at the limit', async () => {
    const file = path.join(tempDir(), 'bomb.json.gz');
    writeFileSync(file, bomb);
    const limits = { maxDecompressedBytes: 1024 ** 2 };
    expect(
      await rejection(() => collectChunks(file, localFileChunks(file, limits), {})),
    ).toBeInstanceOf(InputLimitError);
    expect(() => [...localFileLinesSync(file, limits)]).toThrow(InputLimitError);
  });

  it('names a file that is not gzip', async () => {
    const error = await rejection(() =>
      collectChunks('bad.json.gz', bytesChunks('bad.json.gz', Buffer.from('not gzip'), {}), {}),
    );
    expect(error).toBeInstanceOf(ExecutionError);
    expect(error.message).toMatch(/^Cannot decompress bad\.json\.gz: it is not valid gzip/);
  });
});
