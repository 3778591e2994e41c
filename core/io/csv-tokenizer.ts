/**
 * CSV bytes cut into records as they arrive, chunk by chunk, so that a reader holds one record (and
 * one slice of a chunk) at a time, never the whole file. A record may span chunks and lines (a quoted
 * field may hold line breaks). A record longer than maxRecordBytes is an InputLimitError naming the
 * file and the limit, whatever the parse mode: it would not fit in memory once parsed.
 */
import { Parser } from 'csv-parse';
import { InputLimitError } from '../errors.js';
import { DEFAULT_MAX_RECORD_BYTES } from './file-bytes.js';

/** How the tokenizer reads fields, named as Spark's CSV options. */
export interface CsvTokenSettings {
  readonly delimiter: string;
  readonly quote: string;
  readonly escape: string;
  /** The input's name (a file path), for error messages. */
  readonly source: string;
  /** The longest record, in bytes. @default DEFAULT_MAX_RECORD_BYTES */
  readonly maxRecordBytes?: number;
}

/** One tokenized record; a null field is an unquoted empty field. */
export interface CsvRecord {
  /** The fields, or null when the tokenizer rejected the record. */
  readonly fields: readonly (string | null)[] | null;
  /** The 1-based line on which the record starts. */
  readonly line: number;
  /** The record's text without its line terminator, for the corrupt-record column. */
  readonly raw: string;
  /** Why the tokenizer rejected the record. */
  readonly problem?: string;
}

interface ParsedEntry {
  readonly record: (string | null)[];
  readonly raw: string;
}

/** Bounds how far a record can outgrow maxRecordBytes before the check between slices sees it. */
const SLICE_BYTES = 64 * 1024;
const LINE_BREAKS = /\r\n|\r|\n/g;

/**
 * Cuts CSV chunks into records; rejected records (an unclosed quote) stay in order so that every
 * mode can see them. Consume the records of one push before the next.
 */
export class CsvTokenizer {
  private readonly parser: Parser;
  private readonly max: number;
  private completed: CsvRecord[] = [];
  private fedBytes = 0;
  private recordEnd = 0;

  constructor(private readonly settings: CsvTokenSettings) {
    this.max = settings.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    this.parser = new Parser({
      delimiter: settings.delimiter,
      quote: settings.quote,
      escape: settings.escape,
      bom: true,
      info: true,
      raw: true,
      relax_column_count: true,
      // Spark keeps a quote that appears inside an unquoted field as a literal character.
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      // Only an unquoted empty field is NULL whatever `nullValue` is; a quoted one is an empty string.
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
      on_record: (entry: unknown, context) => {
        const { record, raw } = entry as ParsedEntry;
        this.complete({ fields: record, ...position(raw, context.lines) });
        return null;
      },
      on_skip: (error, raw) => {
        this.complete({
          fields: null,
          ...position(raw ?? '', typeof error?.lines === 'number' ? error.lines : 0),
          problem: error?.message,
        });
      },
    });
  }

  /** The records that `chunk` completes. */
  *push(chunk: Uint8Array): Generator<CsvRecord> {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
      const slice = bytes.subarray(start, start + SLICE_BYTES);
      this.fedBytes += slice.length;
      // The parser's Transform methods are its chunked API, and synchronous: a schema inference
      // that cannot wait can feed it too. Records arrive through on_record, so nothing is pushed.
      this.parser._transform(slice, 'utf8', (e) => this.rethrow(e));
      if (this.fedBytes - this.recordEnd > this.max) throw this.recordTooLong();
      yield* this.take();
    }
  }

  /** The last records: one without a line end, or one whose quote never closes. */
  *end(): Generator<CsvRecord> {
    this.parser._flush((e) => this.rethrow(e));
    yield* this.take();
  }

  private complete(record: CsvRecord): void {
    this.recordEnd = this.parser.info.bytes;
    this.completed.push(record);
  }

  private take(): CsvRecord[] {
    const records = this.completed;
    this.completed = [];
    return records;
  }

  private rethrow(e: Error | null | undefined): void {
    if (e) throw e;
  }

  private recordTooLong(): InputLimitError {
    return new InputLimitError(
      `${this.settings.source} has a CSV record longer than maxRecordBytes (${this.max} bytes), still unfinished at line ${this.parser.info.lines}: a record that large would not fit in memory once parsed. Raise the option maxRecordBytes if the record is genuine, or fix the file (a quote left open makes the rest of the file one record).`,
    );
  }
}

/** The tokenizer reports the line a record ends on and includes blank lines before it in `raw`. */
function position(raw: string, endLine: number): { line: number; raw: string } {
  const text = raw.replace(/^[\r\n]+/, '').replace(/(\r\n|\r|\n)$/, '');
  return { line: endLine - (text.match(LINE_BREAKS)?.length ?? 0), raw: text };
}
