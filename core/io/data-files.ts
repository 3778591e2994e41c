/**
 * Data files on the local filesystem: which files a path denotes, and reading one file of a format
 * (JSON lines, CSV, Parquet, plain text; gzip-compressed when the name ends in `.gz`) into engine rows.
 * Shared by the batch reader and the file stream source.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ExecutionError, InvalidOptionError } from '../errors.js';
import { decodeManifest, FILE_SINK_LOG_DIRECTORY, manifestsToRead } from './file-sink-log.js';
import { field, StringType, struct, type StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { type CsvParseMode, parseCsv } from './csv.js';
import { parseJsonLines } from './json-lines.js';
import type { JsonSyntaxOptions } from './json-syntax.js';
import { parquetFileSchema, readParquet } from './parquet.js';
import { pathGlobFilter } from './path-glob-filter.js';

/** The file formats the readers know. */
export type FileFormat = 'json' | 'csv' | 'parquet' | 'text';

/** The schema of the text format: one string column `value` per line, as Spark's text source. */
export const TEXT_SCHEMA: StructType = struct([field('value', StringType, true)]);

/** Reader options, as Spark names them; values arrive as strings from `option()` or typed. */
export interface FileReadOptions extends JsonSyntaxOptions {
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

/** Reads and parses one file. */
export async function readDataFile(
  file: string,
  format: FileFormat,
  options: FileReadOptions,
): Promise<FileContents> {
  return parseDataFile(file, format, await readFile(file), options);
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
  if (format === 'parquet') return parquetFileSchema(readFileSync(files[0]), files[0]);
  const text = files.map((f) => decompressed(f, readFileSync(f)).toString('utf8')).join('\n');
  return parseText(text, format, { ...options, mode: 'PERMISSIVE' }, files.join(', ')).schema;
}

/** Parses bytes already read from `file`. */
export async function parseDataFile(
  file: string,
  format: FileFormat,
  bytes: Uint8Array,
  options: FileReadOptions,
): Promise<FileContents> {
  const data = decompressed(file, bytes);
  if (format === 'parquet') {
    const { schema, rows } = await readParquet(data, { schema: options.schema, source: file });
    return { schema, rows, malformed: 0 };
  }
  return parseText(data.toString('utf8'), format, options, file);
}

function parseText(
  text: string,
  format: 'json' | 'csv' | 'text',
  options: FileReadOptions,
  source: string,
): FileContents {
  if (format === 'text') return { schema: TEXT_SCHEMA, rows: textLines(text), malformed: 0 };
  return format === 'json'
    ? parseJsonLines(text, { ...options, source })
    : parseCsv(text, { ...options, source });
}

/** One row per line; a trailing newline does not make an empty last row. */
function textLines(text: string): Row[] {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => [line]);
}

function decompressed(file: string, bytes: Uint8Array): Buffer {
  if (!file.endsWith('.gz')) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    return gunzipSync(bytes);
  } catch (e) {
    throw new ExecutionError(
      `Cannot decompress ${file}: it is not valid gzip (${(e as Error).message}).`,
      { cause: e },
    );
  }
}
