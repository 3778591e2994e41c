/**
 * The SIGKILL side of the chaos harness: a seed's invocation runs in a child process that kills
 * itself with SIGKILL at crash point k (test/chaos/chaos-point.ts), then this process runs the query
 * to the end on the same local directories and compares the sink with the batch query.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type ChaosScenario, checkedRun, type RunOutcome } from './chaos-harness.js';

const POINT_PROCESS = fileURLToPath(new URL('../chaos/chaos-point.ts', import.meta.url));

/** Runs the child; resolves true when it was killed, false when it ended without reaching k. */
function killedAt(scenario: ChaosScenario, root: string, crashAt: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    // node itself (not the tsx wrapper, which would outlive its killed child)
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', POINT_PROCESS, JSON.stringify({ scenario, root, crashAt })],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(true);
      else if (code === 0) resolve(false);
      else reject(new Error(`chaos point process failed (${code}): ${stderr}`));
    });
  });
}

/** Kills a child process at point `crashAt` of a local-backend scenario, recovers here and compares. */
export async function sigkillRun(
  scenario: ChaosScenario,
  crashAt: number,
): Promise<RunOutcome & { readonly crashPoints: number }> {
  if (scenario.backend !== 'local' || scenario.sink === 'kafka' || scenario.sink === 'dynamodb') {
    throw new Error(
      'a SIGKILL run needs what outlives a process: the local backend and a Delta or files sink',
    );
  }
  let crashPoints = 0;
  const outcome = await checkedRun(scenario, undefined, async (world) => {
    if (await killedAt(scenario, world.root!, crashAt)) crashPoints++;
  });
  return { crashPoints, ...outcome };
}
