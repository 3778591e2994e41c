/**
 * StreamUnderTest: the query a stream test drives, across every start and stop on one checkpoint.
 * It owns what outlives a single run: the recording sink, the manual clock, the progress of every
 * batch, and the crash `crashAfter` arms.
 *
 * Batches run only when the test asks (a start, processAllAvailable, a check): the query's trigger
 * is a processing-time interval far longer than any test, and StreamingQuery.processAllAvailable
 * wakes it. So a batch holds exactly the data added before the action that ran it, whatever the
 * machine's speed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataFrame } from '../api/dataframe.js';
import type { OptionValue } from '../api/reader-options.js';
import type { OutputMode } from '../sinks/sink.js';
import type { BatchStep } from '../streaming/micro-batch-execution.js';
import type { StreamingQueryProgress } from '../streaming/progress.js';
import type { StreamingQuery } from '../streaming/streaming-query.js';
import { ManualClock } from './manual-clock.js';
import { RecordingSink } from './recording-sink.js';
import { InjectedCrash } from './stream-test-failure.js';

/** Longer than any test and within setTimeout's range (2^31 - 1 ms), so the trigger never fires by itself. */
const ON_DEMAND_TRIGGER_MS = 24 * 60 * 60_000;

/** How a stream test runs its query. */
export interface StreamTestOptions {
  /** Where the checkpoint lives. @default a new temporary directory, removed when the test ends */
  readonly checkpointLocation?: string;
  /** writeStream options of every start, e.g. `{ numStatePartitions: 2 }`. @default none */
  readonly writerOptions?: Readonly<Record<string, OptionValue>>;
  /** The manual clock's time when the test begins, in ms since the epoch. @default 0 */
  readonly startTimeMs?: number;
}

/** Options of one `startStream`, over the test's. */
export interface StartStreamOptions {
  /** writeStream options of this start, over the test's `writerOptions`. @default none */
  readonly writerOptions?: Readonly<Record<string, OptionValue>>;
}

/** The query of one stream test. */
export class StreamUnderTest {
  readonly sink = new RecordingSink();
  readonly clock: ManualClock;
  /** Every committed batch's progress, over every run, oldest first. */
  readonly progress: StreamingQueryProgress[] = [];
  readonly checkpointLocation: string;
  private readonly ownsCheckpoint: boolean;
  private query: StreamingQuery | undefined;
  private crashStep: BatchStep | undefined;
  private failure: { readonly error: unknown } | undefined;
  /** How many progress records assertNumStateRows has counted so far. */
  private stateCheckedThrough = 0;

  constructor(
    readonly df: DataFrame,
    readonly outputMode: OutputMode,
    private readonly options: StreamTestOptions = {},
  ) {
    this.clock = new ManualClock(options.startTimeMs ?? 0);
    this.ownsCheckpoint = options.checkpointLocation === undefined;
    this.checkpointLocation =
      options.checkpointLocation ??
      mkdtempSync(path.join(os.tmpdir(), 'sluice-stream-test-checkpoint-'));
  }

  /** True while a run of the query is active. */
  get isRunning(): boolean {
    return this.query?.isActive ?? false;
  }

  /** The progress of the last committed batch of any run. */
  get lastProgress(): StreamingQueryProgress | undefined {
    return this.progress[this.progress.length - 1];
  }

  /** The progress of the batches since the previous call (all batches at the first). */
  takeProgressSinceStateCheck(): StreamingQueryProgress[] {
    const since = this.progress.slice(this.stateCheckedThrough);
    this.stateCheckedThrough = this.progress.length;
    return since;
  }

  /** Starts a run on the checkpoint and processes what is available (recovering a crashed batch first). */
  async start(options: StartStreamOptions = {}): Promise<void> {
    let writer = this.df.writeStream
      .outputMode(this.outputMode)
      .sink(this.sink)
      .option('checkpointLocation', this.checkpointLocation)
      .trigger({ processingTime: ON_DEMAND_TRIGGER_MS })
      .clock(() => this.clock.now())
      .afterStep((step, batchId) => this.afterStep(step, batchId))
      .onProgress((p) => this.progress.push(p));
    const writerOptions = { ...this.options.writerOptions, ...options.writerOptions };
    for (const [key, value] of Object.entries(writerOptions)) writer = writer.option(key, value);
    this.query = await writer.start();
    await this.query.processAllAvailable();
  }

  /** Runs batches until none is left to run; rejects with the error that stopped the query, if one did. */
  async processAllAvailable(): Promise<void> {
    await this.query?.processAllAvailable();
  }

  /** Stops the run after its batch in flight. */
  async stop(): Promise<void> {
    await this.query?.stop();
  }

  /** Makes the next batch attempt that completes `step` crash right after it. */
  armCrash(step: BatchStep): void {
    this.crashStep = step;
  }

  /** Forgets an armed crash no batch met. */
  disarmCrash(): void {
    this.crashStep = undefined;
  }

  /** Keeps the error a stream action met for the expectFailure that follows it. */
  keepFailure(error: unknown): void {
    this.failure = { error };
  }

  /** The error kept for expectFailure, once. */
  takeFailure(): { readonly error: unknown } | undefined {
    const kept = this.failure;
    this.failure = undefined;
    return kept;
  }

  /** 'not started', 'running', 'stopped' or 'failed: <error>', for the report. */
  describeState(): string {
    if (!this.query) return 'not started';
    if (this.query.isActive) return 'running';
    const error = this.query.exception;
    return error === undefined ? 'stopped' : `failed: ${String(error)}`;
  }

  /** Stops the run and removes the checkpoint when the test made it. */
  async close(): Promise<void> {
    try {
      await this.stop();
    } finally {
      if (this.ownsCheckpoint) rmSync(this.checkpointLocation, { recursive: true, force: true });
    }
  }

  private afterStep(step: BatchStep, batchId: number): void {
    if (this.crashStep !== step) return;
    this.crashStep = undefined;
    throw new InjectedCrash(step, batchId);
  }
}
