/**
 * The chaos harness can fail: its comparison counts a row written twice, a row missing and a row with
 * a wrong value, and a crash after a sink that is not idempotent wrote its batch shows as duplicates.
 */
import { describe, expect, it } from 'vitest';
import { MemorySink, type RowObject, type Sink } from '../../core/index.js';
import { CrashInjector } from '../../core/testing/index.js';
import {
  type ChaosScenario,
  cleanRunPoints,
  compareOutput,
  invoke,
  runToEnd,
} from '../support/chaos-harness.js';
import { chaosInput } from '../support/chaos-input.js';
import { expectedOutput } from '../support/chaos-queries.js';
import { chaosWorld, type ChaosWorld } from '../support/chaos-world.js';

const SCENARIO: ChaosScenario = { seed: 3, backend: 'memory', sink: 'files', query: 'stateless' };

/** `world` with its output replaced by `rows`. */
function withOutput(world: ChaosWorld, rows: readonly RowObject[]): ChaosWorld {
  return { ...world, output: async () => rows };
}

/** `world` writing to a sink that appends every batch it is given, even one it has written. */
function withNaiveSink(world: ChaosWorld): ChaosWorld {
  const written: RowObject[] = [];
  const naive: Sink = {
    description: 'NaiveSink',
    addBatch: async (batchId, rows, schema, outputMode) => {
      const sink = new MemorySink(schema);
      await sink.addBatch(batchId, rows, schema, outputMode);
      written.push(...sink.rows());
    },
  };
  return {
    ...world,
    parts: (injector) => ({ ...world.parts(injector), sink: naive }),
    output: async () => written,
  };
}

describe('the chaos harness', () => {
  it('counts duplicates, losses and mismatches against the batch result', async () => {
    const input = chaosInput(SCENARIO.seed);
    const world = await chaosWorld({ ...SCENARIO, files: input.files });
    const expected = await expectedOutput('stateless', false, input.events);
    expect(expected.length).toBeGreaterThan(3);
    const [first, , third, ...rest] = expected;
    const tampered = [first, first, { ...third, category: 'z' }, ...rest];
    expect(await compareOutput(withOutput(world, tampered), SCENARIO, input.events)).toEqual({
      duplicates: 1,
      losses: 1,
      mismatches: 1,
    });
  });

  it('finds the duplicates of a sink that is not idempotent, crashed after it wrote a batch', async () => {
    const input = chaosInput(SCENARIO.seed);
    const points = await cleanRunPoints(SCENARIO);
    let duplicates = 0;
    let losses = 0;
    for (let crashAt = 0; crashAt < points; crashAt++) {
      const world = withNaiveSink(await chaosWorld({ ...SCENARIO, files: input.files }));
      await invoke(world, SCENARIO, new CrashInjector({ crashAt }));
      await runToEnd(world, SCENARIO);
      const outcome = await compareOutput(world, SCENARIO, input.events);
      duplicates += outcome.duplicates;
      losses += outcome.losses;
    }
    expect(duplicates).toBeGreaterThan(0);
    expect(losses).toBe(0);
  });
});
