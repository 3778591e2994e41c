/**
 * MicroBatchExecution: runs a streaming query as a series of micro-batches over a checkpoint,
 * following the commit protocol of docs/architecture.md section 3. One call of `runNextBatch` is
 * one attempt of batch N = last committed + 1:
 *
 *   1. lease    take the short lease and read the head: the last committed batch, its state
 *               manifest and the next watermark. The lease is renewed, with its epoch, at each
 *               later step and during long ones (lease-keeper.ts); an attempt that lost it stops
 *               at its next step as `lease-lost`. (The local backend has one writer per checkpoint;
 *               the commit's create-if-absent still detects a second one.)
 *   2. plan     ask the sources for their latest offsets; next-batch.ts decides whether to plan a
 *               batch, a no-data batch or none, and the intent is written (create-if-absent). When
 *               a crashed attempt wrote one first, the losing write returns it and it is reused.
 *               The intent fixes N's offsets, processing time and watermark forever.
 *   3. load     state at version N-1: the in-memory copy when it is that version, else from files.
 *   4. run      read exactly the intent's offset ranges and execute the batch's plan (batch-plans.ts)
 *               under its processing time, each stateful operator under its own watermark
 *               (watermark-propagation.ts).
 *   5. persist  write changed state partitions and a manifest under attempt-unique keys; a batch
 *               that changed no state writes none, and its commit names the version it started from.
 *   6. sink     sink.addBatch(N, rows): idempotent per batchId.
 *   7. commit   build the batch's progress record, then create commit#N (create-if-absent) with
 *               it and the watermark of N+1 from watermark-tracker.ts. Only now does batch N
 *               exist; the commit's own time is added to the progress reported.
 *
 * A crash anywhere before 7 leaves commit#N absent, so the next attempt re-runs N from the same
 * intent and the same state version; a crash after 7 never re-runs N.
 */
import { randomUUID } from 'node:crypto';
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import type { ColumnBatch } from '../columnar/column-batch.js';
import {
  CHECKPOINT_FORMAT_VERSION,
  type CheckpointBackend,
  type CommitResult,
  type Lease,
  type CommitRecord,
  type OffsetIntent,
  type QueryMetadata,
} from '../checkpoint/checkpoint-store.js';
import { PrefixedObjectStore } from '../checkpoint/prefixed-object-store.js';
import { isUnsharded, type ShardIdentity, UNSHARDED } from '../checkpoint/shard-identity.js';
import { CheckpointError } from '../errors.js';
import type {
  BatchCounters,
  ExecutionContext,
  StreamingExecution,
} from '../exec/execution-context.js';
import { collectRows } from '../exec/physical-operator.js';
import type { PhysicalPlan } from '../exec/physical-planner.js';
import {
  isTimerDue,
  type NextTimer,
  outputWatermarkOf,
  type StatefulOperator,
} from '../exec/stateful-operator.js';
import {
  allNodes,
  type LogicalPlan,
  type Relation,
  type StreamingRelation,
} from '../plan/logical-plan.js';
import { resultKeyColumns } from '../plan/result-key-columns.js';
import { type OutputMode, type Sink } from '../sinks/sink.js';
import { type Offset, type Source } from '../sources/source.js';
import { BatchStateStores } from '../state/batch-state-stores.js';
import { type StateStoreId, stateStoreId } from '../state/state-store-id.js';
import {
  type StateManifest,
  StateRepository,
  type StateVersionRef,
  stateVersionRefOf,
  type StoresByEntry,
} from '../state/state-repository.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { type CheckpointMaintenance, maintainCheckpoint } from './checkpoint-maintenance.js';
import { BatchPlans } from './batch-plans.js';
import { readSourceBatch } from './source-batch.js';
import { LeaseKeeper } from './lease-keeper.js';
import { nextBatch, type NextBatchFacts } from './next-batch.js';
import { operatorWatermarks } from './watermark-propagation.js';
import { eventTimeMaxAfter, nextWatermark } from './watermark-tracker.js';
import { checkPlanFingerprint, planFingerprint } from './plan-fingerprint.js';
import { checkParallelism, checkShardable, claimParallelism } from './query-parallelism.js';
import {
  type DurationBreakdown,
  eventTimeText,
  rowsPerSecond,
  type StreamingQueryProgress,
  withCommitDuration,
} from './progress.js';
import { storedProgress } from './stored-progress.js';

/**
 * How long a lease lasts unless told otherwise: short, so that a crashed attempt holds the query for
 * at most this long; a live attempt renews it (lease-keeper.ts).
 */
export const DEFAULT_LEASE_MS = 30_000;

/** Raised at a protocol step once the lease keeper learns that another invocation took the lease. */
class LeaseLost extends Error {}

/**
 * How one attempt at the next batch ended: `committed`; `idle` (nothing to do); `lease-held`
 * (another invocation is running this query); `conflict` (another attempt committed this batch
 * first); `lease-lost` (another invocation took over; this one stopped without committing);
 * `abandoned` (out of time before the commit; the next attempt re-runs the batch from the same
 * intent).
 */
export type BatchOutcome =
  | { readonly kind: 'committed'; readonly progress: StreamingQueryProgress }
  | { readonly kind: 'idle' }
  | { readonly kind: 'lease-held'; readonly owner: string }
  | { readonly kind: 'conflict' | 'lease-lost'; readonly batchId: number }
  | { readonly kind: 'abandoned'; readonly batchId: number; readonly reason: string };

/** A batch re-run from its intent: what it read and the rows it output. */
export interface BatchReplay {
  readonly intent: OffsetIntent;
  readonly schema: StructType;
  readonly rows: readonly Row[];
}

/** The protocol steps, in order; `afterStep` observes each. */
export type BatchStep = 'lease' | 'plan' | 'load' | 'run' | 'persist' | 'sink' | 'commit';

/** What a micro-batch execution needs: the query, its sink, and where its checkpoint lives. */
export interface MicroBatchExecutionOptions extends CheckpointBackend {
  readonly plan: LogicalPlan;
  readonly outputMode: OutputMode;
  readonly sink: Sink;
  readonly numStatePartitions: number;
  readonly snapshotInterval: number;
  readonly queryName?: string;
  /** Called after each protocol step; an error thrown here aborts the batch exactly like a crash there. */
  readonly afterStep?: (step: BatchStep, batchId: number) => void;
  /** Committed versions whose state stays loadable; older state files are garbage. @default 100 */
  readonly minBatchesToRetain?: number;
  /**
   * How long the query's lease lasts; each attempt renews it while it runs, so it must only outlast
   * the longest synchronous stretch of a batch (the plan's execution). @default 30 seconds
   */
  readonly leaseDurationMs?: number;
  /** Processing time source (ms since epoch). */
  readonly clock?: () => number;
  /**
   * The most bytes of state changes (compressed) a commit carries instead of state files
   * (core/state/inline-state.ts); 0 writes every version as files. @default 32 KiB
   */
  readonly inlineStateMaxBytes?: number;
}

/** Far below DynamoDB's 400 KB item and 4 MB transaction limits, even with the head's copy. */
export const DEFAULT_INLINE_STATE_MAX_BYTES = 32 * 1024;

interface CachedState {
  /** The committed version the stores hold (null: the empty state before any). */
  readonly version: StateVersionRef | null;
  readonly manifest: StateManifest;
  readonly stores: StoresByEntry;
}

/** Runs the micro-batches of one query run. */
export class MicroBatchExecution {
  readonly queryId: string;
  readonly runId = randomUUID();
  private readonly physical: PhysicalPlan;
  private readonly streamingRelations: StreamingRelation[];
  private readonly relations: Relation[];
  private readonly sources: Source[];
  private readonly repository: StateRepository;
  /** Every state store of every stateful operator. */
  private readonly storeIds: readonly StateStoreId[];
  private readonly clock: () => number;
  private readonly shard: ShardIdentity;
  private cache: CachedState | undefined;
  private lease: Lease | undefined;
  private lastCommittedIntent: OffsetIntent | undefined;
  /** The facts a lease-free look at the head found not idle, for planning the batch it saw. */
  private peeked: NextBatchFacts | undefined;
  /** The commit this run made last, while it holds the lease. */
  private lastCommit: CommitRecord | undefined;
  /** In an availableNow run, the ends fixed at its start for the sources that cannot bound themselves. */
  private readonly fixedEnds = new Map<number, Offset | undefined>();

  private constructor(
    private readonly options: MicroBatchExecutionOptions,
    queryId: string,
    /** Each batch's physical plan, with the batch's processing time. */
    private readonly plans: BatchPlans,
  ) {
    this.queryId = queryId;
    this.physical = plans.shape;
    const nodes = allNodes(options.plan);
    this.streamingRelations = nodes.filter(
      (n): n is StreamingRelation => n.kind === 'streamingRelation',
    );
    this.relations = nodes.filter((n): n is Relation => n.kind === 'relation');
    this.shard = options.shard ?? UNSHARDED;
    this.sources = this.streamingRelations.map((r, i) =>
      r.source({
        queryId,
        metadataStore: new PrefixedObjectStore(options.stateObjects, `sources/${i}/`),
        shard: this.shard,
      }),
    );
    this.clock = options.clock ?? Date.now;
    const schemas = this.physical.statefulOperators.flatMap((op) =>
      op.storeNames.map((name) => ({
        id: stateStoreId(op.operatorId, name),
        stateSchema: op.stateDescription,
      })),
    );
    this.storeIds = schemas.map((s) => s.id);
    this.repository = new StateRepository(
      options.stateObjects,
      options.numStatePartitions,
      options.snapshotInterval,
      schemas,
      options.inlineStateMaxBytes ?? DEFAULT_INLINE_STATE_MAX_BYTES,
    );
  }

  /** Opens the checkpoint (creating it on first start), checks that it belongs to this query, and opens the sink. */
  static async start(options: MicroBatchExecutionOptions): Promise<MicroBatchExecution> {
    const plans = new BatchPlans(options.plan);
    const fingerprint = planFingerprint(options.plan, options.numStatePartitions);
    const shard = options.shard ?? UNSHARDED;
    checkShardable(shard, options.plan, options.outputMode);
    const plan = { planFingerprint: fingerprint, numStatePartitions: options.numStatePartitions };
    if (!isUnsharded(shard)) {
      await claimParallelism(options.queryCheckpoint ?? options.checkpoint, shard.shards, plan);
    }
    let metadata = await options.checkpoint.getMetadata();
    if (!metadata) {
      const fresh: QueryMetadata = {
        formatVersion: CHECKPOINT_FORMAT_VERSION,
        // each shard its own: sinks make their writes idempotent per (query id, batch id)
        queryId: randomUUID(),
        ...plan,
        ...(isUnsharded(shard) ? {} : { parallelism: shard.shards }),
      };
      // Create-if-absent: when another start created the checkpoint first, its metadata stands.
      const created = await options.checkpoint.createMetadata(fresh);
      metadata = created.kind === 'created' ? fresh : created.metadata;
    }
    checkParallelism(metadata, shard.shards, options.checkpoint.location);
    checkPlanFingerprint(
      metadata.planFingerprint,
      options.plan,
      plans.shape,
      options.numStatePartitions,
      options.checkpoint.location,
    );
    await options.sink.open?.({
      queryId: metadata.queryId,
      outputMode: options.outputMode,
      schema: options.plan.schema,
      keyColumns: resultKeyColumns(options.plan),
    });
    return new MicroBatchExecution(
      { ...options, numStatePartitions: metadata.numStatePartitions },
      metadata.queryId,
      plans,
    );
  }

  /**
   * Prepares an availableNow run: every source fixes what is available now as the end of the run
   * (see Source.prepareForAvailableNow); for a source that cannot, the end it reports now, ignoring
   * its limits, is fixed here and read in one batch, as Spark's wrapper for such sources does.
   */
  async prepareForAvailableNow(): Promise<void> {
    const previous = await this.committedIntent(await this.options.checkpoint.latestCommit());
    const context = {
      batchTimestampMs: this.clock(),
      previousBatchTimestampMs: previous?.batchTimestampMs,
      readAllAvailable: true,
    };
    await Promise.all(
      this.sources.map(async (s, i) => {
        const start = previous?.end[i] ?? undefined;
        if (s.prepareForAvailableNow) await s.prepareForAvailableNow(start);
        else this.fixedEnds.set(i, await s.latestOffset(start, context));
      }),
    );
  }

  /**
   * One attempt at the next batch. `deadlineMs` (a clock time) is when the batch must have
   * committed by: an attempt still running then is abandoned before its commit, and the next
   * attempt re-runs the batch from the same intent. `readAllAvailable` (a once trigger) plans it
   * ignoring the sources' admission limits.
   */
  async runNextBatch(deadlineMs = Infinity, readAllAvailable = false): Promise<BatchOutcome> {
    const durations: DurationBreakdown = {
      lease: 0,
      plan: 0,
      load: 0,
      run: 0,
      persist: 0,
      sink: 0,
      commit: 0,
      latestOffset: 0,
      walCommit: 0,
      addBatch: 0,
      commitOffsets: 0,
      triggerExecution: 0,
    };
    const started = this.clock();
    const leaseDurationMs = this.options.leaseDurationMs ?? DEFAULT_LEASE_MS;
    let batchId = -1;
    let keeper: LeaseKeeper | undefined;
    let currentStep: BatchStep = 'lease';
    const step = async <T>(name: BatchStep, work: () => Promise<T>): Promise<T> => {
      currentStep = name;
      if (keeper && !(await keeper.stillHeld())) throw new LeaseLost();
      const t0 = performance.now();
      const result = await work();
      durations[name] = Math.round(performance.now() - t0);
      this.options.afterStep?.(name, batchId);
      return result;
    };
    try {
      if (await this.idleWithoutLease(readAllAvailable, durations)) return { kind: 'idle' };
      const leased = await step('lease', async () => {
        const result = await this.options.checkpoint.acquireLease(this.runId, leaseDurationMs);
        if (result.kind === 'acquired') {
          this.lease = result.lease;
          keeper = new LeaseKeeper(
            this.options.checkpoint,
            result.lease,
            leaseDurationMs,
            this.clock,
          );
          batchId = result.head ? result.head.batchId + 1 : 0;
        }
        return result;
      });
      if (leased.kind === 'held') return { kind: 'lease-held', owner: leased.owner };
      const { head } = leased;
      const intent = await step('plan', () => this.planBatch(head, readAllAvailable, durations));
      if (!intent) return { kind: 'idle' };
      const { state, warm } = await step('load', () => this.loadState(head));
      const result = await step('run', async () =>
        this.executeBatch(intent, head, state, await this.committedIntent(head)),
      );
      const persisted = await step('persist', () => this.persistState(batchId, state));
      await step('sink', () =>
        this.options.sink.addBatch(
          batchId,
          result.output,
          this.options.plan.schema,
          this.options.outputMode,
        ),
      );
      if (this.clock() > deadlineMs) {
        this.cache = undefined;
        return { kind: 'abandoned', batchId, reason: 'the time budget ran out before the commit' };
      }
      durations.addBatch = durations.run + durations.persist + durations.sink;
      durations.triggerExecution = this.clock() - started;
      const reported = this.progress(
        intent,
        result,
        durations,
        started,
        state ? (warm ? 'warm' : 'cold') : 'none',
        persisted.bytes,
      );
      const commit = this.commitRecord(
        intent,
        head,
        this.withSourceEventTimes(intent, result.eventTimeMax),
        persisted,
        result.operatorTimers,
        reported,
      );
      const committed = await step('commit', () =>
        this.commitBatch(commit, intent, keeper!.current),
      );
      if (committed !== 'committed') {
        this.cache = undefined;
        this.lastCommit = undefined;
        return { kind: committed, batchId };
      }
      this.cache = state
        ? { version: persisted.version, manifest: persisted.manifest!, stores: state.stores }
        : undefined;
      this.lastCommittedIntent = intent;
      this.lastCommit = commit;
      const progress = this.withCommittedSources(
        withCommitDuration(reported, durations.commit, this.clock() - started),
        intent,
      );
      return { kind: 'committed', progress };
    } catch (e) {
      this.cache = undefined; // the in-memory state may hold this failed attempt's changes
      this.lastCommit = undefined;
      if (e instanceof LeaseLost) return { kind: 'lease-lost', batchId };
      if (batchId >= 0) await this.recordFailure(batchId, currentStep, e);
      throw e;
    } finally {
      keeper?.stop();
    }
  }

  /**
   * Leaves a failed attempt in the checkpoint for `sluice status`. Not being able to is a process
   * warning: the batch's own error is the one the caller must see.
   */
  private async recordFailure(batchId: number, step: BatchStep, error: unknown): Promise<void> {
    const failure = {
      formatVersion: CHECKPOINT_FORMAT_VERSION,
      batchId,
      atMs: this.clock(),
      owner: this.runId,
      step,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
    try {
      await this.options.checkpoint.recordFailure(failure);
    } catch (e) {
      process.emitWarning(
        new Error(
          `Could not record in ${this.options.checkpoint.location} that batch ${batchId} failed; the batch's error is reported as usual.`,
          { cause: e },
        ),
      );
    }
  }

  /**
   * Step 2: the intent of batch N. next-batch.ts decides from the facts gathered here; a planned
   * intent is written with a create-if-absent, and when that loses (a crashed attempt or a rival
   * planned N first) the intent it returns is the truth, so reusing one costs no extra request.
   */
  private async planBatch(
    head: CommitRecord | undefined,
    readAllAvailable: boolean,
    durations: DurationBreakdown,
  ): Promise<OffsetIntent | undefined> {
    const peeked = this.peeked;
    this.peeked = undefined;
    const facts =
      peeked && peeked.head?.batchId === head?.batchId
        ? peeked
        : await this.nextBatchFacts(head, readAllAvailable, durations);
    let next = nextBatch(facts);
    if (next.kind === 'plan-new' || next.kind === 'no-data') {
      const writing = performance.now();
      const written = await this.options.checkpoint.putIntent(next.intent);
      durations.walCommit = Math.round(performance.now() - writing);
      if (written.kind === 'exists') next = nextBatch({ ...facts, existingIntent: written.intent });
    }
    return next.kind === 'idle' ? undefined : next.intent;
  }

  /**
   * An idle trigger's whole cost: read the head (one request; a container that has not seen the
   * head's intent reads it too) and ask the sources. When next-batch.ts decides there is nothing to
   * do, the attempt ends without taking the lease, so it writes nothing and has no lease to give
   * back. Otherwise the facts gathered here plan the batch once the lease is taken, if the head is
   * still the same, so the sources are not asked twice. While this run holds the lease, the head is
   * the commit it made last, and is not read: should another have taken over meanwhile, an idle
   * answer is still right (its batches read what came after this head), and any other answer takes
   * the lease, which returns the true head.
   */
  private async idleWithoutLease(
    readAllAvailable: boolean,
    durations: DurationBreakdown,
  ): Promise<boolean> {
    const head =
      this.lease && this.lastCommit
        ? this.lastCommit
        : await this.options.checkpoint.latestCommit();
    const facts = await this.nextBatchFacts(head, readAllAvailable, durations);
    if (nextBatch(facts).kind === 'idle') return true;
    this.peeked = facts;
    return false;
  }

  /**
   * What next-batch.ts decides from: the head, its intent, the sources' latest offsets, the clock.
   * The time spent asking the sources is Spark's `latestOffset` duration.
   */
  private async nextBatchFacts(
    head: CommitRecord | undefined,
    readAllAvailable: boolean,
    durations: DurationBreakdown,
  ): Promise<NextBatchFacts> {
    const committedIntent = await this.committedIntent(head);
    const start = this.sources.map((_, i) => committedIntent?.end[i] ?? null);
    const context = {
      batchTimestampMs: this.clock(),
      previousBatchTimestampMs: committedIntent?.batchTimestampMs,
      ...(readAllAvailable ? { readAllAvailable } : {}),
    };
    const asked = performance.now();
    const latest = await Promise.all(
      this.sources.map((s, i) =>
        this.fixedEnds.has(i)
          ? (this.fixedEnds.get(i) ?? start[i] ?? undefined)
          : s.latestOffset(start[i] ?? undefined, context),
      ),
    );
    durations.latestOffset = Math.round(performance.now() - asked);
    return {
      head,
      committedIntent,
      latestOffsets: latest.map((e) => e ?? null),
      operatorsActOnWatermark: this.operatorsActOnWatermark(head, committedIntent),
      timersDue: this.timersDue(head, context.batchTimestampMs),
      batchTimestampMs: context.batchTimestampMs,
    };
  }

  /** Whether a stateful operator would act if the watermark moved as the head proposes. */
  private operatorsActOnWatermark(
    head: CommitRecord | undefined,
    committedIntent: OffsetIntent | undefined,
  ): boolean {
    // each operator judges by its own input watermark, propagated from the query's
    const inputs = this.physical.watermarkInputs;
    const last = operatorWatermarks(inputs, () => committedIntent?.watermarkMicros ?? undefined);
    const next = operatorWatermarks(inputs, () => head?.nextWatermarkMicros ?? undefined);
    return this.physical.statefulOperators.some((op) =>
      op.shouldRunAnotherBatch(this.options.outputMode, last[op.operatorId], next[op.operatorId]),
    );
  }

  /** Whether an operator's timer, as the head recorded it, is due in a batch planned now. */
  private timersDue(head: CommitRecord | undefined, batchTimestampMs: number): boolean {
    const timers = head?.operatorTimers ?? {};
    const watermark = head?.nextWatermarkMicros ?? undefined;
    return Object.values(timers).some((t) => isTimerDue(t, watermark, batchTimestampMs));
  }

  /** The intent of the head batch: remembered when this run committed or read it (no request), else read. */
  private async committedIntent(head: CommitRecord | undefined): Promise<OffsetIntent | undefined> {
    if (!head) return undefined;
    if (this.lastCommittedIntent?.batchId === head.batchId) return this.lastCommittedIntent;
    const intent = await this.options.checkpoint.getIntent(head.batchId);
    if (!intent) {
      throw new CheckpointError(
        `Checkpoint ${this.options.checkpoint.location} has commit ${head.batchId} but not its offsets; the checkpoint is damaged.`,
      );
    }
    this.lastCommittedIntent = intent;
    return intent;
  }

  /** Step 3: state at the head's version, from memory when the cache holds exactly that version. */
  private async loadState(
    head: CommitRecord | undefined,
  ): Promise<{ state: CachedState | undefined; warm: boolean }> {
    if (this.storeIds.length === 0) return { state: undefined, warm: false };
    const version = head ? stateVersionRefOf(head) : null;
    if (this.cache && sameVersion(this.cache.version, version))
      return { state: this.cache, warm: true };
    return { state: await this.freshState(head), warm: false };
  }

  /**
   * Step 4: reads the intent's ranges and runs the plan, with the operators' state stores open at
   * the head's version; they are committed when the plan has run, aborted when it throws.
   * `committedIntent` (the head batch's) gives the watermark of the previous batch, at or below
   * which (as it reaches each operator) an operator's input rows are late.
   */
  private async executeBatch(
    intent: OffsetIntent,
    head: CommitRecord | undefined,
    state: CachedState | undefined,
    committedIntent: OffsetIntent | undefined,
  ) {
    const inputs = new Map<number, ColumnBatch>();
    const sourceBatches = await Promise.all(
      this.streamingRelations.map((r, i) =>
        readSourceBatch(this.sources[i], intent.start[i] ?? null, intent.end[i] ?? null, r.schema),
      ),
    );
    this.streamingRelations.forEach((r, i) => inputs.set(r.id, sourceBatches[i]));
    for (const r of this.relations) inputs.set(r.id, rowsToValuesBatch(r.schema, await r.scan()));
    const counters: BatchCounters = {};
    const operatorCounters = new Map<number, BatchCounters>();
    const eventTimeMax = new Map<number, number>();
    // every watermark node emits the query's watermark in force, as in Spark
    const nodeWatermark = () => intent.watermarkMicros ?? undefined;
    const outputWatermark = (id: number, input: number | undefined) =>
      outputWatermarkOf(this.physical.statefulOperators[id], input);
    const watermarks = operatorWatermarks(
      this.physical.watermarkInputs,
      nodeWatermark,
      outputWatermark,
    );
    // late rows are judged by the previous batch's watermarks as they reached each operator
    const lateRows = operatorWatermarks(
      this.physical.watermarkInputs,
      () => committedIntent?.watermarkMicros ?? undefined,
      outputWatermark,
    );
    const stores = state
      ? new BatchStateStores(state.stores, this.storeIds, head?.batchId ?? -1)
      : undefined;
    const ctx: ExecutionContext = {
      inputs,
      counters,
      streaming: {
        batchId: intent.batchId,
        watermarkMicros: (operatorId) => watermarks[operatorId],
        lateRowsWatermarkMicros: (operatorId) => lateRows[operatorId],
        outputMode: this.options.outputMode,
        stateStore: (op, storeName) => stores!.store(op, storeName),
        operatorCounters: (op) => {
          if (!operatorCounters.has(op)) operatorCounters.set(op, {});
          return operatorCounters.get(op)!;
        },
        eventTimeMax,
      },
    };
    try {
      const plan = this.plans.forBatch(intent.batchTimestampMs);
      const output = collectRows(plan.root, ctx);
      const operatorTimers = nextTimers(plan, ctx.streaming!);
      stores?.commit();
      const sourceCounts = sourceBatches.map((b) => b.numRows);
      return {
        output,
        counters,
        operatorCounters,
        stores,
        eventTimeMax,
        operatorTimers,
        sourceRows: sourceCounts,
      };
    } catch (e) {
      stores?.abort();
      throw e;
    }
  }

  /**
   * Step 5: writes this version's changed partitions and its manifest. A batch that changed no
   * store writes nothing: its version is the one it started from, whose manifest its commit names.
   */
  private async persistState(batchId: number, state: CachedState | undefined) {
    if (!state || !this.repository.hasChanges(state.stores)) {
      return {
        version: state?.version ?? null,
        manifest: state?.manifest,
        stateVersion: state?.version ? state.manifest.batchId : undefined,
        bytes: 0,
      };
    }
    const result = await this.repository.persist(
      batchId,
      randomUUID().slice(0, 8),
      state.manifest,
      state.stores,
    );
    return {
      version: result.version,
      manifest: result.manifest,
      stateVersion: undefined,
      bytes: result.bytesWritten,
    };
  }

  /**
   * The commit record: state version, event-time maxima so far, the watermark for batch N+1
   * (watermark-tracker.ts), and the batch's progress as it stands before the commit.
   */
  private commitRecord(
    intent: OffsetIntent,
    head: CommitRecord | undefined,
    batchMax: Map<number, number>,
    state: { readonly version: StateVersionRef | null; readonly stateVersion: number | undefined },
    operatorTimers: Record<string, NextTimer>,
    progress: StreamingQueryProgress,
  ): CommitRecord {
    const eventTimeMax = eventTimeMaxAfter(head?.eventTimeMax ?? {}, batchMax);
    const inlineState = state.version?.inlineState;
    return {
      ...(Object.keys(operatorTimers).length > 0 ? { operatorTimers } : {}),
      formatVersion: CHECKPOINT_FORMAT_VERSION,
      batchId: intent.batchId,
      stateManifest: state.version?.manifestKey ?? null,
      ...(inlineState === undefined ? {} : { inlineState }),
      ...(state.stateVersion === undefined ? {} : { stateVersion: state.stateVersion }),
      eventTimeMax,
      nextWatermarkMicros: nextWatermark(
        eventTimeMax,
        this.physical.watermarks,
        intent.watermarkMicros,
      ),
      progress: storedProgress(progress),
      ...(isUnsharded(this.shard) ? {} : { lastInputAtMs: lastInputAt(intent, head, progress) }),
    };
  }

  /**
   * The batch's maximum event time per watermark node, raised to what the sources below each node
   * say their whole input has reached at the batch's end (Source.eventTimeReached): a stage-2 shard
   * whose keys had no recent row still moves its watermark with the rest of the query. Then lowered
   * to the least limit those sources set (Source.eventTimeLimit): a stage-2 shard's watermark must
   * not pass the rows it read and holds back for its next batch.
   */
  private withSourceEventTimes(
    intent: OffsetIntent,
    batchMax: ReadonlyMap<number, number>,
  ): Map<number, number> {
    const out = new Map(batchMax);
    this.physical.watermarkSources.forEach((relationIds, watermarkId) => {
      const ended = relationIds.flatMap((id) => {
        const i = this.streamingRelations.findIndex((r) => r.id === id);
        const end = i < 0 ? undefined : intent.end[i];
        return end === undefined || end === null ? [] : [{ source: this.sources[i], end }];
      });
      for (const { source, end } of ended) {
        const reached = source.eventTimeReached?.(end);
        if (reached !== undefined) {
          out.set(watermarkId, Math.max(out.get(watermarkId) ?? -Infinity, reached));
        }
      }
      for (const { source, end } of ended) {
        const limit = source.eventTimeLimit?.(end);
        const max = out.get(watermarkId);
        if (limit !== undefined && max !== undefined && max > limit) out.set(watermarkId, limit);
      }
    });
    return out;
  }

  /** Step 7: the commit, then (only if it landed) the sources may forget what the batch read. */
  private async commitBatch(
    commit: CommitRecord,
    intent: OffsetIntent,
    lease: Lease,
  ): Promise<CommitResult> {
    const result = await this.options.checkpoint.commit(commit, lease);
    if (result === 'committed')
      await Promise.all(this.sources.map((s, i) => s.commit?.(intent.end[i])));
    return result;
  }

  private progress(
    intent: OffsetIntent,
    result: {
      counters: BatchCounters;
      operatorCounters: Map<number, BatchCounters>;
      stores: BatchStateStores | undefined;
      eventTimeMax: Map<number, number>;
      sourceRows: number[];
      output: Row[];
    },
    durations: DurationBreakdown,
    started: number,
    stateLoad: 'warm' | 'cold' | 'none',
    stateBytesWritten: number,
  ): StreamingQueryProgress {
    const numInputRows = result.sourceRows.reduce((a, b) => a + b, 0);
    const c = result.counters;
    const maxes = [...result.eventTimeMax.values()];
    const stateOperators = this.physical.statefulOperators.map((op) => ({
      operatorId: op.operatorId,
      operatorName: op.operatorName,
      ...result.stores!.metrics(op.operatorId),
      numRowsDroppedByWatermark:
        result.operatorCounters.get(op.operatorId)?.numRowsDroppedByWatermark ?? 0,
      numShufflePartitions: this.options.numStatePartitions,
      numStateStoreInstances: this.options.numStatePartitions * op.storeNames.length,
      ...customMetrics(op, result.operatorCounters.get(op.operatorId)),
    }));
    return {
      id: this.queryId,
      runId: this.runId,
      name: this.options.queryName ?? null,
      timestamp: new Date(started).toISOString(),
      batchId: intent.batchId,
      batchDuration: durations.triggerExecution,
      numInputRows,
      ...rowsPerSecond(numInputRows, durations.triggerExecution),
      durationMs: { ...durations },
      eventTime: {
        watermark: eventTimeText(intent.watermarkMicros),
        max: eventTimeText(maxes.length ? Math.max(...maxes) : null),
      },
      stateOperators,
      stateLoad,
      stateBytesWritten,
      // only stateful operators drop rows as late
      lateRowsDropped: stateOperators.reduce((n, s) => n + s.numRowsDroppedByWatermark, 0),
      malformedRecordsDropped: c.malformedRecords ?? 0,
      sources: this.sources.map((s, i) => ({
        description: s.description,
        startOffset: intent.start[i],
        endOffset: intent.end[i],
        ...(s.reportLatestOffset ? { latestOffset: s.reportLatestOffset() } : {}),
        numInputRows: result.sourceRows[i],
        ...rowsPerSecond(result.sourceRows[i], durations.triggerExecution),
        ...this.sourceReports(s, intent, i),
      })),
      sink: { description: this.options.sink.description, numOutputRows: result.output.length },
    };
  }

  /** A source's metrics and warnings about the batch, when it has any. */
  private sourceReports(source: Source, intent: OffsetIntent, i: number) {
    const start = intent.start[i] ?? undefined;
    const warnings = source.warnings?.(start, intent.end[i]) ?? [];
    return {
      ...(source.metrics ? { metrics: source.metrics(start, intent.end[i]) } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }

  /**
   * The progress with the sources' metrics and warnings as they stand after the commit, which some
   * sources act on (Kafka copies the end offsets to its consumer group then); the record stored in
   * the commit was built before it.
   */
  private withCommittedSources(
    progress: StreamingQueryProgress,
    intent: OffsetIntent,
  ): StreamingQueryProgress {
    const sources = progress.sources.map((reported, i) => {
      const rest = { ...reported };
      delete rest.metrics;
      delete rest.warnings;
      return { ...rest, ...this.sourceReports(this.sources[i], intent, i) };
    });
    return { ...progress, sources };
  }

  /**
   * Re-runs batch `batchId` from its intent (offsets, processing time, watermark) on the state
   * version it started from (the commit of `batchId - 1`), and returns its output without writing
   * state, calling the sink or committing: deterministic debugging of a batch that ran elsewhere.
   * A batch whose attempt failed before its commit replays as well, since only its intent is needed.
   */
  async replayBatch(batchId: number): Promise<BatchReplay> {
    const { checkpoint } = this.options;
    const intent = await checkpoint.getIntent(batchId);
    if (!intent) {
      throw new CheckpointError(
        `Checkpoint ${checkpoint.location} has no intent of batch ${batchId}: it was never planned, or is older than the retained batches. Pick a batch that \`sluice history\` lists.`,
      );
    }
    const previous = batchId === 0 ? undefined : await checkpoint.getCommit(batchId - 1);
    if (batchId > 0 && !previous) {
      throw new CheckpointError(
        `Checkpoint ${checkpoint.location} no longer has the commit of batch ${batchId - 1}, whose state batch ${batchId} started from; it is older than the retained batches.`,
      );
    }
    const state = this.storeIds.length === 0 ? undefined : await this.freshState(previous);
    const result = await this.executeBatch(
      intent,
      previous,
      state,
      await this.committedIntent(previous),
    );
    return { intent, schema: this.options.plan.schema, rows: result.output };
  }

  /** The state at `head`'s version read from the checkpoint, never from (nor into) the cache. */
  private async freshState(head: CommitRecord | undefined): Promise<CachedState> {
    const version = head ? stateVersionRefOf(head) : null;
    const loaded = await this.repository.load(version, this.storeIds);
    return { version, ...loaded };
  }

  /** The input available after the last committed batch, summed over the sources that can tell (undefined if none can). */
  async backlog(): Promise<number | undefined> {
    const head = await this.options.checkpoint.latestCommit();
    const intent = head ? await this.options.checkpoint.getIntent(head.batchId) : undefined;
    const counts = await Promise.all(
      this.sources.map((s, i) => s.backlog?.(intent?.end[i] ?? undefined)),
    );
    const known = counts.filter((c): c is number => c !== undefined);
    return known.length === 0 ? undefined : known.reduce((a, b) => a + b, 0);
  }

  /**
   * Maintenance until `deadlineMs` (a clock time): deletes state files, log entries and abandoned
   * writes that no retained version needs (see checkpoint-maintenance.ts).
   */
  maintain(deadlineMs = Infinity): Promise<CheckpointMaintenance> {
    return maintainCheckpoint(
      this.options,
      this.repository,
      this.options.minBatchesToRetain,
      deadlineMs,
    );
  }

  /** Gives up the lease this run holds, if any (an invocation does so when it ends). */
  async releaseLease(): Promise<void> {
    if (this.lease) await this.options.checkpoint.releaseLease(this.lease);
    this.lease = undefined;
    this.lastCommit = undefined;
  }

  /** Releases the lease, the sources and the sink's connections; a later batch reconnects. */
  async stop(): Promise<void> {
    await this.releaseLease();
    await Promise.all([...this.sources.map((s) => s.stop?.()), this.options.sink.close?.()]);
  }
}

/**
 * Whether two references name the same committed version. A manifest object's key is unique to the
 * attempt that wrote it; a version the commit carries is the one commit of its batch, so its batch
 * and its text identify it.
 */
function sameVersion(a: StateVersionRef | null, b: StateVersionRef | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.manifestKey === b.manifestKey && a.batchId === b.batchId && a.inlineState === b.inlineState
  );
}

/** Each stateful operator's next timer (by id) as the batch leaves its stores, for the commit. */
function nextTimers(plan: PhysicalPlan, streaming: StreamingExecution): Record<string, NextTimer> {
  const timers: Record<string, NextTimer> = {};
  for (const op of plan.statefulOperators) {
    const timer = op.nextTimer?.(streaming);
    if (timer) timers[op.operatorId] = timer;
  }
  return timers;
}

/** An operator's own figures for progress, by the names it declares (0 when it counted none). */
function customMetrics(op: StatefulOperator, counters: BatchCounters | undefined) {
  if (!op.customMetricNames) return {};
  return {
    customMetrics: Object.fromEntries(op.customMetricNames.map((n) => [n, counters?.[n] ?? 0])),
  };
}

/** When the shard last read input: this batch's time if it read any, else what the head says. */
function lastInputAt(
  intent: OffsetIntent,
  head: CommitRecord | undefined,
  progress: StreamingQueryProgress,
): number | undefined {
  return progress.numInputRows > 0 ? intent.batchTimestampMs : head?.lastInputAtMs;
}
