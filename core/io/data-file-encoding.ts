/**
 * Encoding engine rows as the bytes of one data file of a format (JSON lines, CSV, Parquet, text), and
 * the file name extension of each, for writers that lay out files for any reader (the file sink).
 */
import { gzipSync } from 'node:zlib';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { type StructType, typeName } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { type CsvWriteOptions, formatCsv } from './csv.js';
import type { FileFormat } from './data-files.js';
import { formatJsonLines } from './json-lines.js';
import { type ParquetCompression, writeCodec, writeParquet } from './parquet.js';

/** How a data file is encoded, per format. */
export interface DataFileEncoding {
  readonly format: FileFormat;
  /** CSV's writer options. @default Spark's: no header, ',' */
  readonly csv?: CsvWriteOptions;
  /** Parquet's codec; for the line formats (json, csv, text) GZIP or UNCOMPRESSED. */
  readonly compression: ParquetCompression;
}

/** The extension Spark gives each Parquet codec's files. */
const PARQUET_EXTENSIONS: Record<ParquetCompression, string> = {
  SNAPPY: 'snappy.parquet',
  ZSTD: 'zstd.parquet',
  GZIP: 'gz.parquet',
  UNCOMPRESSED: 'parquet',
};

/**
 * The encoding of `format` files with the codec named by option `compression` (any case; `none` is
 * uncompressed; for the line formats `none` or `gzip`, which the readers decompress by the `.gz` name). Throws
 * InvalidOptionError naming the option for a codec the format or this Node.js cannot write.
 */
export function dataFileEncoding(
  format: FileFormat,
  compression: string | undefined,
  csv?: CsvWriteOptions,
): DataFileEncoding {
  if (format === 'parquet') {
    const codec = (compression ?? 'SNAPPY').toUpperCase();
    // Spark takes none as another name of uncompressed, as the line formats here do.
    const named = (codec === 'NONE' ? 'UNCOMPRESSED' : codec) as ParquetCompression;
    return { format, csv, compression: writeCodec(named) };
  }
  const codec = (compression ?? 'none').toLowerCase();
  if (codec !== 'none' && codec !== 'uncompressed' && codec !== 'gzip') {
    throw new InvalidOptionError(
      `Invalid option compression '${compression}' for ${format} files: use none or gzip.`,
    );
  }
  return { format, csv, compression: codec === 'gzip' ? 'GZIP' : 'UNCOMPRESSED' };
}

/** The file name extension (no dot) of a data file. */
export function dataFileExtension(encoding: DataFileEncoding): string {
  if (encoding.format === 'parquet') return PARQUET_EXTENSIONS[encoding.compression];
  const extension = encoding.format === 'text' ? 'txt' : encoding.format;
  return encoding.compression === 'GZIP' ? `${extension}.gz` : extension;
}

/**
 * The bytes of one data file holding `rows` of `schema`. Throws AnalysisError (naming the column) for
 * a schema the format cannot hold: CSV takes atomic columns only, text exactly one string column.
 */
export function encodeDataFile(
  rows: readonly Row[],
  schema: StructType,
  encoding: DataFileEncoding,
): Uint8Array {
  if (encoding.format === 'parquet') {
    return writeParquet(rows, schema, { compression: encoding.compression });
  }
  const text = Buffer.from(encodeLines(rows, schema, encoding), 'utf8');
  return encoding.compression === 'GZIP' ? gzipSync(text) : text;
}

function encodeLines(rows: readonly Row[], schema: StructType, encoding: DataFileEncoding): string {
  switch (encoding.format) {
    case 'json':
      return formatJsonLines(rows, schema);
    case 'csv':
      return formatCsv(rows, schema, encoding.csv);
    default:
      return textLines(rows, schema);
  }
}

function textLines(rows: readonly Row[], schema: StructType): string {
  if (schema.fields.length !== 1 || schema.fields[0].dataType.kind !== 'string') {
    throw new AnalysisError(
      `The text format writes a single string column; the rows have [${schema.fields.map((f) => `${f.name}: ${typeName(f.dataType)}`).join(', ')}]. Select or to_json one column first.`,
    );
  }
  return rows.map((r) => `${(r[0] as string | null) ?? ''}\n`).join('');
}
