/**
 * MemoryStream: a source fed by the program itself, for tests and examples (Spark's MemoryStream).
 * Its offset is the number of rows added so far; a batch reads the rows added between two offsets.
 * Rows live in this object, so a query restarted in the same process replays them exactly.
 */
import type { StructType } from '../types/data-types.js';
import type { Row, RowObject } from '../types/row.js';
import { rowInputConverter } from '../types/row-input.js';
import type { Offset, Source } from './source.js';

/** An in-memory append-only stream of rows. */
export class MemoryStream implements Source {
  /**
   * The rows, in the chunks addData received them. One array of every row would be copied as it
   * grows, and once it is old, each row appended to it costs the garbage collector a write barrier.
   */
  private readonly chunks: Row[][] = [];
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
    const converted = rows.map(this.convert);
    if (converted.length > 0) {
      this.chunks.push(converted);
      this.chunkEnds.push(this.size + converted.length);
    }
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
    const from = (start as number | undefined) ?? 0;
    const to = end as number;
    const pieces: Row[][] = [];
    for (let c = this.chunkAfter(from); c < this.chunks.length; c++) {
      const chunkStart = c === 0 ? 0 : this.chunkEnds[c - 1];
      if (chunkStart >= to) break;
      pieces.push(this.chunks[c].slice(Math.max(from - chunkStart, 0), to - chunkStart));
    }
    return pieces.length === 1 ? pieces[0] : pieces.flat();
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
