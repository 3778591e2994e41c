/**
 * The process a SIGKILL chaos run kills: one invocation of a seed's query on a local world another
 * process made, which kills itself with SIGKILL at crash point k (no `finally`, no flush, no lease
 * release: what a killed Lambda container leaves). Ends normally when the run passes fewer points.
 * Usage: tsx chaos-point.ts '<{"scenario": ..., "root": dir, "crashAt": k}>'
 */
import { CrashInjector } from '../../core/testing/index.js';
import { type ChaosScenario, invoke } from '../support/chaos-harness.js';
import { chaosWorld } from '../support/chaos-world.js';

const { scenario, root, crashAt } = JSON.parse(process.argv[2]) as {
  scenario: ChaosScenario;
  root: string;
  crashAt: number;
};
const world = await chaosWorld({ ...scenario, root });
const sleep = new Int32Array(new SharedArrayBuffer(4));
const injector = new CrashInjector({
  crashAt,
  onCrash: () => {
    process.kill(process.pid, 'SIGKILL');
    // The signal is on its way: nothing after this point may run.
    Atomics.wait(sleep, 0, 0, 10_000);
  },
});
await invoke(world, scenario, injector);
