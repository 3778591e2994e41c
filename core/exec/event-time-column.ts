/**
 * The event-time column of a schema: the column a watermark was declared on (or a value derived
 * from it that keeps the watermark, such as a window over it), which the watermark predicates read.
 * A timestamp is read as is; a window struct by its end, as Spark's predicates read a window.
 */
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';

/** Where a row's event time is, and the delay its watermark was declared with. */
export interface EventTimeColumn {
  readonly index: number;
  readonly delayMicros: number;
  readonly isWindow: boolean;
}

/**
 * The first watermarked column of `schema`, among the positions `among` when given (in that order);
 * undefined when there is none.
 */
export function eventTimeColumn(
  schema: StructType,
  among: readonly number[] = schema.fields.map((_, i) => i),
): EventTimeColumn | undefined {
  const index = among.find((i) => schema.fields[i].metadata?.eventTimeDelayMicros !== undefined);
  if (index === undefined) return undefined;
  const f = schema.fields[index];
  return {
    index,
    delayMicros: f.metadata!.eventTimeDelayMicros!,
    isWindow: f.dataType.kind === 'struct',
  };
}

/** The event time of `row` in `column` (microseconds), or undefined when it is null. */
export function eventTimeOf(row: Row, column: EventTimeColumn): number | undefined {
  const v = row[column.index];
  if (v === null || v === undefined) return undefined;
  return column.isWindow ? (v as number[])[1] : (v as number);
}
