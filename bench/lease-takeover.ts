/**
 * How long a crashed invocation holds its query, for the checkpoint benchmark: a batch is killed
 * mid-way (after its state was persisted, before its sink and commit; a killed process does not
 * give its lease back), then a new invocation (a new container: new clients, cold state) tries
 * every second until one commits. The time from the crash to that commit is the takeover time: at
 * most the lease's duration, since a live batch renews its lease and a crashed one does not.
 */
import {
  type CheckpointBackend,
  MicroBatchExecution,
  type Sink,
  SluiceSession,
} from '../core/index.js';

/** A container's backend and how to close its clients. */
export interface TakeoverContainer {
  readonly backend: CheckpointBackend;
  readonly destroy: () => void;
}

/** What the takeover took. */
export interface TakeoverFigures {
  readonly leaseSeconds: number;
  /** From the crash to the commit of the batch it interrupted, by another invocation. */
  readonly seconds: number;
  /** Invocations until one committed (the ones before it found the lease held). */
  readonly invocations: number;
}

const DISCARD: Sink = { description: 'discard', addBatch: async () => {} };
const POLL_MS = 1_000;
const MAX_INVOCATIONS = 120;

class Killed extends Error {}

/**
 * Crashes a batch of a new query (`container` gives each invocation its own clients) holding a
 * lease of `leaseDurationMs`, and polls with new invocations until one commits.
 */
export async function takeoverAfterCrash(
  container: () => TakeoverContainer,
  leaseDurationMs: number,
): Promise<TakeoverFigures> {
  const session = new SluiceSession();
  const input = session.memoryStream('key STRING', 'keys');
  const df = session.readStream.memory(input).groupBy('key').count();
  const start = (c: TakeoverContainer, crash: boolean) =>
    MicroBatchExecution.start({
      ...c.backend,
      plan: df.plan,
      outputMode: 'update',
      sink: DISCARD,
      numStatePartitions: 4,
      snapshotInterval: 10,
      leaseDurationMs,
      afterStep: (step) => {
        if (crash && step === 'persist') throw new Killed('killed after persist');
      },
    });
  input.addData(Array.from({ length: 1_000 }, (_, i) => ({ key: `k${i}` })));
  const crashing = container();
  try {
    const outcome = await (await start(crashing, true)).runNextBatch().catch((e: unknown) => e);
    if (!(outcome instanceof Killed))
      throw new Error(`The crashing batch ended ${String(outcome)}`);
  } finally {
    crashing.destroy();
  }
  const crashedAt = performance.now();
  for (let invocation = 1; invocation <= MAX_INVOCATIONS; invocation++) {
    const c = container();
    try {
      const execution = await start(c, false);
      const outcome = await execution.runNextBatch();
      await execution.stop();
      if (outcome.kind === 'committed') {
        const seconds = Math.round((performance.now() - crashedAt) / 100) / 10;
        return { leaseSeconds: leaseDurationMs / 1000, seconds, invocations: invocation };
      }
      if (outcome.kind !== 'lease-held') throw new Error(`An invocation ended '${outcome.kind}'`);
    } finally {
      c.destroy();
    }
    const next = crashedAt + invocation * POLL_MS;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  throw new Error(`No invocation took over within ${MAX_INVOCATIONS} invocations.`);
}
