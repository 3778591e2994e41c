/**
 * `session.catalog`: the names SQL can read, as Spark's Catalog lists them. The session's
 * temporary views (`df.createOrReplaceTempView(name)`) and the tables of its memory sinks (a query
 * with `format('memory')` and `queryName(name)`, which Spark also registers as temporary views).
 */
import type { LogicalPlan } from '../plan/logical-plan.js';
import type { StructType } from '../types/data-types.js';

/** One table or view, as `listTables()` describes it. */
export interface CatalogTable {
  readonly name: string;
  /** Always `TEMPORARY`: Sluice has no persistent tables. */
  readonly tableType: 'TEMPORARY';
  readonly isTemporary: true;
  /** True for a view over a streaming DataFrame: a query reading it is a stream. */
  readonly isStreaming: boolean;
  readonly schema: StructType;
}

/** What the catalog reads from its session. */
export interface CatalogEntries {
  readonly views: () => readonly { readonly name: string; readonly plan: LogicalPlan }[];
  readonly memoryTables: () => readonly { readonly name: string; readonly schema: StructType }[];
  /** Removes a view by name; true when there was one. */
  readonly dropView: (name: string) => boolean;
}

/** The session's catalog of temporary views and memory tables. */
export class Catalog {
  constructor(private readonly entries: CatalogEntries) {}

  /** Every temporary view and memory table, views first, each in the order it was registered. */
  listTables(): CatalogTable[] {
    const views = this.entries.views().map((v) => table(v.name, v.plan.schema, v.plan.isStreaming));
    const memory = this.entries.memoryTables().map((t) => table(t.name, t.schema, false));
    return [...views, ...memory];
  }

  /** True when a view or memory table of that name exists (view names are case-insensitive). */
  tableExists(name: string): boolean {
    const lower = name.toLowerCase();
    return this.listTables().some((t) => t.name.toLowerCase() === lower);
  }

  /** Drops the temporary view `name`; true when it existed, false when there was none (as Spark's). */
  dropTempView(name: string): boolean {
    return this.entries.dropView(name);
  }
}

function table(name: string, schema: StructType, isStreaming: boolean): CatalogTable {
  return { name, tableType: 'TEMPORARY', isTemporary: true, isStreaming, schema };
}
