/**
 * The actions of a stream test, after Spark's StreamTest: each is a step of a script that feeds the
 * stream, runs it, checks it, or stops, restarts, crashes and recovers it.
 *
 * An action's check is a value: `run` returns why the check failed, or undefined when it held. An
 * error the stream itself raised (a batch failed, a start was refused) is thrown, so that testStream
 * can hand it to an `expectFailure` that follows, or else fail the test with it.
 */
import type { MemoryStream } from '../sources/memory-stream.js';
import type { BatchStep } from '../streaming/micro-batch-execution.js';
import type { StructType } from '../types/data-types.js';
import type { RowObject } from '../types/row.js';
import { rowDifference, rowText } from './row-text.js';
import { InjectedCrash } from './stream-test-failure.js';
import type { StartStreamOptions, StreamUnderTest } from './stream-under-test.js';

/** One step of a stream test. */
export interface StreamAction {
  /** How the action reads in a failure report of `stream`, e.g. `checkAnswer(2 rows)`. */
  describe(stream: StreamUnderTest): string;
  /**
   * True when the action needs the stream to have been started: testStream starts it before the
   * first such action unless a startStream comes earlier.
   */
  readonly needsStream: boolean;
  /** True for startStream. */
  readonly startsStream?: boolean;
  /** True for expectFailure, which takes the error the action before it met. */
  readonly expectsFailure?: boolean;
  /** Runs the action: why its check failed, or undefined. */
  run(stream: StreamUnderTest): Promise<string | undefined>;
}

/** What expectFailure accepts: an error class, a pattern of the message, or a predicate. */
export type FailureMatcher =
  (abstract new (...args: never[]) => Error) | RegExp | ((error: unknown) => boolean);

/** How many rows a description shows before it only counts them. */
const ROWS_SHOWN = 3;

/** `3 rows` or the rows themselves when there are few. */
function rowsText(rows: readonly RowObject[], schema: StructType): string {
  if (rows.length === 0) return 'no rows';
  if (rows.length > ROWS_SHOWN) return `${rows.length} rows`;
  return rows.map((r) => rowText(r, schema)).join(', ');
}

/** Adds rows to a memory stream (all at once: they are one batch's data unless a batch runs between). */
export function addData(stream: MemoryStream, rows: readonly RowObject[]): StreamAction {
  return {
    describe: () => `addData(${stream.description}, ${rowsText(rows, stream.schema)})`,
    needsStream: false,
    async run() {
      stream.addData(rows);
      return undefined;
    },
  };
}

/** Runs batches until every row available now is processed and the windows it closes are emitted. */
export function processAllAvailable(): StreamAction {
  return {
    describe: () => 'processAllAvailable()',
    needsStream: true,
    async run(stream) {
      if (!stream.isRunning) return 'the stream is not running; startStream() first.';
      await stream.processAllAvailable();
      return undefined;
    },
  };
}

/** Processes what is available, then checks the sink's whole content (order ignored, duplicates counted). */
export function checkAnswer(rows: readonly RowObject[]): StreamAction {
  return {
    describe: (s) => `checkAnswer(${rowsText(rows, s.df.plan.schema)})`,
    needsStream: true,
    async run(stream) {
      if (stream.isRunning) await stream.processAllAvailable();
      return differenceText('the sink', stream.sink.content(), rows, stream.df.plan.schema);
    },
  };
}

/** Processes what is available, then checks the rows of the last batch the sink received. */
export function checkLastBatch(rows: readonly RowObject[]): StreamAction {
  return {
    describe: (s) => `checkLastBatch(${rowsText(rows, s.df.plan.schema)})`,
    needsStream: true,
    async run(stream) {
      if (stream.isRunning) await stream.processAllAvailable();
      const last = stream.sink.lastBatch();
      if (!last) return rows.length === 0 ? undefined : 'the sink has received no batch.';
      return differenceText(`batch ${last.batchId}`, last.rows, rows, stream.df.plan.schema);
    },
  };
}

function differenceText(
  what: string,
  actual: readonly RowObject[],
  expected: readonly RowObject[],
  schema: StructType,
): string | undefined {
  const { missing, unexpected } = rowDifference(actual, expected, schema);
  if (missing.length === 0 && unexpected.length === 0) return undefined;
  const lines = [`${what} holds ${actual.length} rows where ${expected.length} were expected.`];
  if (missing.length > 0) lines.push('missing:', ...missing.map((r) => `  ${r}`));
  if (unexpected.length > 0) lines.push('unexpected:', ...unexpected.map((r) => `  ${r}`));
  return lines.join('\n');
}

/**
 * Processes what is available, then checks the state store: `total` rows after the last batch and,
 * when given, `updated` rows summed over the batches since the previous assertNumStateRows (or the
 * test's start), as Spark's StateStoreMetricsTest counts them. One number per stateful operator, or
 * one number for a query with one.
 */
export function assertNumStateRows(
  total: number | readonly number[],
  updated?: number | readonly number[],
): StreamAction {
  const perOperator = (n: number | readonly number[]) => (typeof n === 'number' ? [n] : [...n]);
  return {
    describe: () =>
      `assertNumStateRows(${String(total)}${updated === undefined ? '' : `, ${String(updated)}`})`,
    needsStream: true,
    async run(stream) {
      if (stream.isRunning) await stream.processAllAvailable();
      const last = stream.lastProgress;
      if (!last) return 'no batch has run, so no state store reports rows.';
      const totals = last.stateOperators.map((o) => o.numRowsTotal);
      const since = stream.takeProgressSinceStateCheck();
      const updates = last.stateOperators.map((_, op) =>
        since.reduce((n, p) => n + (p.stateOperators[op]?.numRowsUpdated ?? 0), 0),
      );
      const problems: string[] = [];
      if (rowText(totals) !== rowText(perOperator(total)))
        problems.push(`rows total ${rowText(totals)}, expected ${rowText(perOperator(total))}`);
      if (updated !== undefined && rowText(updates) !== rowText(perOperator(updated))) {
        problems.push(
          `rows updated over the last ${since.length} batches ${rowText(updates)}, expected ${rowText(perOperator(updated))}`,
        );
      }
      return problems.length === 0
        ? undefined
        : `the state store after batch ${last.batchId} has ${problems.join('; ')}.`;
    },
  };
}

/** Stops the stream after its batch in flight; the checkpoint stays for startStream. */
export function stopStream(): StreamAction {
  return {
    describe: () => 'stopStream()',
    needsStream: true,
    async run(stream) {
      if (!stream.isRunning) return 'the stream is not running.';
      await stream.stop();
      return undefined;
    },
  };
}

/**
 * Starts the stream on the test's checkpoint (a restart after stopStream or a crash: a crashed
 * batch is recovered first) and processes what is available.
 */
export function startStream(options: StartStreamOptions = {}): StreamAction {
  const given = Object.keys(options.writerOptions ?? {}).length > 0;
  return {
    describe: () => `startStream(${given ? JSON.stringify(options.writerOptions) : ''})`,
    needsStream: false,
    startsStream: true,
    async run(stream) {
      if (stream.isRunning) return 'the stream is already running; stopStream() first.';
      await stream.start(options);
      return undefined;
    },
  };
}

/** Moves the manual clock forward: batches planned from now on have this processing time. */
export function advanceClock(ms: number): StreamAction {
  return {
    describe: () => `advanceClock(${ms} ms)`,
    needsStream: false,
    async run(stream) {
      stream.clock.advance(ms);
      return undefined;
    },
  };
}

/**
 * Processes what is available with a crash armed: the next batch attempt that completes `step`
 * (lease, plan, load, run, persist, sink or commit) aborts right after it, as a process killed there
 * would, and the stream stops. startStream() then recovers on the same checkpoint.
 */
export function crashAfter(step: BatchStep): StreamAction {
  return {
    describe: () => `crashAfter('${step}')`,
    needsStream: true,
    async run(stream) {
      if (!stream.isRunning) return 'the stream is not running; startStream() first.';
      stream.armCrash(step);
      try {
        await stream.processAllAvailable();
      } catch (e) {
        if (e instanceof InjectedCrash) return undefined;
        throw e;
      } finally {
        stream.disarmCrash();
      }
      return `no batch attempt completed its ${step} step, so nothing crashed; add data first.`;
    },
  };
}

/**
 * Expects the stream to fail: with the error the action before it met (a start refused, a batch
 * failed), or else by processing what is available. `matcher` is an error class, a pattern of the
 * message or a predicate.
 */
export function expectFailure(matcher: FailureMatcher): StreamAction {
  return {
    describe: () => `expectFailure(${matcherText(matcher)})`,
    needsStream: true,
    expectsFailure: true,
    async run(stream) {
      const failure = stream.takeFailure() ?? (await failureOfProcessing(stream));
      if (!failure) return 'the stream did not fail.';
      if (matches(matcher, failure.error)) return undefined;
      return `the stream failed with ${String(failure.error)}, which does not match ${matcherText(matcher)}.`;
    },
  };
}

async function failureOfProcessing(
  stream: StreamUnderTest,
): Promise<{ readonly error: unknown } | undefined> {
  if (!stream.isRunning) return undefined;
  try {
    await stream.processAllAvailable();
    return undefined;
  } catch (error) {
    return { error };
  }
}

function matches(matcher: FailureMatcher, error: unknown): boolean {
  if (matcher instanceof RegExp)
    return matcher.test(error instanceof Error ? error.message : String(error));
  if (isErrorClass(matcher)) return error instanceof matcher;
  return matcher(error);
}

function isErrorClass(
  matcher: FailureMatcher,
): matcher is abstract new (...args: never[]) => Error {
  return typeof matcher === 'function' && (matcher === Error || matcher.prototype instanceof Error);
}

function matcherText(matcher: FailureMatcher): string {
  if (matcher instanceof RegExp) return String(matcher);
  return isErrorClass(matcher) ? matcher.name : 'a predicate';
}

/**
 * Runs `fn` on the stream (Spark's Execute / AssertOnQuery): to add files to a file source, or to
 * check what no other action does. A value returned is why the check failed.
 */
export function execute(
  description: string,
  fn: (stream: StreamUnderTest) => void | string | Promise<void | string>,
): StreamAction {
  return {
    describe: () => `execute(${description})`,
    needsStream: false,
    async run(stream) {
      return (await fn(stream)) ?? undefined;
    },
  };
}
