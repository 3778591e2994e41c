/**
 * The crash-and-restart run the recovery tests share: a streaming query over a memory stream is
 * killed right after one step of one batch, then run again on the same checkpoint, sink and source
 * by a fresh session (new execution, cold state), and fed the rest of the input.
 */
import {
  type BatchStep,
  type DataFrame,
  MemorySink,
  type MemoryStream,
  type RowObject,
  SluiceSession,
  type StreamingQueryProgress,
} from '../../core/index.js';
import { tempDir } from './temp-dir.js';

/** The crash the run injects. */
export class InjectedStepCrash extends Error {}

/** What to run and where to kill it. */
export interface CrashAndRestart {
  /** The query over `events`, built once per run in the session given. */
  readonly query: (session: SluiceSession, events: MemoryStream) => DataFrame;
  readonly schema: Parameters<SluiceSession['memoryStream']>[0];
  /**
   * Three chunks: chunk 0 runs before the crash is armed; the batch that reads chunk 1 (or, with `skip`, the
   * `skip`-th batch after it) is killed; chunk 2 and then `flush` (an event whose watermark closes
   * everything) are added after the restart.
   */
  readonly chunks: readonly RowObject[][];
  readonly flush: RowObject;
  readonly step: BatchStep;
  readonly skip?: number;
}

/** What the restarted run left: the sink's rows, its progress, and the batch that was killed. */
export interface RestartedRun {
  readonly rows: RowObject[];
  readonly progress: readonly StreamingQueryProgress[];
  readonly crashedBatch: number;
}

/** Runs `run`: kills it after its step, restarts it cold, and feeds the rest. */
export async function crashAndRestart(run: CrashAndRestart): Promise<RestartedRun> {
  const { query, schema, chunks, flush, step } = run;
  const checkpoint = tempDir();
  const session = new SluiceSession();
  const events = session.memoryStream(schema);
  const sink = new MemorySink(query(session, events).schema, 'recovery');
  let toSkip = Number.POSITIVE_INFINITY;
  let crashed = false;
  let crashedBatch = -1;
  const first = await query(session, events)
    .writeStream.outputMode('append')
    .sink(sink)
    .option('checkpointLocation', checkpoint)
    .afterStep((s, batchId) => {
      if (s !== step || crashed || toSkip-- > 0) return;
      crashed = true;
      crashedBatch = batchId;
      throw new InjectedStepCrash(`crash after ${s} of batch ${batchId}`);
    })
    .start();
  events.addData(chunks[0]);
  await first.processAllAvailable();
  toSkip = run.skip ?? 0;
  events.addData(chunks[1]);
  const crash = await first.processAllAvailable().catch((e: unknown) => e);
  if (!(crash instanceof InjectedStepCrash) || first.isActive) {
    throw new Error(`the run was to die after '${step}', but it ended with ${String(crash)}`);
  }

  const second = await query(new SluiceSession(), events)
    .writeStream.outputMode('append')
    .sink(sink)
    .option('checkpointLocation', checkpoint)
    .start();
  await second.processAllAvailable();
  events.addData(chunks[2]);
  await second.processAllAvailable();
  events.addData([flush]);
  await second.processAllAvailable();
  const progress = second.recentProgress;
  await second.stop();
  return { rows: sink.rows(), progress, crashedBatch };
}
