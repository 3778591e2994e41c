/**
 * Functions over event-time windows: `window_time(window)`, the event time of a window, which is its
 * end minus one microsecond (the latest instant inside it), as in Spark. It keeps the window's
 * watermark, so an aggregation of windowed results can window again by it and be closed by the
 * watermark: a windowed count of windowed counts.
 *
 * These are the binders; the DataFrame API builds the call in core/api/functions.ts.
 */
import { AnalysisError } from '../errors.js';
import type { FunctionTable } from '../expr/function-table.js';
import { TimestampType, typeName } from '../types/data-types.js';
import { nullIntolerant } from './function-registry.js';
import { requireArity } from './function-arguments.js';

/** Binders of the window functions. */
export const windowFunctions: FunctionTable = {
  window_time: (args) => {
    requireArity('window_time', args, 1);
    const [window] = args;
    const t = window.dataType;
    const isWindow =
      t.kind === 'struct' &&
      t.fields.length === 2 &&
      t.fields[0].name === 'start' &&
      t.fields[1].name === 'end' &&
      t.fields.every((f) => f.dataType.kind === 'timestamp');
    if (!isWindow) {
      throw new AnalysisError(
        `window_time needs a window column (struct<start: timestamp, end: timestamp>, made by window()), got ${typeName(t)}.`,
      );
    }
    return {
      dataType: TimestampType,
      nullable: true,
      eval: nullIntolerant([window], (w) => {
        const end = (w as (number | null)[])[1];
        return end === null ? null : end - 1;
      }),
      metadata: window.metadata,
    };
  },
};
