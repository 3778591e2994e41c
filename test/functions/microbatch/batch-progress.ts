/**
 * A committed batch's progress record, as the runner reports it, for the tests of what the function
 * publishes about a batch.
 */
import type { StreamingQueryProgress } from '../../../core/index.js';

/** A committed batch's progress: 1,200 clicks read from two partitions, 7 late rows dropped. */
export function progress(changes: Partial<StreamingQueryProgress> = {}): StreamingQueryProgress {
  return {
    id: 'q',
    runId: 'r',
    name: 'clicks',
    timestamp: '2026-01-01T10:20:00.000Z',
    batchId: 4,
    batchDuration: 250,
    numInputRows: 1_200,
    inputRowsPerSecond: 20,
    processedRowsPerSecond: 4_800,
    durationMs: {
      lease: 10,
      plan: 20,
      load: 0,
      run: 150,
      persist: 40,
      sink: 20,
      commit: 10,
      latestOffset: 15,
      walCommit: 5,
      addBatch: 210,
      commitOffsets: 10,
      triggerExecution: 250,
    },
    eventTime: { watermark: '2026-01-01T10:05:00.000Z', max: '2026-01-01T10:20:00.000Z' },
    stateOperators: [
      {
        operatorId: 0,
        operatorName: 'stateStoreSave',
        numRowsTotal: 37,
        numRowsUpdated: 12,
        numRowsRemoved: 5,
        memoryUsedBytes: 4_096,
        numRowsDroppedByWatermark: 7,
        numShufflePartitions: 15,
        numStateStoreInstances: 15,
      },
    ],
    stateLoad: 'warm',
    stateBytesWritten: 2_048,
    lateRowsDropped: 7,
    malformedRecordsDropped: 0,
    sources: [
      {
        description: 'KafkaSource[clicks]',
        startOffset: { clicks: { 0: 100, 1: 200 } },
        endOffset: { clicks: { 0: 700, 1: 800 } },
        latestOffset: { clicks: { 0: 750, 1: 820 } },
        numInputRows: 1_200,
        inputRowsPerSecond: 20,
        processedRowsPerSecond: 4_800,
      },
    ],
    sink: { description: 'DeltaSink', numOutputRows: 5 },
    ...changes,
  };
}
