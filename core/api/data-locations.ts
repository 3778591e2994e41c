/**
 * Where a batch query reads and writes, compared as locations rather than as the strings users
 * typed: a local path is made absolute, a URL (`s3://bucket/prefix/`) or a store's location loses
 * its trailing '/' and its scheme's case. Two locations overlap when one is the other or lies under
 * it; overwriting a location that overlaps one the query reads would delete its input before the
 * query has read it (Spark refuses the same: "Cannot overwrite a path that is also being read from").
 */
import path from 'node:path';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { AnalysisError } from '../errors.js';
import { allNodes, type LogicalPlan } from '../plan/logical-plan.js';
import { ObjectStoreUrls } from './object-store-urls.js';

/** The location a path, URL or store denotes, in the form relations record (`Relation.location`). */
export function normalizedLocation(location: string | ObjectStore): string {
  const text = typeof location === 'string' ? location : location.location;
  if (!ObjectStoreUrls.isUrl(text)) return path.resolve(text);
  const [scheme, rest] = text.split(/:(.*)/s);
  return `${scheme.toLowerCase()}:${rest.replace(/\/+$/, '')}`;
}

/**
 * Throws an AnalysisError when `target` (normalized) overlaps a location `plan` reads, naming both;
 * `what` says what the write would do (e.g. "overwrite").
 */
export function checkNotReadFrom(plan: LogicalPlan, target: string, what: string): void {
  for (const node of allNodes(plan)) {
    const read = node.kind === 'relation' ? node.location : undefined;
    if (read !== undefined && overlaps(read, target)) {
      throw new AnalysisError(
        `Cannot ${what} ${target}: the query reads ${read}, and the ${what} would delete its input before it is read. Write to another location, then replace the input with it.`,
      );
    }
  }
}

function overlaps(a: string, b: string): boolean {
  return a === b || within(a, b) || within(b, a);
}

function within(inner: string, outer: string): boolean {
  return inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}
