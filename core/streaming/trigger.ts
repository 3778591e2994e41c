/**
 * Triggers: when micro-batches run. `processingTime` runs one every interval (immediately when the
 * previous one overran); `once` runs a single batch with everything available, ignoring the sources'
 * per-trigger limits; `availableNow` runs batches, within those limits, until what was available
 * when the query started has been processed (including the no-data batches that close windows),
 * then stops: data arriving meanwhile waits for the next run.
 */
import { InvalidOptionError } from '../errors.js';
import { parseDuration } from '../types/duration.js';

/** A trigger as users give it. */
export type Trigger =
  | { readonly processingTime: string | number }
  | { readonly once: true }
  | { readonly availableNow: true };

/** A validated trigger. */
export type ResolvedTrigger =
  | { readonly kind: 'processingTime'; readonly intervalMs: number }
  | { readonly kind: 'once' }
  | { readonly kind: 'availableNow' };

/** Validates a trigger; a number for processingTime is milliseconds. */
export function resolveTrigger(trigger: Trigger): ResolvedTrigger {
  if ('processingTime' in trigger) {
    const t = trigger.processingTime;
    const intervalMs =
      typeof t === 'number' ? t : parseDuration(t, 'trigger processingTime', true) / 1000;
    if (!Number.isFinite(intervalMs) || intervalMs < 0) {
      throw new InvalidOptionError(
        `trigger processingTime must be a non-negative duration, got ${String(t)}.`,
      );
    }
    return { kind: 'processingTime', intervalMs };
  }
  if ('once' in trigger && trigger.once) return { kind: 'once' };
  if ('availableNow' in trigger && trigger.availableNow) return { kind: 'availableNow' };
  throw new InvalidOptionError(
    `Unknown trigger ${JSON.stringify(trigger)}; use { processingTime: '10 seconds' }, { once: true } or { availableNow: true }.`,
  );
}
