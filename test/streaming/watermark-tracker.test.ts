/**
 * The watermark tracker, case by case: each watermark node proposes its maximum event time minus its
 * delay, the query's watermark is the minimum (a node without data counts as the epoch), and it
 * never moves back.
 */
import { describe, expect, it } from 'vitest';
import {
  eventTimeMaxAfter,
  nextWatermark,
  type WatermarkNode,
} from '../../core/streaming/watermark-tracker.js';
import { atMicros } from '../support/events.js';

const minute = 60_000_000;
const tenMinutes: WatermarkNode = { watermarkId: 0, delayMicros: 10 * minute };
const fiveMinutes: WatermarkNode = { watermarkId: 1, delayMicros: 5 * minute };

describe('nextWatermark', () => {
  const cases: ReadonlyArray<{
    readonly when: string;
    readonly eventTimeMax: Record<string, number>;
    readonly nodes: readonly WatermarkNode[];
    readonly current: number | null;
    readonly next: number | null;
  }> = [
    {
      when: 'the plan has no watermark node',
      eventTimeMax: {},
      nodes: [],
      current: null,
      next: null,
    },
    {
      when: 'no node has seen data yet',
      eventTimeMax: {},
      nodes: [tenMinutes],
      current: null,
      next: null,
    },
    {
      when: 'one node saw data: its maximum minus its delay',
      eventTimeMax: { 0: atMicros('10:30:00') },
      nodes: [tenMinutes],
      current: null,
      next: atMicros('10:20:00'),
    },
    {
      when: 'the maximum moved on: the watermark follows',
      eventTimeMax: { 0: atMicros('10:45:00') },
      nodes: [tenMinutes],
      current: atMicros('10:20:00'),
      next: atMicros('10:35:00'),
    },
    {
      when: 'the proposal is behind the watermark in force (a longer delay after a restart)',
      eventTimeMax: { 0: atMicros('10:30:00') },
      nodes: [{ watermarkId: 0, delayMicros: 60 * minute }],
      current: atMicros('10:20:00'),
      next: atMicros('10:20:00'),
    },
    {
      when: 'two nodes saw data: the minimum of their proposals',
      eventTimeMax: { 0: atMicros('10:30:00'), 1: atMicros('10:22:00') },
      nodes: [tenMinutes, fiveMinutes],
      current: null,
      next: atMicros('10:17:00'),
    },
    {
      when: 'one of two nodes has no data yet: it counts as the epoch',
      eventTimeMax: { 0: atMicros('10:30:00') },
      nodes: [tenMinutes, fiveMinutes],
      current: null,
      next: 0,
    },
    {
      when: 'one of two nodes has no data yet, under a watermark in force',
      eventTimeMax: { 1: atMicros('10:30:00') },
      nodes: [tenMinutes, fiveMinutes],
      current: atMicros('10:00:00'),
      next: atMicros('10:00:00'),
    },
  ];

  it.each(cases)('when $when', ({ eventTimeMax, nodes, current, next }) => {
    expect(nextWatermark(eventTimeMax, nodes, current)).toBe(next);
  });
});

describe('eventTimeMaxAfter', () => {
  it('keeps the larger maximum per node, adds new nodes, and keeps nodes the batch did not see', () => {
    const soFar = { 0: atMicros('10:30:00'), 1: atMicros('10:10:00'), 2: atMicros('09:00:00') };
    const batch = new Map([
      [0, atMicros('10:20:00')],
      [1, atMicros('10:40:00')],
      [3, atMicros('11:00:00')],
    ]);
    expect(eventTimeMaxAfter(soFar, batch)).toEqual({
      0: atMicros('10:30:00'),
      1: atMicros('10:40:00'),
      2: atMicros('09:00:00'),
      3: atMicros('11:00:00'),
    });
    expect(soFar).toEqual({
      0: atMicros('10:30:00'),
      1: atMicros('10:10:00'),
      2: atMicros('09:00:00'),
    });
  });
});
