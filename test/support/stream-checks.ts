/**
 * Checks for stream-test scripts that Spark's StreamTest has and Sluice's DSL leaves to tests:
 * the rows new since the last such check (CheckNewAnswer), and rows dropped as late per operator.
 */
import type { RowObject } from '../../core/index.js';
import { execute, rowDifference, type StreamAction } from '../../core/testing/index.js';

/**
 * A `checkNewAnswer(rows)` for one script: processes what is available, then checks the rows the
 * sink received since the previous checkNewAnswer of the same checker (order ignored).
 */
export function newAnswerChecker(): (rows: readonly RowObject[]) => StreamAction {
  let seen = 0;
  return (rows) => ({
    describe: () => `checkNewAnswer(${JSON.stringify(rows)})`,
    // like checkAnswer, it starts the stream when the script has not yet
    needsStream: true,
    async run(s) {
      if (s.isRunning) await s.processAllAvailable();
      const all = s.sink.content();
      const fresh = all.slice(seen);
      seen = all.length;
      const { missing, unexpected } = rowDifference(fresh, rows, s.df.plan.schema);
      if (missing.length === 0 && unexpected.length === 0) return undefined;
      return `the new rows miss [${missing.join('; ')}] and hold unexpected [${unexpected.join('; ')}]`;
    },
  });
}

/** Checks the rows each stateful operator (by operatorId) dropped as late over every batch so far. */
export function droppedByWatermark(expected: readonly number[]): StreamAction {
  return execute(`droppedByWatermark(${expected.join(', ')})`, (s) => {
    const dropped = expected.map((_, op) =>
      s.progress.reduce((n, p) => n + (p.stateOperators[op]?.numRowsDroppedByWatermark ?? 0), 0),
    );
    return dropped.join(',') === expected.join(',')
      ? undefined
      : `the operators dropped ${dropped.join(', ')} rows as late`;
  });
}
