/**
 * What a user writes to run a query in the micro-batch function: the transformation from the
 * source's DataFrame to the result, and the output mode the result is written in. The function is
 * bundled with its query module (`export const handler = microBatchHandler(myQuery)`), so the query
 * is code, checked by the compiler, while where it reads and writes is configuration.
 *
 * The same module runs on a stream in Lambda and on a table in a test or a backfill:
 * `query(session.read...)` is the batch query whose result the stream converges to.
 */
import type { DataFrame, OutputMode, SluiceSession } from '../../core/index.js';

/** A query the micro-batch function runs. */
export interface QueryModule {
  /** How each batch's result is written (append: final rows only, after the watermark closes them). */
  readonly outputMode: OutputMode;
  /**
   * The transformation. `input` has the source's schema: Kafka's (`key`, `value` as binary, `topic`,
   * `partition`, `offset`, `timestamp`, ...) or a file source's.
   */
  query(input: DataFrame, session: SluiceSession): DataFrame;
}

/** Declares a query module; only gives `module` its type, so an editor checks it where it is written. */
export function defineQuery(module: QueryModule): QueryModule {
  return module;
}
