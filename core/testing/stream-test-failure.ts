/**
 * The errors of the stream-test DSL. It imports no test framework, so it reports a failed check by
 * throwing StreamTestFailure, which any runner shows as a failed test; InjectedCrash is the crash
 * `crashAfter` makes a batch meet.
 */
import { SluiceError, type SluiceErrorOptions } from '../errors.js';
import type { BatchStep } from '../streaming/micro-batch-execution.js';

/**
 * A stream test's check failed, or the stream failed where the test expected none. The message
 * names the action and what went wrong, then reports the actions so far, the stream's state and
 * last progress, the sink's content and the plan.
 */
export class StreamTestFailure extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('STREAM_TEST_FAILURE', message, options);
  }
}

/** The crash `crashAfter(step)` injects: it aborts the batch right after `step`, as a killed process would. */
export class InjectedCrash extends SluiceError {
  constructor(
    readonly step: BatchStep,
    readonly batchId: number,
  ) {
    super(
      'INJECTED_CRASH',
      `Crash injected by crashAfter('${step}') into batch ${batchId}, right after its ${step} step; startStream() recovers.`,
    );
  }
}
