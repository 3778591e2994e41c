/**
 * The watermark tracker: from the event times a query has seen, the watermark of its next batch. A
 * pure function of what the commit record stores (the maximum event time so far per watermark node,
 * by its id), the nodes' delays and the watermark in force; MicroBatchExecution records the result
 * in the commit of batch N as the watermark batch N+1 runs under (Spark's WatermarkTracker with its
 * default 'min' policy).
 *
 * Rules:
 * - each watermark node proposes its maximum event time so far minus its delay;
 * - the query's watermark is the minimum over the nodes. As in Spark, a node that has seen no data
 *   yet counts as 0 (the epoch): until every input has data, no window closes on the strength of
 *   the others. Before any node has seen data there is no watermark;
 * - it never moves back: a proposal below the watermark in force (a delay raised on restart) keeps
 *   the one in force.
 */

/** A watermark node of the plan, as the tracker needs it. */
export interface WatermarkNode {
  /** Its stable id (position in plan order), the key of its event time in the commit record. */
  readonly watermarkId: number;
  readonly delayMicros: number;
}

/** The maximum event time per watermark node (by id), after one more batch saw `batchMax`. */
export function eventTimeMaxAfter(
  soFar: Readonly<Record<string, number>>,
  batchMax: ReadonlyMap<number, number>,
): Record<string, number> {
  const next: Record<string, number> = { ...soFar };
  for (const [id, t] of batchMax) next[id] = Math.max(next[id] ?? -Infinity, t);
  return next;
}

/**
 * The watermark of the next batch, from the maxima so far (`eventTimeMax`), the plan's watermark
 * nodes and the watermark in force (`current`; null before the first).
 */
export function nextWatermark(
  eventTimeMax: Readonly<Record<string, number>>,
  nodes: readonly WatermarkNode[],
  current: number | null,
): number | null {
  const seen = (n: WatermarkNode) => eventTimeMax[n.watermarkId] !== undefined;
  if (!nodes.some(seen)) return current;
  const proposed = Math.min(
    ...nodes.map((n) => (seen(n) ? eventTimeMax[n.watermarkId] - n.delayMicros : 0)),
  );
  return current === null ? proposed : Math.max(proposed, current);
}
