/**
 * The next-batch decision, case by case: reuse the intent an earlier attempt wrote, plan a new one
 * when a source has data, run a no-data batch when the watermark moved under stateful operators that act on it
 * or an operator's timer is due, or stay idle.
 */
import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_FORMAT_VERSION,
  type CommitRecord,
  type OffsetIntent,
} from '../../core/checkpoint/checkpoint-store.js';
import { ExecutionError } from '../../core/errors.js';
import { type NextBatch, nextBatch, type NextBatchFacts } from '../../core/streaming/next-batch.js';

const now = 1_767_261_600_000;
const minute = 60_000_000;

function committedIntent(batchId: number, end: unknown[], watermarkMicros: number | null) {
  return {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    start: end.map(() => null),
    end,
    batchTimestampMs: now - 1_000,
    watermarkMicros,
  } satisfies OffsetIntent;
}

function head(batchId: number, nextWatermarkMicros: number | null): CommitRecord {
  return {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    stateManifest: null,
    eventTimeMax: {},
    nextWatermarkMicros,
  };
}

/** The intent a planned batch must carry. */
function planned(
  batchId: number,
  start: unknown[],
  end: unknown[],
  watermarkMicros: number | null,
): OffsetIntent {
  return {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    start,
    end,
    batchTimestampMs: now,
    watermarkMicros,
  };
}

const found = planned(3, [7], [9], 5 * minute);

describe('nextBatch', () => {
  const cases: ReadonlyArray<{
    readonly when: string;
    readonly facts: Omit<NextBatchFacts, 'batchTimestampMs'>;
    readonly next: NextBatch;
  }> = [
    {
      when: 'a new query whose source has data',
      facts: {
        head: undefined,
        committedIntent: undefined,
        latestOffsets: [5],
        operatorsActOnWatermark: false,
      },
      next: { kind: 'plan-new', intent: planned(0, [null], [5], null) },
    },
    {
      when: 'a new query whose source has no data yet',
      facts: {
        head: undefined,
        committedIntent: undefined,
        latestOffsets: [null],
        operatorsActOnWatermark: true,
      },
      next: { kind: 'idle' },
    },
    {
      when: 'a source has data after the head, starting where the head batch ended',
      facts: {
        head: head(2, 4 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [9],
        operatorsActOnWatermark: true,
      },
      next: { kind: 'plan-new', intent: planned(3, [7], [9], 4 * minute) },
    },
    {
      when: 'one of two sources has data (the other reads nothing)',
      facts: {
        head: head(2, null),
        committedIntent: committedIntent(2, [7, { p0: 3 }], null),
        latestOffsets: [7, { p0: 8 }],
        operatorsActOnWatermark: false,
      },
      next: { kind: 'plan-new', intent: planned(3, [7, { p0: 3 }], [7, { p0: 8 }], null) },
    },
    {
      when: 'a stateless query has no new data, even though the watermark moved',
      facts: {
        head: head(2, 4 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [7],
        operatorsActOnWatermark: false,
      },
      next: { kind: 'idle' },
    },
    {
      when: 'no new data, but the head moved the watermark under stateful operators that act on it',
      facts: {
        head: head(2, 4 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [7],
        operatorsActOnWatermark: true,
      },
      next: { kind: 'no-data', intent: planned(3, [7], [7], 4 * minute) },
    },
    {
      when: 'no new data, and the head set the first watermark under stateful operators that act on it',
      facts: {
        head: head(0, 4 * minute),
        committedIntent: committedIntent(0, [7], null),
        latestOffsets: [7],
        operatorsActOnWatermark: true,
      },
      next: { kind: 'no-data', intent: planned(1, [7], [7], 4 * minute) },
    },
    {
      when: 'no new data and the watermark stayed where the head batch ran',
      facts: {
        head: head(2, 3 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [7],
        operatorsActOnWatermark: true,
      },
      next: { kind: 'idle' },
    },
    {
      when: 'no new data and no watermark at all',
      facts: {
        head: head(2, null),
        committedIntent: committedIntent(2, [7], null),
        latestOffsets: [7],
        operatorsActOnWatermark: true,
      },
      next: { kind: 'idle' },
    },
    {
      when: "no new data and the watermark stayed, but an operator's timer is due",
      facts: {
        head: head(2, 3 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [7],
        operatorsActOnWatermark: false,
        timersDue: true,
      },
      next: { kind: 'no-data', intent: planned(3, [7], [7], 3 * minute) },
    },
    {
      when: 'no new data and no timer is due yet',
      facts: {
        head: head(2, 3 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [7],
        operatorsActOnWatermark: false,
        timersDue: false,
      },
      next: { kind: 'idle' },
    },
    {
      when: 'a source has data and a timer is due: the batch reads the data and fires the timer',
      facts: {
        head: head(2, 3 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [9],
        operatorsActOnWatermark: false,
        timersDue: true,
      },
      next: { kind: 'plan-new', intent: planned(3, [7], [9], 3 * minute) },
    },
    {
      when: 'an intent for the batch was found, though the sources now report more data',
      facts: {
        head: head(2, 4 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [12],
        operatorsActOnWatermark: true,
        existingIntent: found,
      },
      next: { kind: 'reuse-intent', intent: found },
    },
    {
      when: 'an intent for the batch was found, and the sources report nothing new',
      facts: {
        head: head(2, 3 * minute),
        committedIntent: committedIntent(2, [7], 3 * minute),
        latestOffsets: [7],
        operatorsActOnWatermark: false,
        existingIntent: found,
      },
      next: { kind: 'reuse-intent', intent: found },
    },
  ];

  it.each(cases)('is $next.kind when $when', ({ facts, next }) => {
    expect(nextBatch({ ...facts, batchTimestampMs: now })).toEqual(next);
  });

  const broken: ReadonlyArray<{ readonly when: string; readonly facts: NextBatchFacts }> = [
    {
      when: 'the intent found is of another batch',
      facts: {
        head: head(2, null),
        committedIntent: committedIntent(2, [7], null),
        latestOffsets: [9],
        operatorsActOnWatermark: false,
        batchTimestampMs: now,
        existingIntent: { ...found, batchId: 4 },
      },
    },
    {
      when: "the committed intent is not the head's",
      facts: {
        head: head(2, null),
        committedIntent: committedIntent(1, [7], null),
        latestOffsets: [9],
        operatorsActOnWatermark: false,
        batchTimestampMs: now,
      },
    },
    {
      when: 'a head comes without its intent',
      facts: {
        head: head(2, null),
        committedIntent: undefined,
        latestOffsets: [9],
        operatorsActOnWatermark: false,
        batchTimestampMs: now,
      },
    },
  ];

  it.each(broken)('is an internal error when $when', ({ facts }) => {
    expect(() => nextBatch(facts)).toThrow(ExecutionError);
    expect(() => nextBatch(facts)).toThrow(/^Internal error: /);
  });
});
