/**
 * Join keys: what a hash join looks rows up by. A condition is split into its AND-ed conjuncts; each
 * equality (`=` or `<=>`) with one side over left columns only and the other over right columns only
 * becomes a key pair, and the remaining conjuncts form the residual condition, evaluated on the
 * concatenated row (left ++ right) of each candidate pair. Both halves of a key are cast to the type
 * the equality compares in, so equal values encode to equal hash keys.
 */
import { comparisonType, coerce } from '../expr/binary-operators.js';
import type { BatchClock } from '../expr/scope.js';
import { bindExpression } from '../expr/binder.js';
import type { BoundExpression, Evaluator } from '../expr/bound-expression.js';
import { childrenOf, type ColumnRef, type Expression } from '../expr/expression.js';
import { findField, type Scope } from '../expr/scope.js';
import { joinScope } from '../plan/join-scope.js';
import type { Join } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';

/** The equi-join keys and the residual condition of a join. */
export interface JoinKeys {
  /** Key values of a left row, one evaluator per key. */
  readonly left: readonly Evaluator[];
  /** Key values of a right row, pairwise comparable with `left`. */
  readonly right: readonly Evaluator[];
  /** Per key: true for `<=>`, where null matches null; a plain `=` never matches a null. */
  readonly nullSafe: readonly boolean[];
  /** The rest of the condition over left ++ right; absent when the keys are the whole condition. */
  readonly residual?: Evaluator;
}

/** Which join input an expression reads: one side, neither (constants), or both. */
type Side = 'left' | 'right' | 'none' | 'both';

/** One key: its half over the left input, its half over the right, and whether null matches null. */
interface BoundKey {
  readonly left: BoundExpression;
  readonly right: BoundExpression;
  readonly nullSafe: boolean;
}

/** Column positions of the keys of a `usingColumns` join, on each side. */
export interface UsingColumnPositions {
  readonly left: readonly number[];
  readonly right: readonly number[];
}

/** The keys of a condition join; no condition means every pair matches (no keys, no residual). */
export function conditionKeys(node: Join, clock: BatchClock): JoinKeys {
  const scope = { ...joinScope(node.left, node.right), clock };
  const width = node.left.schema.fields.length;
  const keys: BoundKey[] = [];
  const rest: Expression[] = [];
  for (const c of node.condition ? conjuncts(node.condition) : []) {
    const key = equiKey(c, scope, width);
    if (key) keys.push(key);
    else rest.push(c);
  }
  return {
    left: keys.map((k) => k.left.eval),
    right: keys.map((k) => k.right.eval),
    nullSafe: keys.map((k) => k.nullSafe),
    residual: rest.length === 0 ? undefined : bindExpression(rest.reduce(and), scope).eval,
  };
}

/** Where the `usingColumns` keys are on each side (the plan builder has checked that they exist). */
export function usingColumnPositions(node: Join, names: readonly string[]): UsingColumnPositions {
  return {
    left: names.map((name) => findField(node.left.schema, name)),
    right: names.map((name) => findField(node.right.schema, name)),
  };
}

/** The keys of a `usingColumns` join: plain equality of the named columns, no residual. */
export function usingKeys(positions: UsingColumnPositions): JoinKeys {
  const at = (i: number) => (row: Row) => row[i];
  return {
    left: positions.left.map(at),
    right: positions.right.map(at),
    nullSafe: positions.left.map(() => false),
  };
}

function conjuncts(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'and'
    ? [...conjuncts(e.left), ...conjuncts(e.right)]
    : [e];
}

function and(left: Expression, right: Expression): Expression {
  return { kind: 'binary', op: 'and', left, right };
}

/** The conjunct as a key when it equates an expression over the left with one over the right. */
function equiKey(c: Expression, scope: Scope, width: number): BoundKey | undefined {
  if (c.kind !== 'binary' || (c.op !== '=' && c.op !== '<=>')) return undefined;
  const a = sideOf(c.left, scope, width);
  const b = sideOf(c.right, scope, width);
  if (a === 'right' && b === 'left') {
    return equiKey({ ...c, left: c.right, right: c.left }, scope, width);
  }
  if (a !== 'left' || b !== 'right') return undefined;
  return { ...bindSides(c.left, c.right, scope, width), nullSafe: c.op === '<=>' };
}

function sideOf(e: Expression, scope: Scope, width: number): Side {
  const indices = columnRefs(e).map((ref) => scope.resolve(ref).index);
  if (indices.length === 0) return 'none';
  if (indices.every((i) => i < width)) return 'left';
  return indices.every((i) => i >= width) ? 'right' : 'both';
}

function columnRefs(e: Expression): ColumnRef[] {
  return e.kind === 'column' ? [e] : childrenOf(e).flatMap(columnRefs);
}

/** Binds a key's halves on their own inputs and casts both to the type `=` compares them in. */
function bindSides(
  l: Expression,
  r: Expression,
  scope: Scope,
  width: number,
): { left: BoundExpression; right: BoundExpression } {
  const left = bindExpression(l, sideScope(scope, 0));
  const right = bindExpression(r, sideScope(scope, width));
  const t = comparisonType('=', left.dataType, right.dataType);
  return { left: coerce(left, t), right: coerce(right, t) };
}

/** The join scope re-based on one input: columns resolve as in the condition, indexed into that side's row. */
function sideScope(scope: Scope, offset: number): Scope {
  return {
    schema: scope.schema,
    functions: scope.functions,
    resolve: (ref) => {
      const resolved = scope.resolve(ref);
      return { ...resolved, index: resolved.index - offset };
    },
  };
}
