/**
 * Parsers of integer options for commander: a bad value is a usage error naming what was given.
 */
import { InvalidArgumentError } from 'commander';

/** A whole number ≥ 0 (a batch id, an operator id). */
export function nonNegativeInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new InvalidArgumentError(`'${text}' is not a whole number >= 0.`);
  }
  return n;
}

/** A whole number ≥ 1 (a count). */
export function positiveInteger(text: string): number {
  const n = nonNegativeInteger(text);
  if (n === 0) throw new InvalidArgumentError(`'${text}' is not a whole number >= 1.`);
  return n;
}
