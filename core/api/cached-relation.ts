/**
 * What `cache()` and `persist()` do here: a batch DataFrame's rows are computed by its first action
 * and kept in memory, and later actions (and DataFrames built on it) read those rows instead of
 * computing the plan again, as Spark's in-memory cache does. A first action that fails keeps
 * nothing, so the next one tries again. There is no storage level: rows live in this process's
 * memory until `unpersist()` drops them (Lambda memory is the limit).
 */
import { executeBatch } from '../exec/batch-execution.js';
import { allNodes, type LogicalPlan, newPlanId, type Relation } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';

/** Per cached relation: the plan it caches, and how to drop the rows it keeps. */
const cachedPlans = new WeakMap<
  LogicalPlan,
  { readonly plan: LogicalPlan; readonly drop: () => void }
>();

/** A relation reading `plan`'s rows, computed once on first read. */
export function cachedRelation(plan: LogicalPlan): Relation {
  let rows: Promise<Row[]> | undefined;
  const scan = async (): Promise<Row[]> => {
    rows ??= executeBatch(plan).catch((error: unknown) => {
      rows = undefined;
      throw error;
    });
    return (await rows).slice();
  };
  const relation: Relation = {
    kind: 'relation',
    id: newPlanId(),
    description: 'InMemoryRelation',
    scan,
    schema: plan.schema,
    isStreaming: false,
    // a writer must still refuse to overwrite the files the cached rows come from
    location: allNodes(plan).find((n): n is Relation => n.kind === 'relation' && !!n.location)
      ?.location,
  };
  cachedPlans.set(relation, { plan, drop: () => (rows = undefined) });
  return relation;
}

/** True when `plan` is a cached relation. */
export function isCached(plan: LogicalPlan): boolean {
  return cachedPlans.has(plan);
}

/**
 * The plan a cached relation caches, its kept rows dropped (the relation computes them again if read
 * again), or `plan` itself when it is not one.
 */
export function uncache(plan: LogicalPlan): LogicalPlan {
  const cached = cachedPlans.get(plan);
  cached?.drop();
  return cached?.plan ?? plan;
}
