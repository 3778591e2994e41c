/**
 * The per-row draws behind `sample`, as Spark samples: without replacement each row is kept with
 * probability `fraction` (a Bernoulli draw); with replacement each row is repeated a
 * Poisson(`fraction`) number of times. The draws come from a generator seeded with `seed` each time
 * the plan is bound, so the same input in the same order gives the same sample on every run (and a
 * re-run batch the same rows as before); the rows chosen differ from Spark's for the same seed.
 */
import type { FunctionBinder } from '../expr/function-table.js';
import { ArrayOf, BooleanType, IntegerType } from '../types/data-types.js';
import { seededRandom } from './seeded-random.js';

/** A binder of a call true for a row with probability `fraction`. */
export function bernoulliDraw(fraction: number, seed: number): FunctionBinder {
  return () => {
    const next = seededRandom(seed);
    return { dataType: BooleanType, nullable: false, eval: () => next() < fraction };
  };
}

/** A binder of a call giving each row an array of Poisson(`fraction`) elements, one per copy. */
export function poissonCopies(fraction: number, seed: number): FunctionBinder {
  return () => {
    const next = seededRandom(seed);
    const limit = Math.exp(-fraction);
    const draw = () => {
      // Knuth's method: multiply uniforms until the product falls below e^-fraction
      let copies = 0;
      for (let p = next(); p > limit; p *= next()) copies++;
      return copies;
    };
    return {
      dataType: ArrayOf(IntegerType, false),
      nullable: false,
      eval: () => Array.from({ length: draw() }, (_, i) => i),
    };
  };
}
