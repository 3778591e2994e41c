/**
 * Column pruning for `from_json`: which top-level fields of each `from_json` result the query reads,
 * so its columnar kernel builds only those (`readFields` in the call's options) and leaves the rest
 * null. `select(from_json(value, 'ts TIMESTAMP, category STRING, user STRING').alias('e'))
 * .select('e.*').groupBy(window('ts', ...), 'category')` reads `ts` and `category` only.
 *
 * The pass walks the plan from the root down, carrying for each output column of a node what of it
 * the nodes above read (a FieldDemand), and turns that into what the node reads of its input's
 * columns. The root's every column is read whole: a sink, `collect()` and `foreachBatch` see all.
 * Only a column reference with a field path (`e.ts`) reads part of a struct, and only a select
 * passes a narrowed demand through an expression (an alias, a reference); any other expression
 * reads its operands whole (`to_json(e)`, `e IS NULL`), as do nodes whose rows the pass does not
 * follow column by column (a join, a select with a generator). A node kind the pass does not know
 * is left as it is with everything beneath it, so every `from_json` under it reads all its fields.
 *
 * A call reached along several paths (a DataFrame used twice) reads what any of them reads. Pruning
 * changes no result: a field left null is one no node reads, and an unread field is still checked,
 * so a record is as malformed (dropped, or failing) as it is without pruning.
 */
import {
  childrenOf,
  type ColumnRef,
  type Expression,
  type FunctionCall,
  replaceExpressions,
} from '../expr/expression.js';
import type { Scope } from '../expr/scope.js';
import { structFieldIndex } from '../expr/struct-field.js';
import type { DataType, StructType } from '../types/data-types.js';
import { inputsOf, type LogicalPlan } from './logical-plan.js';
import { planScope } from './plan-scope.js';

/**
 * What the query reads of a value: all of it, or some fields of a struct, each read in part (an
 * empty map: none of it, the value is computed but never read).
 */
export type FieldDemand = 'all' | ReadonlyMap<string, FieldDemand>;

/** Per output column of a node, what is read of it; undefined for a column nothing reads. */
type ColumnDemands = (FieldDemand | undefined)[];

const NOTHING: FieldDemand = new Map();

/** `plan` with each `from_json` call told the top-level fields the query reads of its result. */
export function pruneJsonFields(plan: LogicalPlan): LogicalPlan {
  const demands = new Map<FunctionCall, FieldDemand>();
  collectDemands(plan, wholeColumns(plan), demands);
  return withReadFields(plan, demands);
}

/** The union of two demands on one value. */
export function mergeDemands(a: FieldDemand | undefined, b: FieldDemand): FieldDemand {
  if (a === undefined) return b;
  if (a === 'all' || b === 'all') return 'all';
  const merged = new Map(a);
  for (const [name, d] of b) merged.set(name, mergeDemands(merged.get(name), d));
  return merged;
}

function wholeColumns(plan: LogicalPlan): ColumnDemands {
  return plan.schema.fields.map(() => 'all');
}

/** Records in `calls` what the query reads of each from_json call under `node`. */
function collectDemands(
  node: LogicalPlan,
  output: ColumnDemands,
  calls: Map<FunctionCall, FieldDemand>,
): void {
  const reader = new ExpressionDemands(calls);
  switch (node.kind) {
    case 'relation':
    case 'streamingRelation':
      return;
    case 'project': {
      const input = reader.over(node.input);
      const generates = node.generatorIndex !== undefined;
      node.exprs.forEach((e, i) => input.read(e, generates ? 'all' : (output[i] ?? NOTHING)));
      return collectDemands(node.input, input.columns, calls);
    }
    case 'filter': {
      const input = reader.over(node.input, output);
      input.read(node.condition, 'all');
      return collectDemands(node.input, input.columns, calls);
    }
    case 'aggregate': {
      const input = reader.over(node.input);
      for (const e of [...node.groupBy, ...node.aggregates]) input.read(e, 'all');
      return collectDemands(node.input, input.columns, calls);
    }
    case 'watermark': {
      const columns = [...output];
      columns[node.columnIndex] = 'all';
      return collectDemands(node.input, columns, calls);
    }
    case 'sort': {
      const input = reader.over(node.input, output);
      for (const o of node.orders) input.read(o.expr, 'all');
      return collectDemands(node.input, input.columns, calls);
    }
    case 'limit':
    case 'union':
      for (const input of inputsOf(node)) collectDemands(input, output, calls);
      return;
    default:
      for (const input of inputsOf(node)) collectDemands(input, wholeColumns(input), calls);
  }
}

/** Collects what expressions read of their input's columns, and of the from_json calls among them. */
class ExpressionDemands {
  constructor(private readonly calls: Map<FunctionCall, FieldDemand>) {}

  /** A reader of expressions over the output of `input`, whose columns `demands` already reads. */
  over(input: LogicalPlan, demands?: ColumnDemands): InputDemands {
    return new InputDemands(planScope(input), this.calls, demands);
  }
}

/** What is read of one input's columns by the expressions read so far. */
class InputDemands {
  readonly columns: ColumnDemands;

  constructor(
    private readonly scope: Scope,
    private readonly calls: Map<FunctionCall, FieldDemand>,
    demands: ColumnDemands | undefined,
  ) {
    this.columns = demands ? [...demands] : scope.schema.fields.map(() => undefined);
  }

  /** Records that `demand` is read of the value of `e`. */
  read(e: Expression, demand: FieldDemand): void {
    switch (e.kind) {
      case 'alias':
        return this.read(e.child, demand);
      case 'column':
        return this.readColumn(e, demand);
      case 'call':
        if (e.name === 'from_json') this.calls.set(e, mergeDemands(this.calls.get(e), demand));
        break;
    }
    for (const child of childrenOf(e)) this.read(child, 'all');
  }

  private readColumn(ref: ColumnRef, d: FieldDemand): void {
    const { index, field, nestedPath } = this.scope.resolve(ref);
    this.columns[index] = mergeDemands(this.columns[index], nested(field.dataType, nestedPath, d));
  }
}

/** The demand on a value of type `t` that reads `demand` of its field at `path`. */
function nested(t: DataType, path: readonly string[], demand: FieldDemand): FieldDemand {
  if (path.length === 0 || isNothing(demand)) return demand;
  if (t.kind !== 'struct') return 'all';
  const struct: StructType = t;
  const i = structFieldIndex(struct, path[0]);
  if (i < 0) return 'all';
  const f = struct.fields[i];
  return new Map([[f.name, nested(f.dataType, path.slice(1), demand)]]);
}

function isNothing(demand: FieldDemand): boolean {
  return demand !== 'all' && demand.size === 0;
}

/** `node` with each from_json call in `demands` that reads part of its result told which fields. */
function withReadFields(
  node: LogicalPlan,
  demands: ReadonlyMap<FunctionCall, FieldDemand>,
): LogicalPlan {
  const expr = (e: Expression) => rewriteCalls(e, demands);
  const input = (p: LogicalPlan) => withReadFields(p, demands);
  switch (node.kind) {
    case 'relation':
    case 'streamingRelation':
      return node;
    case 'project':
      return { ...node, input: input(node.input), exprs: node.exprs.map(expr) };
    case 'filter':
      return { ...node, input: input(node.input), condition: expr(node.condition) };
    case 'aggregate':
      return {
        ...node,
        input: input(node.input),
        groupBy: node.groupBy.map(expr),
        aggregates: node.aggregates.map(expr),
      };
    case 'watermark':
    case 'limit':
      return { ...node, input: input(node.input) };
    case 'sort':
      return {
        ...node,
        input: input(node.input),
        orders: node.orders.map((o) => ({ ...o, expr: expr(o.expr) })),
      };
    case 'union':
      return { ...node, inputs: node.inputs.map(input) };
    default:
      return node;
  }
}

function rewriteCalls(e: Expression, demands: ReadonlyMap<FunctionCall, FieldDemand>): Expression {
  return replaceExpressions(e, (x) => {
    if (x.kind !== 'call' || x.name !== 'from_json') return undefined;
    const args = x.args.map((a) => rewriteCalls(a, demands));
    const demand = demands.get(x);
    if (demand === undefined || demand === 'all') return { ...x, args };
    return { ...x, args, options: { ...x.options, readFields: [...demand.keys()] } };
  });
}
