/**
 * testStream: a streaming query tested as a script of actions, after Spark's StreamTest.
 *
 * ```ts
 * const events = session.memoryStream('ts TIMESTAMP, category STRING');
 * const counts = session.readStream.memory(events)
 *   .withWatermark('ts', '10 minutes')
 *   .groupBy(window(col('ts'), '10 minutes'), col('category')).count();
 * await testStream(counts, 'append')(
 *   addData(events, [{ ts: at('10:01'), category: 'a' }]),
 *   checkAnswer([]),                       // the window is still open
 *   addData(events, [{ ts: at('10:25'), category: 'a' }]),
 *   checkLastBatch([{ window: ..., category: 'a', count: 1 }]),
 *   stopStream(),
 *   startStream(),                         // the same checkpoint: state and watermark carry over
 *   crashAfter('sink'),                    // the next batch dies after writing the sink
 *   startStream(),                         // ...and is re-run from its intent
 * );
 * ```
 *
 * The actions run in order against one StreamUnderTest: one sink, one manual clock and one
 * checkpoint for every run. The stream is started before the first action that needs it unless a
 * startStream comes first. An error the stream raises fails the test at the action that met it,
 * unless the next action is an expectFailure, which takes it. When the test ends, passed or failed,
 * the stream is stopped and a checkpoint the test made is removed.
 *
 * A failed check throws a StreamTestFailure whose message reports the actions (the failing one
 * marked), the stream's state and last progress, the sink's content and the plan.
 */
import type { DataFrame } from '../api/dataframe.js';
import type { OutputMode } from '../sinks/sink.js';
import { startStream, type StreamAction } from './stream-actions.js';
import { failureReport } from './stream-test-report.js';
import { StreamTestFailure } from './stream-test-failure.js';
import { type StreamTestOptions, StreamUnderTest } from './stream-under-test.js';

/** Runs `actions` against `df` written in `outputMode`; rejects with a StreamTestFailure when one fails. */
export function testStream(
  df: DataFrame,
  outputMode: OutputMode = 'append',
  options: StreamTestOptions = {},
): (...actions: StreamAction[]) => Promise<void> {
  return async (...given) => {
    const actions = withImplicitStart(given);
    const stream = new StreamUnderTest(df, outputMode, options);
    try {
      for (let i = 0; i < actions.length; i++) await runAction(actions, i, stream);
    } finally {
      await stream.close();
    }
  };
}

/** The actions, with a startStream first when one that needs the stream comes before any startStream. */
function withImplicitStart(actions: readonly StreamAction[]): StreamAction[] {
  const firstNeedingStream = actions.findIndex((a) => a.needsStream);
  const firstStart = actions.findIndex((a) => a.startsStream);
  const startsFirst = firstStart !== -1 && firstStart < firstNeedingStream;
  return firstNeedingStream === -1 || startsFirst ? [...actions] : [startStream(), ...actions];
}

async function runAction(
  actions: readonly StreamAction[],
  i: number,
  stream: StreamUnderTest,
): Promise<void> {
  let problem: string | undefined;
  try {
    problem = await actions[i].run(stream);
  } catch (error) {
    if (actions[i + 1]?.expectsFailure) {
      stream.keepFailure(error);
      return;
    }
    const reason = `the stream failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    throw new StreamTestFailure(failureReport(actions, i, reason, stream), { cause: error });
  }
  if (problem !== undefined)
    throw new StreamTestFailure(failureReport(actions, i, problem, stream));
}
