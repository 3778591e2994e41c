/**
 * Grouping: the shared core of batch and streaming aggregation. It binds the grouping keys and the
 * aggregates of an Aggregate node, assigns each input row to its group(s) (a sliding window puts a row
 * in several), and turns a group's accumulators into an output row.
 */
import { bindAggregate, type BoundAggregate } from '../expr/aggregate-functions.js';
import { bindExpression } from '../expr/binder.js';
import type { Evaluator } from '../expr/bound-expression.js';
import type { Expression, TimeWindowExpression } from '../expr/expression.js';
import type { Scope } from '../expr/scope.js';
import { isTumbling, windowsContaining } from '../expr/time-window.js';
import type { Aggregate } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { BatchClock } from '../expr/scope.js';
import type { DataType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { GroupIndex, type LookupKind } from './group-index.js';

/** A group: its key values and one accumulator per aggregate. Stored as is in the state store. */
export type Group = [keyValues: unknown[], accumulators: unknown[]];

/** Produces the values of one grouping key for a row; a sliding window yields several. */
type KeyEvaluator = { single: Evaluator } | { multiple: (row: Row) => unknown[] };

/** Bound grouping keys and aggregates of one Aggregate node. */
export class Grouping {
  readonly aggregates: readonly BoundAggregate[];
  /** The index of the grouping key that carries a watermark, and whether it is a window struct. */
  readonly eventTimeKey?: { readonly index: number; readonly isWindow: boolean };
  private readonly keys: readonly KeyEvaluator[];
  private readonly singleValued: boolean;
  private readonly inputs: readonly Evaluator[];
  private readonly lookupKinds: readonly LookupKind[];

  constructor(node: Aggregate, clock: BatchClock) {
    const scope = { ...planScope(node.input), clock };
    this.keys = node.groupBy.map((e) => bindKey(e, scope));
    this.singleValued = this.keys.every((k) => 'single' in k);
    this.aggregates = node.aggregates.map((e) =>
      bindAggregate(unalias(e) as Extract<Expression, { kind: 'aggregate' }>, scope),
    );
    this.inputs = this.aggregates.map((a) => a.input);
    this.lookupKinds = node.groupBy.map((e, i) => lookupKind(e, node.schema.fields[i].dataType));
    const index = node.schema.fields
      .slice(0, node.groupBy.length)
      .findIndex((f) => f.metadata?.eventTimeDelayMicros !== undefined);
    if (index >= 0) {
      this.eventTimeKey = { index, isWindow: node.schema.fields[index].dataType.kind === 'struct' };
    }
  }

  /** Calls `emit` with the key values of every group `row` belongs to (none when a window key is null). */
  forEachKey(row: Row, emit: (keyValues: unknown[]) => void): void {
    if (this.singleValued) {
      const values = new Array<unknown>(this.keys.length);
      for (let i = 0; i < this.keys.length; i++) {
        values[i] = (this.keys[i] as { single: Evaluator }).single(row);
      }
      if (this.eventTimeKey?.isWindow && values[this.eventTimeKey.index] === null) return;
      emit(values);
      return;
    }
    const choices = this.keys.map((k) => ('single' in k ? [k.single(row)] : k.multiple(row)));
    for (const combination of cartesian(choices)) emit(combination);
  }

  /** An empty index from this grouping's key values to `V`, for the per-row group lookup. */
  newIndex<V>(): GroupIndex<V> {
    return new GroupIndex<V>(this.lookupKinds);
  }

  /** A new group for `keyValues` with fresh accumulators. */
  newGroup(keyValues: unknown[]): Group {
    return [keyValues, this.aggregates.map((a) => a.init())];
  }

  /** Folds `row` into `group`'s accumulators. */
  update(group: Group, row: Row): void {
    const accs = group[1];
    for (let i = 0; i < accs.length; i++)
      accs[i] = this.aggregates[i].update(accs[i], this.inputs[i](row));
  }

  /** The output row of a group: key values, then aggregate results. */
  output(group: Group): Row {
    const [keyValues, accs] = group;
    const row = keyValues.slice();
    for (let i = 0; i < accs.length; i++) row.push(this.aggregates[i].result(accs[i]));
    return row;
  }

  /**
   * The event time that decides whether a group is closed: the end of its window, or the key itself.
   * Undefined when no grouping key carries a watermark.
   */
  eventTime(keyValues: readonly unknown[]): number | undefined {
    if (!this.eventTimeKey) return undefined;
    const v = keyValues[this.eventTimeKey.index];
    if (v === null) return undefined;
    return this.eventTimeKey.isWindow ? (v as number[])[1] : (v as number);
  }
}

function unalias(e: Expression): Expression {
  return e.kind === 'alias' ? e.child : e;
}

/** How a GroupIndex keys the values of grouping key `e` (see group-index.ts). */
function lookupKind(e: Expression, t: DataType): LookupKind {
  if (unalias(e).kind === 'window') return 'window';
  return t.kind === 'struct' || t.kind === 'array' || t.kind === 'map' || t.kind === 'binary'
    ? 'encoded'
    : 'value';
}

function bindKey(e: Expression, scope: Scope): KeyEvaluator {
  const inner = unalias(e);
  if (inner.kind === 'window' && !isTumbling(inner))
    return { multiple: slidingWindows(inner, scope) };
  return { single: bindExpression(e, scope).eval };
}

function slidingWindows(w: TimeWindowExpression, scope: Scope): (row: Row) => unknown[] {
  const time = bindExpression(w.timeColumn, scope).eval;
  return (row) => {
    const t = time(row) as number | null;
    return t === null ? [] : windowsContaining(t, w);
  };
}

function cartesian(choices: unknown[][]): unknown[][] {
  return choices.reduce<unknown[][]>(
    (acc, values) => acc.flatMap((prefix) => values.map((v) => [...prefix, v])),
    [[]],
  );
}
