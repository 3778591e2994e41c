/**
 * What the function writes to CloudWatch per invocation, which CloudWatch bills by the byte (logs)
 * and by the metric-hour (each metric name): one INFO line per batch, at most one EMF document per
 * invocation, only the alarms' metrics unless detailed metrics are on, nothing at all when idle.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamingQueryProgress } from '../../../core/index.js';
import { ALARM_METRICS, METRIC } from '../../../functions/microbatch/batch-metrics.js';
import { FunctionObservability } from '../../../functions/microbatch/observability.js';
import { lambdaContext } from '../../support/lambda-context.js';
import { progress } from './batch-progress.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The JSON lines one invocation writes, running `batches` through a fresh instance. */
function invocationOutput(
  batches: readonly StreamingQueryProgress[],
  detailedMetrics = false,
): Record<string, unknown>[] {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const observability = new FunctionObservability('clicks', {
    serviceName: 'sluice-microbatch',
    detailedMetrics,
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  observability.beginInvocation(lambdaContext(60_000), { scheduledTime: '2026-01-01T10:21:00Z' });
  for (const batch of batches) {
    observability.log({ message: 'batch committed', batchId: batch.batchId, progress: batch });
    observability.recordBatch(batch);
  }
  observability.endInvocation({ batches, stoppedBecause: 'idle' });
  vi.restoreAllMocks();
  return written
    .join('')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function emfDocuments(lines: readonly Record<string, unknown>[]) {
  return lines.filter((l) => '_aws' in l);
}

function metricNames(document: Record<string, unknown>): string[] {
  const aws = document._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] };
  return aws.CloudWatchMetrics.flatMap((m) => m.Metrics.map((metric) => metric.Name)).sort();
}

describe('FunctionObservability', () => {
  it('writes one INFO line per committed batch and nothing else but the one EMF document', () => {
    const lines = invocationOutput([progress({ batchId: 4 }), progress({ batchId: 5 })]);
    const logs = lines.filter((l) => !('_aws' in l));
    expect(logs.map((l) => [l.level, l.message, l.batchId])).toEqual([
      ['INFO', 'batch committed', 4],
      ['INFO', 'batch committed', 5],
    ]);
    expect(emfDocuments(lines)).toHaveLength(1);
  });

  it("publishes by default only the alarms' metrics: watermark delay, source lag, batches committed", () => {
    const [document] = emfDocuments(invocationOutput([progress(), progress({ batchId: 5 })]));
    expect(metricNames(document)).toEqual([...ALARM_METRICS].sort());
    expect(document).toMatchObject({ QueryId: 'clicks', BatchesCommitted: 2 });
    expect(document[METRIC.sourceLagRecords]).toEqual([70, 70]);
  });

  it('publishes every metric of a batch with detailed metrics on', () => {
    const [document] = emfDocuments(invocationOutput([progress()], true));
    expect(metricNames(document)).toEqual(Object.values(METRIC).sort());
  });

  it('writes nothing for an idle invocation at INFO: no line and no metrics document', () => {
    expect(invocationOutput([])).toEqual([]);
  });
});
