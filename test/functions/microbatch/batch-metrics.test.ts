/**
 * The CloudWatch metrics of a committed batch and of an invocation, from the batch's progress.
 */
import { describe, expect, it } from 'vitest';
import type { StreamingQueryProgress } from '../../../core/index.js';
import {
  batchMetrics,
  invocationMetrics,
  METRIC,
} from '../../../functions/microbatch/batch-metrics.js';

/** A committed batch's progress: 1,200 clicks read from two partitions, 7 late rows dropped. */
function progress(changes: Partial<StreamingQueryProgress> = {}): StreamingQueryProgress {
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

/** The metrics as name -> value. */
function values(metrics: ReturnType<typeof batchMetrics>): Record<string, number> {
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

describe('batchMetrics', () => {
  it("reports the batch's input, speed, duration, lateness, lag, state and watermark delay", () => {
    const now = Date.parse('2026-01-01T10:21:00Z');
    expect(values(batchMetrics(progress(), now))).toEqual({
      [METRIC.inputRows]: 1_200,
      [METRIC.processedRowsPerSecond]: 4_800,
      [METRIC.batchDurationMs]: 250,
      [METRIC.lateRowsDropped]: 7,
      [METRIC.watermarkDelayMs]: 16 * 60_000,
      [METRIC.sourceLagRecords]: 50 + 20,
      [METRIC.stateRows]: 37,
      [METRIC.stateLoadCold]: 0,
    });
  });

  it('counts a batch that loaded its state from the checkpoint as cold', () => {
    expect(values(batchMetrics(progress({ stateLoad: 'cold' }), 0))[METRIC.stateLoadCold]).toBe(1);
  });

  it('leaves out what the batch does not have: a watermark, latest offsets, state', () => {
    const [source] = progress().sources;
    const bare = progress({
      eventTime: {},
      stateLoad: 'none',
      stateOperators: [],
      sources: [{ ...source, latestOffset: undefined }],
    });
    expect(Object.keys(values(batchMetrics(bare, 0))).sort()).toEqual(
      [
        METRIC.inputRows,
        METRIC.processedRowsPerSecond,
        METRIC.batchDurationMs,
        METRIC.lateRowsDropped,
      ].sort(),
    );
  });

  it('gives every value a CloudWatch unit', () => {
    const units = Object.fromEntries(batchMetrics(progress(), 0).map((m) => [m.name, m.unit]));
    expect(units).toMatchObject({
      [METRIC.inputRows]: 'Count',
      [METRIC.processedRowsPerSecond]: 'Count/Second',
      [METRIC.batchDurationMs]: 'Milliseconds',
      [METRIC.watermarkDelayMs]: 'Milliseconds',
    });
  });
});

describe('invocationMetrics', () => {
  it('reports the batches an invocation committed, zero included', () => {
    expect(invocationMetrics(0)).toEqual([
      { name: METRIC.batchesCommitted, unit: 'Count', value: 0 },
    ]);
    expect(invocationMetrics(3)[0].value).toBe(3);
  });
});
