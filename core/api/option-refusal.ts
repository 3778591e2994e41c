/**
 * The refusal of an option name a reader or writer does not take. Spark ignores option names it does
 * not know, so a misspelt option or one Spark has and Sluice does not would silently do nothing;
 * Sluice's readers and writers refuse it instead, all with one message: what refused it, why, and the
 * options that are supported.
 */
import { InvalidOptionError } from '../errors.js';
import type { OptionValue } from './reader-options.js';

/** Which option names a reader or writer takes, and how to explain one it does not. */
export interface OptionNames {
  /** The call that takes the options, e.g. `read.format('json')`. */
  readonly call: string;
  /** What the options configure, for an unknown name: `json`, `Delta`. */
  readonly subject: string;
  /** True for a name (lower-cased, as the builders keep them) it takes. */
  readonly accepts: (key: string) => boolean;
  /** The supported options, as the message lists them. */
  readonly supported: string;
  /** Why a known option of Spark's is missing, by lower-cased name (see {@link missingOptions}). */
  readonly missing: ReadonlyMap<string, string>;
}

/** Reasons for missing options, keyed by lower-cased name, each sentence starting with the name. */
export function missingOptions(
  reasons: readonly (readonly [string, string])[],
): ReadonlyMap<string, string> {
  return new Map(reasons.map(([name, why]) => [name.toLowerCase(), `'${name}' ${why}`]));
}

/** Throws an InvalidOptionError for the first option `names` does not take. */
export function refuseUnknownOptions(
  options: ReadonlyMap<string, OptionValue>,
  names: OptionNames,
): void {
  for (const key of options.keys()) {
    if (names.accepts(key)) continue;
    const why =
      names.missing.get(key) ?? `'${key}' is not an option Sluice implements for ${names.subject}`;
    throw new InvalidOptionError(
      `${names.call} refuses an option: ${why}. Drop it; the supported options are ${names.supported}.`,
    );
  }
}
