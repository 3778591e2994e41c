/**
 * The plan of `df.sample`: a filter on a seeded Bernoulli draw per row, or, with replacement, an
 * explode of a seeded Poisson number of copies per row (core/functions/row-sampling.ts).
 */
import { InvalidOptionError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import { bernoulliDraw, poissonCopies } from '../functions/row-sampling.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import * as build from '../plan/plan-builder.js';

/** `fraction` when it is one `sample` accepts: in [0, 1], or any non-negative one with replacement. */
export function checkedFraction(fraction: number | undefined, withReplacement: boolean): number {
  const valid =
    typeof fraction === 'number' &&
    Number.isFinite(fraction) &&
    fraction >= 0 &&
    (withReplacement || fraction <= 1);
  if (!valid) {
    const range = withReplacement ? 'at least 0' : 'in [0, 1]';
    throw new InvalidOptionError(
      `sample: the fraction must be a number ${range} ${withReplacement ? 'with' : 'without'} replacement, not ${String(fraction)}.`,
    );
  }
  return fraction;
}

/** `seed` when it is a whole number (any, as Spark's long seed). */
export function checkedSeed(seed: number): number {
  if (!Number.isSafeInteger(seed)) {
    throw new InvalidOptionError(`sample: the seed must be a whole number, not ${seed}.`);
  }
  return seed;
}

/** `input` sampled: each row kept with probability `fraction`, or repeated Poisson(`fraction`) times. */
export function samplePlan(
  input: LogicalPlan,
  withReplacement: boolean,
  fraction: number,
  seed: number,
): LogicalPlan {
  const columns = input.schema.fields.map((f, i): Expression => ({
    kind: 'column',
    path: [f.name],
    ordinal: i,
  }));
  if (!withReplacement) {
    return build.filter(input, {
      kind: 'call',
      name: 'sample',
      args: [],
      binder: bernoulliDraw(fraction, seed),
    });
  }
  const copies: Expression = {
    kind: 'call',
    name: 'sample',
    args: [],
    binder: poissonCopies(fraction, seed),
  };
  const repeated = build.project(input, [
    ...columns,
    {
      kind: 'alias',
      name: '_sample_copy',
      child: { kind: 'explode', child: copies, outer: false },
    },
  ]);
  return build.project(repeated, columns);
}
