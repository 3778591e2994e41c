/**
 * A stream-stream join (Spark's StreamingSymmetricHashJoinExec): both sides keep their rows in state,
 * so each new row meets every row of the other side exactly once, whichever batch either arrives in.
 *
 * Per batch, with W this operator's watermark in force (the minimum over both inputs):
 * 1. drop late rows: on a side with a watermarked column, rows whose event time is <= W; counted.
 * 2. new left rows join the right side's state (rows of earlier batches), then join the left state.
 * 3. new right rows join the left state, which now holds this batch's left rows too: so new left
 *    rows meet new right rows here, once. A row that matches is marked matched, in state as well.
 * 4. evict, by the state watermark the condition gives each side (plan/join-state-watermark.ts):
 *    rows that can match no future row leave the state; an outer join emits those of its preserved
 *    side that never matched, with nulls for the other side. Under the previous batch's watermark
 *    there is nothing to evict, so a batch after a batch without data skips the walk, unless this
 *    batch stored a left row the watermark already expires.
 * A new right row that can already match nothing more is not stored (an outer join emits it at once
 * when it did not match). A new left row is stored even then (Spark's SPARK-49829): the right rows
 * of the same batch come after it and may match it, and they are not late when their time lies
 * between the previous batch's watermark and this one's, as the rows an operator beneath emits
 * when this batch's watermark closes them do; step 4 evicts it. A left semi join emits a left row at its first match and keeps no left row
 * that matched. A row whose join key has a null matches nothing (SQL `=`).
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import { ExecutionError } from '../errors.js';
import type { BatchClock } from '../expr/scope.js';
import { expressionName } from '../expr/expression-name.js';
import {
  eventTimeOf,
  type EventTimeColumn,
  joinStateEviction,
  type JoinStateEviction,
  watermarkColumn,
} from '../plan/join-state-watermark.js';
import type { Join } from '../plan/logical-plan.js';
import type { OutputMode } from '../sinks/sink.js';
import { typeName, type StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import {
  countForOperator,
  type ExecutionContext,
  type StreamingExecution,
} from './execution-context.js';
import { hashKey, joinKeysAndCombiner, type RowCombiner } from './join-exec.js';
import type { JoinKeys } from './join-keys.js';
import { JoinSideState } from './join-side-state.js';
import { collectRows, type BatchConsumer, type PhysicalOperator } from './physical-operator.js';
import type { StatefulOperator } from './stateful-operator.js';

/** The store of each side: under each join key, that side's rows with their matched flags. */
const LEFT_STORE = 'left';
const RIGHT_STORE = 'right';

/** The two sides' state in one batch. */
interface Sides {
  readonly left: JoinSideState;
  readonly right: JoinSideState;
}

/** A side's rows at or below these event times can match nothing more; undefined: keep them all. */
interface Expiry {
  readonly left?: (row: Row) => boolean;
  readonly right?: (row: Row) => boolean;
}

/** Runs a Join of two streams as a stateful operator. */
export class StreamingSymmetricHashJoinExec implements StatefulOperator {
  readonly operatorName = 'symmetricHashJoin';
  readonly storeNames = [LEFT_STORE, RIGHT_STORE];
  readonly stateDescription: string;
  private readonly joinType: Join['joinType'];
  private readonly keys: JoinKeys;
  private readonly combine: RowCombiner;
  private readonly eviction: JoinStateEviction;
  private readonly lateColumns: {
    readonly left?: EventTimeColumn;
    readonly right?: EventTimeColumn;
  };
  private readonly schema: StructType;

  constructor(
    /** Stable id of this stateful operator (its position in plan order); names its state. */
    readonly operatorId: number,
    node: Join,
    private readonly left: PhysicalOperator,
    private readonly right: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.joinType = node.joinType;
    ({ keys: this.keys, combine: this.combine } = joinKeysAndCombiner(node, clock));
    this.eviction = joinStateEviction(node);
    this.lateColumns = {
      left: watermarkColumn(node.left.schema),
      right: watermarkColumn(node.right.schema),
    };
    this.schema = node.schema;
    const on = node.usingColumns
      ? `using ${node.usingColumns.join(', ')}`
      : node.condition
        ? expressionName(node.condition)
        : 'true';
    this.stateDescription = `join ${node.joinType} on ${on} (left: ${typeName(node.left.schema)}; right: ${typeName(node.right.schema)})`;
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const streaming = ctx.streaming;
    if (!streaming)
      throw new ExecutionError('Internal error: a stream-stream join ran outside a stream.');
    const watermark = streaming.watermarkMicros(this.operatorId);
    // late by the previous batch's watermark (Spark's for late events), evicted by the current one
    const lateBefore = streaming.lateRowsWatermarkMicros(this.operatorId);
    const leftRows = this.dropLate(collectRows(this.left, ctx), 'left', lateBefore, streaming);
    const rightRows = this.dropLate(collectRows(this.right, ctx), 'right', lateBefore, streaming);
    const sides: Sides = {
      left: new JoinSideState(streaming.stateStore(this.operatorId, LEFT_STORE)),
      right: new JoinSideState(streaming.stateStore(this.operatorId, RIGHT_STORE)),
    };
    const expiry = this.expiry(watermark);
    const out: Row[] = [];
    let storedExpired = false;
    for (const l of leftRows)
      storedExpired = this.joinLeftRow(l, sides, expiry, out) || storedExpired;
    for (const r of rightRows) this.joinRightRow(r, sides, expiry, out);
    sides.left.flush();
    sides.right.flush();
    // The state this batch was given was evicted by the previous batch's watermark, and a new right
    // row it expires is not stored: under the same watermark (a batch after a batch without data)
    // the eviction would walk every key to remove nothing, unless a left row stored now is due.
    if (watermark !== lateBefore || storedExpired) this.evict(sides, expiry, out);
    if (out.length > 0) consume(rowsToValuesBatch(this.schema, out));
  }

  /**
   * A no-data batch is worth running when the watermark moved and some side evicts by it (an
   * outer join then emits its unmatched rows, and every join frees state).
   */
  shouldRunAnotherBatch(
    _outputMode: OutputMode,
    lastMicros: number | undefined,
    nextMicros: number | undefined,
  ): boolean {
    const { key, left, right } = this.eviction;
    if (!key && !left && !right) return false;
    if (nextMicros === undefined) return false;
    return lastMicros === undefined || nextMicros > lastMicros;
  }

  /**
   * The watermark of the join's output, as Spark 3.5 computes it: the lower of the two sides' state
   * watermarks (an output row may still come from any row held in state), else the input's.
   */
  outputWatermark(inputMicros: number | undefined): number | undefined {
    if (inputMicros === undefined) return undefined;
    const { key, left, right } = this.eviction;
    if (key) return inputMicros;
    const bounds = [left, right]
      .filter((b) => b !== undefined)
      .map((b) => inputMicros + b.offsetMicros);
    return bounds.length === 0 ? inputMicros : Math.min(...bounds);
  }

  /** The rows of one side that are not late, counting the others. */
  private dropLate(
    rows: Row[],
    side: 'left' | 'right',
    watermark: number | undefined,
    streaming: StreamingExecution,
  ): Row[] {
    const column = this.lateColumns[side];
    if (watermark === undefined || !column) return rows;
    const kept = rows.filter((row) => {
      const t = eventTimeOf(row[column.index], column.isWindow);
      return t === null || t > watermark;
    });
    if (kept.length < rows.length)
      countForOperator(
        streaming,
        this.operatorId,
        'numRowsDroppedByWatermark',
        rows.length - kept.length,
      );
    return kept;
  }

  /** Which held rows of each side can match nothing more under `watermark`. */
  private expiry(watermark: number | undefined): Expiry {
    if (watermark === undefined) return {};
    const { key, left, right } = this.eviction;
    const atOrBelow = (column: EventTimeColumn | undefined, threshold: number) =>
      column
        ? (row: Row) => {
            const t = eventTimeOf(row[column.index], column.isWindow);
            return t === null || t <= threshold;
          }
        : undefined;
    if (key)
      return { left: atOrBelow(key.left, watermark), right: atOrBelow(key.right, watermark) };
    return {
      left:
        left && atOrBelow({ index: left.column, isWindow: false }, watermark + left.offsetMicros),
      right:
        right &&
        atOrBelow({ index: right.column, isWindow: false }, watermark + right.offsetMicros),
    };
  }

  /**
   * Step 2: a new left row against the right state, then into the left state, even when it has
   * expired already (this batch's right rows have yet to meet it). True when it stored such a row.
   */
  private joinLeftRow(l: Row, sides: Sides, expiry: Expiry, out: Row[]): boolean {
    const key = hashKey(l, this.keys.left, this.keys.nullSafe);
    const matches = key === undefined ? [] : this.matching(sides.right.rows(key), l, 'left');
    if (key !== undefined && matches.length > 0) sides.right.markMatched(key, matches);
    const rightRows = key === undefined ? [] : sides.right.rows(key);
    const matched = matches.length > 0;
    if (this.joinType === 'left_semi') {
      if (matched) out.push(l);
    } else {
      for (const i of matches) out.push(this.combine(l, rightRows[i][0]));
    }
    const semiDone = this.joinType === 'left_semi' && matched;
    if (key !== undefined && !semiDone) {
      sides.left.append(key, l, matched);
      return expiry.left?.(l) === true;
    }
    if (!matched && this.preserves('left')) out.push(this.combine(l, null));
    return false;
  }

  /** Step 3: a new right row against the left state (this batch's left rows included). */
  private joinRightRow(r: Row, sides: Sides, expiry: Expiry, out: Row[]): void {
    const key = hashKey(r, this.keys.right, this.keys.nullSafe);
    const leftRows = key === undefined ? [] : sides.left.rows(key);
    // a left semi join emits a left row once: only at its first match
    const semi = this.joinType === 'left_semi';
    const candidates = semi ? leftRows.filter((e) => e[1] === 0) : leftRows;
    const matched = this.matching(candidates, r, 'right');
    const matches = semi ? matched.map((i) => leftRows.indexOf(candidates[i])) : matched;
    if (key !== undefined && matches.length > 0) sides.left.markMatched(key, matches);
    for (const i of matches) out.push(semi ? leftRows[i][0] : this.combine(leftRows[i][0], r));
    const anyMatch = matches.length > 0;
    if (key !== undefined && !expiry.right?.(r)) sides.right.append(key, r, anyMatch);
    else if (!anyMatch && this.preserves('right')) out.push(this.combine(null, r));
  }

  /**
   * Positions of the held rows that satisfy the rest of the condition with the new row, on `side`.
   * The condition reads each pair from one reused row, not a new one per held row: a key of a busy
   * join holds many rows, and a pair lives only as long as the condition's evaluation of it.
   */
  private matching(
    held: readonly (readonly [Row, 0 | 1])[],
    newRow: Row,
    side: 'left' | 'right',
  ): readonly number[] {
    if (held.length === 0) return NO_MATCHES;
    const residual = this.keys.residual;
    let positions: number[] | undefined;
    const pair: unknown[] = [];
    for (let i = 0; i < held.length; i++) {
      if (residual) {
        const heldRow = held[i][0];
        if (side === 'left') fillPair(pair, newRow, heldRow);
        else fillPair(pair, heldRow, newRow);
        if (residual(pair) !== true) continue;
      }
      (positions ??= []).push(i);
    }
    return positions ?? NO_MATCHES;
  }

  /** Step 4: evicts what can match nothing more, emitting the unmatched rows an outer join keeps. */
  private evict(sides: Sides, expiry: Expiry, out: Row[]): void {
    if (expiry.left) {
      const unmatched = this.preserves('left')
        ? (row: Row) => out.push(this.combine(row, null))
        : undefined;
      sides.left.evict(expiry.left, unmatched);
    }
    if (expiry.right) {
      const unmatched = this.preserves('right')
        ? (row: Row) => out.push(this.combine(null, row))
        : undefined;
      sides.right.evict(expiry.right, unmatched);
    }
  }

  /** True when the join keeps the unmatched rows of `side` (with nulls for the other). */
  private preserves(side: 'left' | 'right'): boolean {
    return this.joinType === 'full' || this.joinType === side;
  }
}

/** The positions of held rows matching a new row that matches none (most rows). */
const NO_MATCHES: readonly number[] = Object.freeze([]);

/** Writes the columns of `left` and then those of `right` into `pair`. */
function fillPair(pair: unknown[], left: Row, right: Row): void {
  for (let i = 0; i < left.length; i++) pair[i] = left[i];
  for (let i = 0; i < right.length; i++) pair[left.length + i] = right[i];
}
