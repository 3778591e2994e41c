/**
 * A CheckpointStore whose every request passes the crash points of a CrashInjector
 * (crash-injector.ts): the lease, the intent, the commit transaction and every read, each crashed
 * before it is sent and after it took effect.
 */
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { CrashInjector } from './crash-injector.js';

/** `store` with a crash point on both sides of every request, named `checkpoint.request(batchId)`. */
export function crashingCheckpointStore(
  store: CheckpointStore,
  injector: CrashInjector,
): CheckpointStore {
  const at = <T>(request: string, run: () => Promise<T>) =>
    injector.around(`checkpoint.${request}`, run);
  const forget = store.forgetBatchesBefore?.bind(store);
  return {
    location: store.location,
    getMetadata: () => at('getMetadata()', () => store.getMetadata()),
    createMetadata: (metadata) => at('createMetadata()', () => store.createMetadata(metadata)),
    acquireLease: (owner, durationMs) =>
      at('acquireLease()', () => store.acquireLease(owner, durationMs)),
    releaseLease: (lease) => at('releaseLease()', () => store.releaseLease(lease)),
    latestCommit: () => at('latestCommit()', () => store.latestCommit()),
    getCommit: (batchId) => at(`getCommit(${batchId})`, () => store.getCommit(batchId)),
    getIntent: (batchId) => at(`getIntent(${batchId})`, () => store.getIntent(batchId)),
    putIntent: (intent) => at(`putIntent(${intent.batchId})`, () => store.putIntent(intent)),
    commit: (commit, lease) => at(`commit(${commit.batchId})`, () => store.commit(commit, lease)),
    // what a failed attempt leaves for `sluice status` is outside the protocol: no crash point
    recordFailure: (failure) => store.recordFailure(failure),
    recentFailures: (limit) => store.recentFailures(limit),
    ...(forget && {
      forgetBatchesBefore: (batchId: number) =>
        at(`forgetBatchesBefore(${batchId})`, () => forget(batchId)),
    }),
  };
}
