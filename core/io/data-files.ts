/**
 * Data files on the local filesystem: which files a path denotes, and reading one file of a format
 * (JSON lines, CSV, Parquet, plain text; gzip-compressed when the name ends in `.gz`) into engine rows.
 * Shared by the batch reader and the file stream source. The line formats are read line by line and
 * CSV record by record, in the memory bounds of file-bytes.ts (maxRecordBytes, maxDecompressedBytes);
 * Parquet files are read whole, within maxDecompressedBytes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { InvalidOptionError } from '../errors.js';
import { decodeManifest, FILE_SINK_LOG_DIRECTORY, manifestsToRead } from './file-sink-log.js';
import { field, StringType, struct, type StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { type CsvParseMode, CsvReader, CsvSchemaInference } from './csv.js';
import {
  bytesChunks,
  collectChunks,
  decompressedChunks,
  type InputLimits,
  lines,
  localFileBytesSync,
  localFileChunks,
  localFileChunksSync,
  localFileLinesSync,
} from './file-bytes.js';
import { JsonLinesReader, JsonSchemaInference } from './json-lines.js';
import type { JsonSyntaxOptions } from './json-syntax.js';
import { parquetFileSchema, readParquet } from './parquet.js';
import { pathGlobFilter } from './path-glob-filter.js';

/** The file formats the readers know. */
export type FileFormat = 'json' | 'csv' | 'parquet' | 'text';

/** The schema of the text format: one string column `value` per line, as Spark's text source. */
export const TEXT_SCHEMA: StructType = struct([field('value', StringType, true)]);

/** Reader options, as Spark names them; values arrive as strings from `option()` or typed. */
export interface FileReadOptions extends JsonSyntaxOptions, InputLimits {
  readonly schema?: StructType;
  readonly mode?: CsvParseMode;
  readonly columnNameOfCorruptRecord?: string;
  readonly header?: boolean;
  readonly delimiter?: string;
  readonly quote?: string;
  readonly escape?: string;
  readonly inferSchema?: boolean;
  readonly nullValue?: string;
}

/** Reader options with the schema to read the rows into. */
export type SchemaReadOptions = FileReadOptions & { readonly schema: StructType };

/** The rows of one file and how many malformed records it had. */
export interface FileContents {
  readonly schema: StructType;
  readonly rows: Row[];
  readonly malformed: number;
}

/** Checks a format name. */
export function fileFormat(name: string): FileFormat {
  const f = name.toLowerCase();
  if (f === 'json' || f === 'csv' || f === 'parquet' || f === 'text') return f;
  throw new InvalidOptionError(`Unknown file format '${name}'; use json, csv, parquet or text.`);
}

/**
 * A file itself, or the data files of a directory: those its file sink manifest log lists when it has
 * one (`_sluice_metadata/`, as Spark reads `_spark_metadata/`: files of crashed attempts are not data),
 * else every file under it (recursively; names starting with `.` or `_` are skipped, as Spark does).
 * With `pathGlobFilter`, only the files whose name matches it.
 */
export function listDataFiles(location: string, pathGlob?: string): string[] {
  let stat;
  try {
    stat = statSync(location);
  } catch {
    throw new InvalidOptionError(`Path does not exist: ${location}.`);
  }
  const files = stat.isFile() ? [location] : (sinkLogFiles(location) ?? directoryFiles(location));
  if (pathGlob === undefined) return files;
  const matches = pathGlobFilter(pathGlob);
  return files.filter((f) => matches(path.basename(f)));
}

function directoryFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter(
      (e) => e.isFile() && !isHidden(path.relative(directory, path.join(e.parentPath, e.name))),
    )
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The files the manifest log of a file sink writing to `directory` lists; undefined without a log. */
function sinkLogFiles(directory: string): string[] | undefined {
  const logDirectory = path.join(directory, FILE_SINK_LOG_DIRECTORY);
  if (!existsSync(logDirectory)) return undefined;
  return manifestsToRead(readdirSync(logDirectory)).flatMap((name) => {
    const file = path.join(logDirectory, name.name);
    return decodeManifest(name, readFileSync(file), file).files.map((f) =>
      path.join(directory, ...f.path.split('/')),
    );
  });
}

/** The schema the latest manifest of the file sink log under `directory` records, if any. */
function sinkLogSchema(directory: string): StructType | undefined {
  const logDirectory = path.join(directory, FILE_SINK_LOG_DIRECTORY);
  if (!existsSync(logDirectory)) return undefined;
  const latest = manifestsToRead(readdirSync(logDirectory)).at(-1);
  if (latest === undefined) return undefined;
  const file = path.join(logDirectory, latest.name);
  return decodeManifest(latest, readFileSync(file), file).schema;
}

function isHidden(relative: string): boolean {
  return relative.split(path.sep).some((part) => part.startsWith('.') || part.startsWith('_'));
}

/** Reads and parses one file, a line format line by line (see file-bytes.ts). */
export async function readDataFile(
  file: string,
  format: FileFormat,
  options: SchemaReadOptions,
): Promise<FileContents> {
  return parseChunks(file, format, localFileChunks(file, options), options);
}

/**
 * The schema of the files of `location`: the given one, or inferred (from every file for text
 * formats, the first for Parquet). Without files, the schema a file sink writing to `location`
 * recorded in its log: its output reads as an empty table until a batch adds files.
 */
export function inferSchema(
  files: readonly string[],
  format: FileFormat,
  options: FileReadOptions,
  location?: string,
): StructType {
  if (format === 'text') return TEXT_SCHEMA;
  if (options.schema) return options.schema;
  if (files.length === 0) {
    const recorded = location === undefined ? undefined : sinkLogSchema(location);
    if (recorded) return recorded;
    throw new InvalidOptionError(
      `Unable to infer schema for ${format}: there are no files${location === undefined ? '' : ` in ${location}`}. Give a schema with .schema(...).`,
    );
  }
  if (format === 'parquet') {
    return parquetFileSchema(localFileBytesSync(files[0], options), files[0]);
  }
  if (format === 'csv') {
    const inference = new CsvSchemaInference(options);
    for (const file of files) {
      if (!inference.wantsMore) break;
      inference.addFile(file, localFileChunksSync(file, options));
    }
    return inference.schema();
  }
  const inference = new JsonSchemaInference({ ...options, mode: 'PERMISSIVE' });
  for (const file of files)
    for (const line of localFileLinesSync(file, options)) inference.add(line);
  return inference.schema();
}

/** Parses bytes already read from `file`, decompressing a `.gz` (see file-bytes.ts). */
export async function parseDataFile(
  file: string,
  format: FileFormat,
  bytes: Uint8Array,
  options: SchemaReadOptions,
): Promise<FileContents> {
  return parseChunks(file, format, bytesChunks(file, bytes, options), options);
}

/** Parses the chunks of `file` as they are read, decompressing a `.gz` (see file-bytes.ts). */
export function parseDataChunks(
  file: string,
  format: FileFormat,
  chunks: AsyncIterable<Uint8Array>,
  options: SchemaReadOptions,
): Promise<FileContents> {
  return parseChunks(file, format, decompressedChunks(file, chunks, options), options);
}

/**
 * Parses a file's decompressed chunks. The line formats read line by line, CSV record by record (a
 * quoted field may span lines); Parquet needs the whole file (its footer is at the end).
 */
async function parseChunks(
  file: string,
  format: FileFormat,
  chunks: AsyncIterable<Uint8Array>,
  options: SchemaReadOptions,
): Promise<FileContents> {
  switch (format) {
    case 'parquet': {
      const data = await collectChunks(file, chunks, options);
      const { schema, rows } = await readParquet(data, { schema: options.schema, source: file });
      return { schema, rows, malformed: 0 };
    }
    case 'csv': {
      const reader = new CsvReader(options.schema, { ...options, source: file });
      for await (const chunk of chunks) reader.add(chunk);
      return reader.result();
    }
    case 'text': {
      const rows: Row[] = [];
      for await (const line of lines(file, chunks, options)) rows.push([line]);
      return { schema: TEXT_SCHEMA, rows, malformed: 0 };
    }
    case 'json': {
      const reader = new JsonLinesReader(options.schema, { ...options, source: file });
      for await (const line of lines(file, chunks, options)) reader.add(line);
      return reader.result();
    }
  }
}
