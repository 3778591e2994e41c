/**
 * A Source whose every awaited call passes the crash points of a CrashInjector (crash-injector.ts):
 * each fetch of a source (planning the next batch's end, reading a batch's range, the commit after a
 * batch) crashed before it is made and after it answered. For a Kafka source these are the calls to
 * the brokers; a source that reads through an object store is crashed finer by that store's decorator.
 */
import type { Source } from '../sources/source.js';
import type { CrashInjector } from './crash-injector.js';

/**
 * `source` with a crash point on both sides of latestOffset, getBatch, commit and the optional
 * prepareForAvailableNow, backlog and stop, named `source.call(...)`. The synchronous reports
 * (reportLatestOffset, metrics, warnings) do no I/O and pass through.
 */
export function crashingSource(source: Source, injector: CrashInjector): Source {
  const at = <T>(call: string, run: () => Promise<T>) => injector.around(`source.${call}`, run);
  const prepare = source.prepareForAvailableNow?.bind(source);
  const backlog = source.backlog?.bind(source);
  const commit = source.commit?.bind(source);
  const stop = source.stop?.bind(source);
  const reportLatestOffset = source.reportLatestOffset?.bind(source);
  const metrics = source.metrics?.bind(source);
  const warnings = source.warnings?.bind(source);
  return {
    schema: source.schema,
    description: source.description,
    latestOffset: (start, context) =>
      at('latestOffset()', () => source.latestOffset(start, context)),
    getBatch: (start, end) => at('getBatch()', () => source.getBatch(start, end)),
    ...(prepare && {
      prepareForAvailableNow: (start) => at('prepareForAvailableNow()', () => prepare(start)),
    }),
    ...(backlog && { backlog: (end) => at('backlog()', () => backlog(end)) }),
    ...(commit && { commit: (end) => at('commit()', () => commit(end)) }),
    ...(stop && { stop: () => at('stop()', stop) }),
    ...(reportLatestOffset && { reportLatestOffset }),
    ...(metrics && { metrics }),
    ...(warnings && { warnings }),
  };
}
