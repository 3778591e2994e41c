/**
 * A Sink whose every call passes the crash points of a CrashInjector (crash-injector.ts): a crash
 * before a batch reaches the sink, and one after the sink wrote it but before the engine learned so
 * (the case an idempotent sink exists for). The writes inside a sink are crashed at by the decorator
 * of the store or client the sink writes through.
 */
import type { Sink } from '../sinks/sink.js';
import type { CrashInjector } from './crash-injector.js';

/** `sink` with a crash point on both sides of open, every addBatch and close. */
export function crashingSink(sink: Sink, injector: CrashInjector): Sink {
  const open = sink.open?.bind(sink);
  const close = sink.close?.bind(sink);
  return {
    description: sink.description,
    ...(open && { open: (context) => injector.around('sink.open()', () => open(context)) }),
    addBatch: (batchId, rows, schema, outputMode) =>
      injector.around(`sink.addBatch(${batchId})`, () =>
        sink.addBatch(batchId, rows, schema, outputMode),
      ),
    ...(close && { close: () => injector.around('sink.close()', close) }),
  };
}
