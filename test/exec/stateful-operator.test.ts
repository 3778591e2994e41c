/**
 * When an operator's timer is due: the decision a batch without data waits on, case by case.
 */
import { describe, expect, it } from 'vitest';
import { isTimerDue, type NextTimer } from '../../core/exec/stateful-operator.js';

describe('isTimerDue', () => {
  const cases: ReadonlyArray<{
    readonly when: string;
    readonly timer: NextTimer | undefined;
    readonly watermarkMicros: number | undefined;
    readonly batchTimestampMs: number;
    readonly due: boolean;
  }> = [
    {
      when: 'there is no timer',
      timer: undefined,
      watermarkMicros: 9e9,
      batchTimestampMs: 9e9,
      due: false,
    },
    {
      when: 'the watermark reached an event-time timer',
      timer: { dueAtWatermarkMicros: 5_000 },
      watermarkMicros: 5_000,
      batchTimestampMs: 0,
      due: true,
    },
    {
      when: 'the watermark is short of an event-time timer',
      timer: { dueAtWatermarkMicros: 5_000 },
      watermarkMicros: 4_999,
      batchTimestampMs: 1e12,
      due: false,
    },
    {
      when: 'there is no watermark yet for an event-time timer',
      timer: { dueAtWatermarkMicros: 5_000 },
      watermarkMicros: undefined,
      batchTimestampMs: 1e12,
      due: false,
    },
    {
      when: 'the batch time reached a processing-time timer',
      timer: { dueAtProcessingTimeMs: 1_000 },
      watermarkMicros: undefined,
      batchTimestampMs: 1_000,
      due: true,
    },
    {
      when: 'the batch time is short of a processing-time timer',
      timer: { dueAtProcessingTimeMs: 1_000 },
      watermarkMicros: 9e9,
      batchTimestampMs: 999,
      due: false,
    },
    {
      when: 'only one of two kinds is due',
      timer: { dueAtWatermarkMicros: 9e9, dueAtProcessingTimeMs: 1_000 },
      watermarkMicros: 0,
      batchTimestampMs: 1_000,
      due: true,
    },
  ];

  it.each(cases)('is $due when $when', ({ timer, watermarkMicros, batchTimestampMs, due }) => {
    expect(isTimerDue(timer, watermarkMicros, batchTimestampMs)).toBe(due);
  });
});
