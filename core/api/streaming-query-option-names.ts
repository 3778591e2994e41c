/**
 * The options every streaming query takes (`writeStream.option(...)`), which reach its sink's option
 * map too, so that a sink checking its option names accepts them beside its own.
 */

/** The streaming query's own options, spelt as documented. */
export const STREAMING_QUERY_OPTIONS: readonly string[] = [
  'path',
  'checkpointLocation',
  'numStatePartitions',
  'snapshotInterval',
  'minBatchesToRetain',
  'inlineStateMaxBytes',
  'parallelism',
  'shard',
  'stage',
];

/**
 * Whether `key` (lower-cased, as the builders keep option names) is a streaming query's option,
 * those of a split query's repartition topic (`repartition.*`, core/api/query-stage.ts) included.
 */
export function isStreamingQueryOption(key: string): boolean {
  return QUERY_KEYS.has(key) || key.startsWith('repartition.');
}

const QUERY_KEYS: ReadonlySet<string> = new Set(
  STREAMING_QUERY_OPTIONS.map((name) => name.toLowerCase()),
);
