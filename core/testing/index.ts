/**
 * Sluice's stream-test DSL (the package's `./testing` entry): streaming queries tested as scripts
 * of actions, after Spark's StreamTest. It needs no test framework: a failed check throws a
 * StreamTestFailure.
 */
export { testStream } from './stream-test.js';
export {
  addData,
  advanceClock,
  assertNumStateRows,
  checkAnswer,
  checkLastBatch,
  crashAfter,
  execute,
  expectFailure,
  type FailureMatcher,
  processAllAvailable,
  startStream,
  stopStream,
  type StreamAction,
} from './stream-actions.js';
export {
  type StartStreamOptions,
  type StreamTestOptions,
  StreamUnderTest,
} from './stream-under-test.js';
export { InjectedCrash, StreamTestFailure } from './stream-test-failure.js';
export { ManualClock } from './manual-clock.js';
export { type RecordedBatch, RecordingSink } from './recording-sink.js';
export { rowDifference, type RowDifference, rowText } from './row-text.js';
export { planOutline } from './plan-outline.js';
export { ProcessorTester, type ProcessorTesterOptions } from './processor-tester.js';
export { CrashInjector, type CrashInjectorOptions, InjectedCrashPoint } from './crash-injector.js';
export { crashingObjectStore } from './crashing-object-store.js';
export { crashingCheckpointStore } from './crashing-checkpoint-store.js';
export { crashingSink } from './crashing-sink.js';
export { crashingKafkaWriter } from './crashing-kafka-writer.js';
export { crashingSource } from './crashing-source.js';
