/**
 * The streaming aggregate's fold over column batches, for grouping keys that are tumbling windows
 * or columns of atomic values (strings, numbers, booleans, dates, timestamps). Per batch:
 * 1. each key becomes an integer code per row (window index, dictionary id, distinct value), and
 *    the codes a group id per row (group-ids.ts); a row whose watermarked window is null is in no
 *    group (a null window that carries no watermark is a group of its own, as in the row fold);
 * 2. per group, once: its key values (from its first row), the late check on its event time, and,
 *    for a group that is not late, its encoded key and its state (store.get), loaded once per
 *    micro-batch into `changed`;
 * 3. the aggregates' inputs are evaluated for the rows of groups that are not late (a late row's
 *    input is never evaluated, as in the row fold), and folded per group (group-accumulators.ts).
 * State values and keys are exactly the row fold's: Group = [key values, accumulators] under
 * encodeKey(key values). Sliding windows and nested keys use the row fold.
 */
import type { Column, ColumnBatch } from '../columnar/column-batch.js';
import { readerOf, type ColumnReader } from '../columnar/column-reader.js';
import { bindExpression } from '../expr/binder.js';
import type { Expression, TimeWindowExpression } from '../expr/expression.js';
import { encodeKey } from '../expr/group-key.js';
import { kernelOf } from '../expr/kernels/generic-kernel.js';
import { type Kernel, KernelInput } from '../expr/kernels/kernel.js';
import type { Scope } from '../expr/scope.js';
import { isTumbling, lastWindowStart } from '../expr/time-window.js';
import type { Aggregate } from '../plan/logical-plan.js';
import type { StateStore } from '../state/state-store.js';
import { copyStateValue } from '../state/state-value.js';
import { countDrops } from './dropped-rows.js';
import type { ExecutionContext } from './execution-context.js';
import { accumulate } from './group-accumulators.js';
import type { GroupFold } from './group-fold.js';
import { batchGroups, type KeyCodes, valueCodes, windowCodes } from './group-ids.js';
import type { Group, Grouping } from './grouping.js';
import type { PhysicalOperator } from './physical-operator.js';
import { RowKeyFold } from './row-key-fold.js';

/** One grouping key, bound to a kernel. */
type BoundKey =
  | {
      readonly kind: 'window';
      readonly time: Kernel;
      readonly window: TimeWindowExpression;
      /** True when the window carries the watermark: a row without a window then has no group. */
      readonly eventTime: boolean;
    }
  | { readonly kind: 'value'; readonly values: Kernel };

/** The rows of a batch assigned to their groups. */
interface AssignedRows {
  /** Each row's position in `groups`; -1 for a row in no group, late, or dropped. */
  readonly groupOfRow: Int32Array;
  /** The batch's groups that are not late, in order of their first row. */
  readonly groups: readonly Group[];
  /** The rows whose aggregate inputs are evaluated: those in a group that is not late. */
  readonly active: Uint8Array;
  /** How many rows were in late groups. */
  readonly late: number;
}

/** A key's codes for one batch, and how to read the key value of a row. */
interface KeyColumn {
  readonly codes: KeyCodes;
  readonly valueAt: (i: number) => unknown;
}

/** Folds batches into groups keyed by integer codes. */
export class IntegerKeyFold implements GroupFold {
  /** The same fold row by row, to report a failure as it would. */
  private readonly rowFold: RowKeyFold;

  private constructor(
    private readonly grouping: Grouping,
    private readonly keys: readonly BoundKey[],
  ) {
    this.rowFold = new RowKeyFold(grouping);
  }

  /** The fold for `node`, or undefined when one of its keys needs the row fold. */
  static of(node: Aggregate, grouping: Grouping, scope: Scope): IntegerKeyFold | undefined {
    const keys: BoundKey[] = [];
    for (const [i, e] of node.groupBy.entries()) {
      const key = bindKey(e, scope, grouping.eventTimeKey?.index === i);
      if (!key) return undefined;
      keys.push(key);
    }
    return new IntegerKeyFold(grouping, keys);
  }

  fold(
    input: PhysicalOperator,
    ctx: ExecutionContext,
    store: StateStore,
    lateBefore: number | undefined,
    changed: Map<string, Group>,
  ): number {
    let late = 0;
    input.produceBatches(ctx, (batch) => {
      late += this.foldBatch(batch, ctx, store, lateBefore, changed);
    });
    return late;
  }

  /** Folds one batch; returns the number of late rows in it. */
  private foldBatch(
    batch: ColumnBatch,
    ctx: ExecutionContext,
    store: StateStore,
    lateBefore: number | undefined,
    changed: Map<string, Group>,
  ): number {
    const input = new KernelInput(batch);
    let rows: AssignedRows;
    let values: (Column | undefined)[];
    try {
      rows = this.assignGroups(input, store, lateBefore, changed);
      values = this.grouping.aggregates.map((a) => a.inputKernel?.(input, rows.active));
    } catch (e) {
      // nothing is accumulated yet, so the row fold sees this batch's groups as they were loaded
      throw this.rowOrderFailure(batch, ctx, store, lateBefore, changed) ?? e;
    }
    if (input.hasDrops) {
      const groupOfRow = rows.groupOfRow;
      for (let i = 0; i < groupOfRow.length; i++) if (input.isDropped(i)) groupOfRow[i] = -1;
    }
    this.grouping.aggregates.forEach((aggregate, a) => {
      const accumulators = rows.groups.map((g) => g[1][a]);
      accumulate(aggregate, accumulators, rows.groupOfRow, values[a]);
      rows.groups.forEach((g, j) => (g[1][a] = accumulators[j]));
    });
    countDrops(ctx, input);
    return rows.late;
  }

  /** Steps 1 and 2: each row's group, each group looked up once, late rows left out. */
  private assignGroups(
    input: KernelInput,
    store: StateStore,
    lateBefore: number | undefined,
    changed: Map<string, Group>,
  ): AssignedRows {
    const keys = this.keys.map((k) => keyColumn(k, input));
    const n = input.batch.numRows;
    if (input.hasDrops) {
      for (const k of keys)
        for (let i = 0; i < n; i++) if (input.isDropped(i)) k.codes.codes[i] = -1;
    }
    const { groupOfRow, firstRow } = batchGroups(
      keys.map((k) => k.codes),
      n,
    );
    const groups: Group[] = [];
    const liveGroup = new Int32Array(firstRow.length).fill(-1);
    for (let g = 0; g < firstRow.length; g++) {
      const keyValues = keys.map((k) => k.valueAt(firstRow[g]));
      if (this.isLate(keyValues, lateBefore)) continue;
      liveGroup[g] = groups.length;
      groups.push(this.groupOf(keyValues, store, changed));
    }
    let late = 0;
    const active = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const g = groupOfRow[i];
      if (g < 0) continue;
      groupOfRow[i] = liveGroup[g];
      if (groupOfRow[i] < 0) late++;
      else active[i] = 1;
    }
    return { groupOfRow, groups, active, late };
  }

  /**
   * The failure the row fold meets first in `batch`, if any: kernels evaluate column by column and
   * may meet a later row's failure first (see row-order-failure.ts).
   */
  private rowOrderFailure(
    batch: ColumnBatch,
    ctx: ExecutionContext,
    store: StateStore,
    lateBefore: number | undefined,
    changed: Map<string, Group>,
  ): unknown {
    const input: PhysicalOperator = { produceBatches: (_ctx, consume) => consume(batch) };
    try {
      this.rowFold.fold(input, ctx, store, lateBefore, changed);
    } catch (e) {
      return e;
    }
    return undefined;
  }

  private isLate(keyValues: readonly unknown[], lateBefore: number | undefined): boolean {
    if (lateBefore === undefined) return false;
    const t = this.grouping.eventTime(keyValues);
    return t !== undefined && t <= lateBefore;
  }

  /** The group of `keyValues`: already changed this micro-batch, stored (copied), or new. */
  private groupOf(keyValues: unknown[], store: StateStore, changed: Map<string, Group>): Group {
    const key = encodeKey(keyValues);
    let group = changed.get(key);
    if (!group) {
      const stored = store.get(key) as Group | undefined;
      group = stored ? copyStateValue(stored) : this.grouping.newGroup(keyValues);
      changed.set(key, group);
    }
    return group;
  }
}

function bindKey(e: Expression, scope: Scope, eventTime: boolean): BoundKey | undefined {
  const inner = e.kind === 'alias' ? e.child : e;
  if (inner.kind === 'window') {
    if (!isTumbling(inner)) return undefined;
    const time = kernelOf(bindExpression(inner.timeColumn, scope));
    return { kind: 'window', time, window: inner, eventTime };
  }
  const bound = bindExpression(e, scope);
  switch (bound.dataType.kind) {
    case 'string':
    case 'boolean':
    case 'int':
    case 'long':
    case 'double':
    case 'timestamp':
    case 'date':
    case 'null':
      return { kind: 'value', values: kernelOf(bound) };
    default:
      return undefined;
  }
}

function keyColumn(key: BoundKey, input: KernelInput): KeyColumn {
  if (key.kind === 'value') {
    const column = key.values(input, null);
    return { codes: valueCodes(column), valueAt: readerOf(column) };
  }
  const time: ColumnReader = readerOf(key.time(input, null));
  const n = input.batch.numRows;
  const starts = new Float64Array(n);
  const hasWindow = new Uint8Array(n);
  const window = key.window;
  windowStarts(time, window, starts, hasWindow);
  const codes = windowCodes(starts, hasWindow, window.slideMicros);
  return {
    codes: key.eventTime ? codes : withNullCode(codes),
    valueAt: (i) => (hasWindow[i] === 1 ? [starts[i], starts[i] + window.durationMicros] : null),
  };
}

/**
 * Each row's window start into `starts`, and 1 into `hasWindow` for a row that has one. A function
 * of its own so that its loop, optimized mid-run, has no code after it that never ran (see
 * windowCodes in group-ids.ts).
 */
function windowStarts(
  time: ColumnReader,
  window: TimeWindowExpression,
  starts: Float64Array,
  hasWindow: Uint8Array,
): void {
  for (let i = 0; i < starts.length; i++) {
    const t = time(i) as number | null;
    if (t === null) continue;
    starts[i] = lastWindowStart(t, window);
    hasWindow[i] = 1;
  }
}

/** `key`'s codes with the rows in no group given a code of their own, the null group's. */
function withNullCode(key: KeyCodes): KeyCodes {
  const codes = key.codes;
  for (let i = 0; i < codes.length; i++) if (codes[i] < 0) codes[i] = key.cardinality;
  return { codes, cardinality: key.cardinality + 1 };
}
