/**
 * Each batch's physical plan runs under the batch's own processing time: current_timestamp() reads
 * the clock the batch was planned with, a plan made for one batch keeps its time after the next is
 * planned, and operator ids are the same in every batch's plan.
 */
import { describe, expect, it } from 'vitest';
import { col, count, current_timestamp, type DataFrame, SluiceSession } from '../../core/index.js';
import { rowsToValuesBatch } from '../../core/columnar/batch-rows.js';
import { collectRows } from '../../core/exec/physical-operator.js';
import type { PhysicalPlan } from '../../core/exec/physical-planner.js';
import { allNodes } from '../../core/plan/logical-plan.js';
import { BatchPlans } from '../../core/streaming/batch-plans.js';
import { at, clickSchema } from '../support/events.js';

const session = new SluiceSession();

/** The rows `physical` gives for one click of `query`'s stream. */
function run(query: DataFrame, physical: PhysicalPlan) {
  const relation = allNodes(query.plan).find((n) => n.kind === 'streamingRelation')!;
  const batch = rowsToValuesBatch(relation.schema, [[at('10:00:00'), 'books', 'u1']]);
  const inputs = new Map([[relation.id, batch]]);
  return collectRows(physical.root, { inputs, counters: {} });
}

describe('BatchPlans', () => {
  const first = Date.parse('2026-01-01T10:00:00Z');
  const second = Date.parse('2026-01-01T10:01:00Z');

  it("gives current_timestamp() each batch's own processing time", () => {
    const query = session.readStream
      .memory(session.memoryStream(clickSchema))
      .select(current_timestamp().alias('now'), col('category'));
    const plans = new BatchPlans(query.plan);
    const firstPlan = plans.forBatch(first);
    const secondPlan = plans.forBatch(second);
    expect(run(query, secondPlan)).toEqual([[second * 1000, 'books']]);
    expect(run(query, firstPlan)).toEqual([[first * 1000, 'books']]);
  });

  it('plans a query that does not read the processing time once, for every batch', () => {
    const query = session.readStream
      .memory(session.memoryStream(clickSchema))
      .select(col('category'));
    const plans = new BatchPlans(query.plan);
    expect(plans.forBatch(first)).toBe(plans.forBatch(second));
    expect(run(query, plans.forBatch(second))).toEqual([['books']]);
  });

  it('numbers stateful operators and watermark nodes the same in every batch', () => {
    const query = session.readStream
      .memory(session.memoryStream(clickSchema))
      .withWatermark('ts', '10 minutes')
      .union(
        session.readStream
          .memory(session.memoryStream(clickSchema))
          .withWatermark('ts', '5 minutes'),
      )
      .groupBy(col('ts'), current_timestamp())
      .agg(count().alias('n'));
    const plans = new BatchPlans(query.plan);
    const ids = (p: PhysicalPlan) => ({
      operators: p.statefulOperators.map((op) => op.operatorId),
      watermarks: p.watermarks.map((w) => [w.watermarkId, w.delayMicros]),
      inputs: p.watermarkInputs,
    });
    const batch = plans.forBatch(second);
    expect(batch).not.toBe(plans.shape);
    expect(ids(batch)).toEqual(ids(plans.shape));
    expect(ids(batch).watermarks).toEqual([
      [0, 600_000_000],
      [1, 300_000_000],
    ]);
  });
});
