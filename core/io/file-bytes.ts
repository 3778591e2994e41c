/**
 * The bytes of one data file as a stream of chunks, decompressed when its name ends in `.gz`, and
 * those chunks as lines, in bounded memory. A reader holds at most one line (and one chunk) at a
 * time, never the whole file as one string, so a file of any length reads line by line. Two limits
 * bound what one file may cost, each refused with an InputLimitError naming the file and the limit:
 * - maxRecordBytes: the longest line (one record of a line format);
 * - maxDecompressedBytes: what a compressed file may inflate to (a small .gz of zeros can inflate a
 *   thousandfold), and how large a file read whole (Parquet, whose footer is at the end) may be.
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { ExecutionError, InputLimitError } from '../errors.js';

/** How much memory one file may take. */
export interface InputLimits {
  /** The longest line, in bytes. @default DEFAULT_MAX_RECORD_BYTES */
  readonly maxRecordBytes?: number;
  /**
   * What one compressed file may inflate to, and how large a file read whole (Parquet) may be, in
   * bytes. @default DEFAULT_MAX_DECOMPRESSED_BYTES
   */
  readonly maxDecompressedBytes?: number;
}

/** 16 MiB: far above any sane record, far below a 1024 MB Lambda once parsed into objects. */
export const DEFAULT_MAX_RECORD_BYTES = 16 * 1024 ** 2;
/**
 * 256 MiB: line formats and CSV stream the inflated bytes, but Parquet and schema inference hold
 * one file's inflated bytes at once, which must leave room in a 1024 MB Lambda.
 */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 256 * 1024 ** 2;

/** The chunks of the local file `file`, decompressed when it is a `.gz`. */
export function localFileChunks(file: string, limits: InputLimits): AsyncIterable<Uint8Array> {
  return decompressedChunks(file, createReadStream(file), limits);
}

/** The chunks of `bytes`, the content of `file`, decompressed when it is a `.gz`. */
export function bytesChunks(
  file: string,
  bytes: Uint8Array,
  limits: InputLimits,
): AsyncIterable<Uint8Array> {
  return decompressedChunks(file, Readable.from([bytes]), limits);
}

/**
 * The whole content of `file`'s chunks in one buffer, for formats that need it (Parquet). Throws an
 * InputLimitError naming the file when it is larger than maxDecompressedBytes.
 */
export async function collectChunks(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  limits: InputLimits,
): Promise<Buffer> {
  const max = limits.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > max) throw tooLargeToReadWhole(file, max);
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/**
 * The lines of a chunk stream, without their `\n` (or `\r\n`), decoded as UTF-8; a last line
 * without a line end is a line too. Throws an InputLimitError naming `file` when a line is longer
 * than maxRecordBytes.
 */
export async function* lines(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  limits: InputLimits,
): AsyncGenerator<string> {
  const splitter = new LineSplitter(file, limits);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}

/** The lines of a local file, read synchronously in chunks (see {@link lines}). */
export function* localFileLinesSync(file: string, limits: InputLimits): Generator<string> {
  const splitter = new LineSplitter(file, limits);
  for (const chunk of localFileChunksSync(file, limits)) yield* splitter.push(chunk);
  yield* splitter.end();
}

/**
 * The whole content of a local file, inflated when it is a `.gz`; either way within
 * maxDecompressedBytes, checked before an uncompressed file is read.
 */
export function localFileBytesSync(file: string, limits: InputLimits): Buffer {
  if (file.endsWith('.gz')) return gunzipWithin(file, readFileSync(file), limits);
  const max = limits.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  if (statSync(file).size > max) throw tooLargeToReadWhole(file, max);
  return readFileSync(file);
}

/** Chunks of a local file read synchronously; a `.gz` is inflated at once, within maxDecompressedBytes. */
export function* localFileChunksSync(file: string, limits: InputLimits): Generator<Uint8Array> {
  if (file.endsWith('.gz')) {
    yield gunzipWithin(file, readFileSync(file), limits);
    return;
  }
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      yield Buffer.from(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

function gunzipWithin(file: string, bytes: Uint8Array, limits: InputLimits): Buffer {
  const max = limits.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  try {
    return gunzipSync(bytes, { maxOutputLength: max });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooMuchInflated(file, max);
    throw notGzip(file, e);
  }
}

const CHUNK_BYTES = 1024 ** 2;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Cuts chunks into lines, carrying the start of a line over to the next chunk. */
class LineSplitter {
  private carried: Buffer[] = [];
  private carriedBytes = 0;
  private readonly max: number;

  constructor(
    private readonly file: string,
    limits: InputLimits,
  ) {
    this.max = limits.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  }

  /**
   * The lines that `chunk` completes, one at a time: a chunk may be a whole object held in memory,
   * whose lines must not all exist as strings at once. Consume them before the next push.
   */
  *push(chunk: Uint8Array): Generator<string> {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
      this.carry(bytes.subarray(start, end));
      yield this.take();
      start = end + 1;
    }
    if (start < bytes.length) this.carry(bytes.subarray(start));
  }

  /** The last line, when the input does not end with a line end. */
  *end(): Generator<string> {
    if (this.carriedBytes > 0) yield this.take();
  }

  private carry(part: Buffer): void {
    this.carriedBytes += part.length;
    if (this.carriedBytes > this.max) throw recordTooLong(this.file, this.max);
    this.carried.push(part);
  }

  private take(): string {
    const parts = this.carried;
    const line = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    this.carried = [];
    this.carriedBytes = 0;
    const end = line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length;
    return line.toString('utf8', 0, end);
  }
}

/** The chunks of `file`, inflated within maxDecompressedBytes when it is a `.gz`. */
export async function* decompressedChunks(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  limits: InputLimits,
): AsyncGenerator<Uint8Array> {
  if (!file.endsWith('.gz')) {
    yield* chunks;
    return;
  }
  const max = limits.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  const input = chunks instanceof Readable ? chunks : Readable.from(chunks);
  const gunzip = input.pipe(createGunzip());
  input.on('error', (e) => gunzip.destroy(e));
  let inflated = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      inflated += chunk.byteLength;
      if (inflated > max) throw tooMuchInflated(file, max);
      yield chunk;
    }
  } catch (e) {
    if (e instanceof InputLimitError || !isZlibError(e)) throw e;
    throw notGzip(file, e);
  } finally {
    gunzip.destroy();
    input.destroy();
  }
}

function isZlibError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

function tooMuchInflated(file: string, max: number): InputLimitError {
  return new InputLimitError(
    `${file} inflates to more than maxDecompressedBytes (${max} bytes). Raise the option maxDecompressedBytes if the file is genuine, or remove it from the input.`,
  );
}

function tooLargeToReadWhole(file: string, max: number): InputLimitError {
  return new InputLimitError(
    `${file} is larger than maxDecompressedBytes (${max} bytes), the most a file read whole (as Parquet is) may take. Raise the option maxDecompressedBytes if memory allows, or split the file.`,
  );
}

function notGzip(file: string, e: unknown): ExecutionError {
  return new ExecutionError(
    `Cannot decompress ${file}: it is not valid gzip (${(e as Error).message}).`,
    { cause: e },
  );
}

function recordTooLong(file: string, max: number): InputLimitError {
  return new InputLimitError(
    `${file} has a line longer than maxRecordBytes (${max} bytes): a record that large would not fit in memory once parsed. Raise the option maxRecordBytes if the record is genuine, or fix the file (a line format holds one record per line).`,
  );
}
