/**
 * A command given the wrong arguments: printed as one line with the command's `--help` hint, and
 * the process exits with status 2, as commander's own usage errors do.
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
