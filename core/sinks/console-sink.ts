/**
 * ConsoleSink: prints each batch's output as a table, for development (like Spark's console sink).
 * Not idempotent: a re-run batch is printed again.
 */
import { formatTable } from '../io/text-table.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { OutputMode, Sink } from './sink.js';

/** Prints batches to a writer (stdout by default). */
export class ConsoleSink implements Sink {
  readonly description = 'ConsoleSink';

  constructor(
    private readonly options: { numRows?: number; truncate?: boolean } = {},
    private readonly write: (text: string) => void = (t) => process.stdout.write(t),
  ) {}

  async addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    _mode: OutputMode,
  ): Promise<void> {
    const shown = rows.slice(0, this.options.numRows ?? 20);
    const rule = '-'.repeat(43);
    this.write(
      `${rule}\nBatch: ${batchId}\n${rule}\n${formatTable(shown, schema, this.options.truncate ?? true)}\n`,
    );
    if (rows.length > shown.length) this.write(`only showing top ${shown.length} rows\n`);
    this.write('\n');
  }
}
