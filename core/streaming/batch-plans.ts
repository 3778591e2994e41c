/**
 * The physical plan each micro-batch runs, planned with that batch's processing time (as Spark's
 * IncrementalExecution plans every batch): `current_timestamp()` reads the clock the batch is
 * executed with, recorded in its intent, and no object shared by the operators is rewritten between
 * batches. Operator ids come from the plan's fixed traversal, so every batch's plan gives each
 * stateful operator and watermark node the same id, and a restart finds its state again.
 *
 * Planning binds every expression (close to a millisecond per batch for the canonical query), so a
 * plan none of whose expressions reads the processing time is planned once and shared by every
 * batch: it runs the same under any clock.
 */
import { type PhysicalPlan, planPhysical } from '../exec/physical-planner.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { readsProcessingTime } from '../plan/reads-processing-time.js';

/** The physical plans of one query's batches. */
export class BatchPlans {
  /**
   * The plan's shape: its stateful operators, watermark nodes and what feeds them, which the
   * protocol and the plan fingerprint read. Planned at the epoch; when the plan reads the processing
   * time, only its structure is used and each batch runs a plan of its own.
   */
  readonly shape: PhysicalPlan;
  private readonly readsClock: boolean;

  constructor(private readonly plan: LogicalPlan) {
    this.shape = planPhysical(plan, true, { batchTimestampMicros: 0 });
    this.readsClock = readsProcessingTime(plan);
  }

  /** The plan of a batch whose processing time is `batchTimestampMs` (ms since the epoch). */
  forBatch(batchTimestampMs: number): PhysicalPlan {
    if (!this.readsClock) return this.shape;
    return planPhysical(this.plan, true, { batchTimestampMicros: batchTimestampMs * 1000 });
  }
}
