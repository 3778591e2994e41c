/**
 * A module of the AWS adapter (core/aws), imported when a session that was given none of its
 * factories first needs one: a program that never reaches AWS loads no AWS SDK. The module is
 * named by a variable at each caller so that bundlers leave it out: a bundle that bundled a lazily
 * imported module would also keep every part of the SDK it re-exports (44 KB of DynamoDB in the
 * Lambda function's bundle, whose session gives its own factories and never comes here).
 */
import { InvalidOptionError } from '../errors.js';

/**
 * The module at `specifier` (relative to core/api); when it cannot be loaded, as in a bundled
 * program, an InvalidOptionError that says `what` needed it and how to give the session one.
 */
export async function importAwsAdapter<T>(
  specifier: string,
  what: string,
  fix: string,
): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    throw new InvalidOptionError(
      `${what} could not load Sluice's AWS adapter (${specifier.replace(/^\.\.\//, 'core/').replace(/\.js$/, '')}), as in a bundled program; create the session with one: ${fix}.`,
      { cause: error },
    );
  }
}
