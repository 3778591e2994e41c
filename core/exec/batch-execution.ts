/**
 * Runs a bounded plan once: loads every leaf's rows, then executes the physical plan.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import type { ColumnBatch } from '../columnar/column-batch.js';
import { AnalysisError } from '../errors.js';
import { allNodes, type LogicalPlan, type Relation } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';
import { collectRows } from './physical-operator.js';
import { planPhysical } from './physical-planner.js';

/** The result rows of a batch query. */
export async function executeBatch(plan: LogicalPlan): Promise<Row[]> {
  if (plan.isStreaming) {
    throw new AnalysisError(
      'Queries with streaming sources must be executed with writeStream.start(); collect(), show() and write work on batch DataFrames.',
    );
  }
  // a batch query reads one processing time throughout, as Spark's current_timestamp() does
  const physical = planPhysical(plan, false, { batchTimestampMicros: Date.now() * 1000 });
  const relations = allNodes(plan).filter((n): n is Relation => n.kind === 'relation');
  const inputs = new Map<number, ColumnBatch>();
  await Promise.all(
    relations.map(async (r) => inputs.set(r.id, rowsToValuesBatch(r.schema, await r.scan()))),
  );
  return collectRows(physical.root, { inputs, counters: {} });
}
