/**
 * Deduplication of a table: the first row of each distinct value of the key columns, in input
 * order (Spark keeps an arbitrary one; Sluice's choice makes a batch query's result the one a
 * stream gives the same rows in the same order). Nulls are equal to each other as keys, as in
 * Spark's grouping.
 */
import { encodeKey } from '../expr/group-key.js';
import type { Deduplicate } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import { type PhysicalOperator, produceRows, type RowConsumer } from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** The key under which deduplication remembers `row`: its key columns' values, encoded. */
export function deduplicationKey(row: Row, keyIndexes: readonly number[]): string {
  const values = new Array<unknown>(keyIndexes.length);
  for (let i = 0; i < keyIndexes.length; i++) values[i] = row[keyIndexes[i]] ?? null;
  return encodeKey(values);
}

/** Runs a Deduplicate node over a bounded input. */
export class DeduplicateExec implements RowOperator {
  constructor(
    private readonly node: Deduplicate,
    private readonly input: PhysicalOperator,
  ) {}

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const seen = new Set<string>();
    const keyIndexes = this.node.keyIndexes;
    produceRows(this.input, ctx, (row) => {
      const key = deduplicationKey(row, keyIndexes);
      if (seen.has(key)) return;
      seen.add(key);
      consume(row);
    });
  }
}
