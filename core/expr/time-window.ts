/**
 * Event-time windows with Spark's boundaries: a window is [start, end), start = startTime + k * slide,
 * so the instant 10:10 belongs to [10:10, 10:20) and not to [10:00, 10:10). A tumbling window is the
 * case slide = duration (one window per row); sliding windows give ceil(duration / slide) per row.
 */
import {
  field,
  struct,
  type FieldMetadata,
  type StructType,
  TimestampType,
} from '../types/data-types.js';

/** The parameters of `window()`, in microseconds. */
export interface WindowSpec {
  readonly durationMicros: number;
  readonly slideMicros: number;
  readonly startMicros: number;
}

/** The type of a window value: `struct<start: timestamp, end: timestamp>`, watermarked when its time column is. */
export function windowStructType(metadata?: FieldMetadata): StructType {
  return struct([
    field('start', TimestampType, true, metadata),
    field('end', TimestampType, true, metadata),
  ]);
}

/** The start of the latest window that contains `t` (exact for negative times too). */
export function lastWindowStart(t: number, spec: WindowSpec): number {
  const offset =
    (((t - spec.startMicros) % spec.slideMicros) + spec.slideMicros) % spec.slideMicros;
  return t - offset;
}

/** Every window `[start, end]` containing `t`, earliest first. */
export function windowsContaining(t: number, spec: WindowSpec): [number, number][] {
  const last = lastWindowStart(t, spec);
  const out: [number, number][] = [];
  const count = Math.ceil(spec.durationMicros / spec.slideMicros);
  for (let i = count - 1; i >= 0; i--) {
    const start = last - i * spec.slideMicros;
    if (start + spec.durationMicros > t) out.push([start, start + spec.durationMicros]);
  }
  return out;
}

/** True when each row falls in exactly one window. */
export function isTumbling(spec: WindowSpec): boolean {
  return spec.slideMicros === spec.durationMicros;
}
