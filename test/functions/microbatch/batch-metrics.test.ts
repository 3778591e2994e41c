/**
 * The CloudWatch metrics of a committed batch and of an invocation, from the batch's progress.
 */
import { describe, expect, it } from 'vitest';
import {
  batchMetrics,
  invocationMetrics,
  METRIC,
} from '../../../functions/microbatch/batch-metrics.js';
import { progress } from './batch-progress.js';

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
  it('reports the batches an invocation committed', () => {
    expect(invocationMetrics(3)).toEqual([
      { name: METRIC.batchesCommitted, unit: 'Count', value: 3 },
    ]);
  });

  it('reports nothing for an idle invocation: the stalled alarm reads no data as no batch', () => {
    expect(invocationMetrics(0)).toEqual([]);
  });
});
