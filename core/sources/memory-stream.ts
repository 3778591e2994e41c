/**
 * MemoryStream: a source fed by the program itself, for tests and examples (Spark's MemoryStream).
 * Its offset is the number of rows added so far; a batch reads the rows added between two offsets.
 * Rows live in this object, so a query restarted in the same process replays them exactly.
 */
import { batchToRows, type ColumnBatch } from '../columnar/column-batch.js';
import type { StructType } from '../types/data-types.js';
import type { Row, RowObject } from '../types/row.js';
import { rowInputConverter } from '../types/row-input.js';
import type { Offset, Source } from './source.js';

/** One addData call's values, one array per column (in schema order). */
type Chunk = readonly (readonly unknown[])[];

/** An in-memory append-only stream of rows. */
export class MemoryStream implements Source {
  /**
   * The values, in the chunks addData received them, held by column: the engine reads a batch as
   * columns, and a million rows kept as a million arrays for the stream's lifetime made the
   * garbage collector a fifth of the canonical query's time. One array of every value would be
   * copied as it grows, hence chunks.
   */
  private readonly chunks: Chunk[] = [];
  /** The offset after each chunk (ascending), to find where a range starts by binary search. */
  private readonly chunkEnds: number[] = [];

  private readonly convert: (obj: unknown, index: number) => Row;

  constructor(
    readonly schema: StructType,
    readonly name = 'memory',
  ) {
    this.convert = rowInputConverter(schema, `${this.description}.addData`);
  }

  get description(): string {
    return `MemoryStream[${this.name}]`;
  }

  /**
   * Appends rows (objects keyed by column name, each value of its column's type, as createDataFrame
   * takes them) all at once or, when one is invalid, none; returns the offset after them.
   */
  addData(rows: readonly RowObject[]): number {
    const n = rows.length;
    if (n === 0) return this.size;
    const chunk = this.schema.fields.map(() => new Array<unknown>(n));
    for (let i = 0; i < n; i++) {
      const row = this.convert(rows[i], i);
      for (let c = 0; c < chunk.length; c++) chunk[c][i] = row[c];
    }
    this.chunks.push(chunk);
    this.chunkEnds.push(this.size + n);
    return this.size;
  }

  /** The number of rows added so far. */
  private get size(): number {
    return this.chunkEnds.length === 0 ? 0 : this.chunkEnds[this.chunkEnds.length - 1];
  }

  async latestOffset(start: Offset | undefined): Promise<Offset | undefined> {
    return this.size === 0 ? start : this.size;
  }

  async backlog(end: Offset | undefined): Promise<number> {
    return this.size - ((end as number | undefined) ?? 0);
  }

  async getBatch(start: Offset | undefined, end: Offset): Promise<Row[]> {
    return batchToRows(this.columnsBetween(start, end));
  }

  async getColumnBatch(start: Offset | undefined, end: Offset): Promise<ColumnBatch> {
    return this.columnsBetween(start, end);
  }

  /** The values in (start, end] as a batch of `values` columns. */
  private columnsBetween(start: Offset | undefined, end: Offset): ColumnBatch {
    const from = (start as number | undefined) ?? 0;
    const to = end as number;
    const pieces: Chunk[] = [];
    let numRows = 0;
    for (let c = this.chunkAfter(from); c < this.chunks.length; c++) {
      const chunkStart = c === 0 ? 0 : this.chunkEnds[c - 1];
      if (chunkStart >= to) break;
      const [first, last] = [Math.max(from - chunkStart, 0), to - chunkStart];
      pieces.push(this.chunks[c].map((values) => values.slice(first, last)));
      numRows += Math.min(last, this.chunkEnds[c] - chunkStart) - first;
    }
    const columns = this.schema.fields.map((_, c) => {
      const values = pieces.length === 1 ? pieces[0][c] : pieces.flatMap((piece) => piece[c]);
      return { kind: 'values' as const, length: numRows, values };
    });
    return { schema: this.schema, numRows, columns };
  }

  /** The index of the first chunk that ends after `offset` (the chunk count when none does). */
  private chunkAfter(offset: number): number {
    let low = 0;
    let high = this.chunkEnds.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.chunkEnds[middle] <= offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
