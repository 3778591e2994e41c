/**
 * The report a failed stream test prints, after Spark's StreamTest: the actions with the failing
 * one marked, the stream's state and its last progress, the sink's content batch by batch, and the
 * plan. Enough to see what the stream did without running it again.
 */
import { planOutline } from './plan-outline.js';
import { rowText } from './row-text.js';
import type { StreamAction } from './stream-actions.js';
import type { StreamUnderTest } from './stream-under-test.js';

/** How many sink rows the report prints before it only counts the rest. */
const SINK_ROWS_SHOWN = 50;

/** The marker of the action that failed. */
export const FAILED_ACTION_MARKER = '=>';

/** The full report of a test that failed at `actions[failedAt]` because of `problem`. */
export function failureReport(
  actions: readonly StreamAction[],
  failedAt: number,
  problem: string,
  stream: StreamUnderTest,
): string {
  return [
    `Stream test failed at action ${failedAt + 1} of ${actions.length}, ${actions[failedAt].describe(stream)}:`,
    problem,
    '',
    '== Actions ==',
    ...actionLines(actions, failedAt, stream),
    '',
    '== Stream ==',
    `output mode: ${stream.outputMode}`,
    `state: ${stream.describeState()}`,
    `checkpoint: ${stream.checkpointLocation}`,
    `clock: ${stream.clock.now()} ms`,
    '',
    '== Last progress ==',
    stream.lastProgress ? JSON.stringify(stream.lastProgress, null, 2) : 'no batch has committed',
    '',
    '== Sink ==',
    ...sinkLines(stream),
    '',
    '== Plan ==',
    planOutline(stream.df.plan),
  ].join('\n');
}

function actionLines(
  actions: readonly StreamAction[],
  failedAt: number,
  stream: StreamUnderTest,
): string[] {
  return actions.map(
    (a, i) =>
      `${i === failedAt ? FAILED_ACTION_MARKER : ' '.repeat(FAILED_ACTION_MARKER.length)} ${a.describe(stream)}`,
  );
}

function sinkLines(stream: StreamUnderTest): string[] {
  const batches = stream.sink.recordedBatches();
  if (batches.length === 0) return ['no batch received'];
  const lines: string[] = [];
  let shown = 0;
  for (const batch of batches) {
    lines.push(`batch ${batch.batchId}: ${batch.rows.length} rows`);
    for (const row of batch.rows) {
      if (shown++ < SINK_ROWS_SHOWN) lines.push(`  ${rowText(row, stream.df.plan.schema)}`);
    }
  }
  if (shown > SINK_ROWS_SHOWN) lines.push(`... and ${shown - SINK_ROWS_SHOWN} more rows`);
  return lines;
}
