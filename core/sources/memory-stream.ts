/**
 * MemoryStream: a source fed by the program itself, for tests and examples (Spark's MemoryStream).
 * Its offset is the number of rows added so far; a batch reads the rows added between two offsets.
 * Rows live in this object, so a query restarted in the same process replays them exactly.
 */
import { InvalidOptionError } from '../errors.js';
import type { StructType } from '../types/data-types.js';
import { type Row, type RowObject, rowObjectConverter } from '../types/row.js';
import type { Offset, Source } from './source.js';

/** An in-memory append-only stream of rows. */
export class MemoryStream implements Source {
  private readonly rows: Row[] = [];

  private readonly convert: (obj: RowObject) => Row;

  constructor(
    readonly schema: StructType,
    readonly name = 'memory',
  ) {
    this.convert = rowObjectConverter(schema);
  }

  get description(): string {
    return `MemoryStream[${this.name}]`;
  }

  /** Appends rows (objects keyed by column name) all at once or, when one is invalid, none; returns the offset after them. */
  addData(rows: readonly RowObject[]): number {
    const convert = this.convert;
    const converted = rows.map((r, i) => {
      if (r === null || typeof r !== 'object' || Array.isArray(r)) {
        throw new InvalidOptionError(
          `${this.description}.addData: row ${i} is not an object keyed by column name.`,
        );
      }
      return convert(r);
    });
    for (const row of converted) this.rows.push(row); // not push(...): spreading a large batch overflows the stack
    return this.rows.length;
  }

  async latestOffset(start: Offset | undefined): Promise<Offset | undefined> {
    return this.rows.length === 0 ? start : this.rows.length;
  }

  async backlog(end: Offset | undefined): Promise<number> {
    return this.rows.length - ((end as number | undefined) ?? 0);
  }

  async getBatch(start: Offset | undefined, end: Offset): Promise<Row[]> {
    return this.rows.slice((start as number | undefined) ?? 0, end as number);
  }
}
