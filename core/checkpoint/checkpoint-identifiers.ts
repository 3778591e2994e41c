/**
 * The rule for the names a checkpoint is stored under, shared by everything that accepts one: the
 * micro-batch function's settings, the AWS checkpoint backend, the DynamoDB and S3 stores, and the
 * CDK construct, so that none of them takes a name another refuses.
 *
 * A query id names the query's item collection (`query#<id>`, also the IAM leading key) and the last
 * segment of its state prefix, so it is one safe key segment: letters, digits, '.', '-' and '_', but
 * never '.' or '..', which a directory would resolve to the prefix itself or its parent, putting the
 * query's state beside (or over) another's. A key prefix (`sluice`, `teams/growth`) is one or more
 * such non-empty segments separated by '/', none of them '.' or '..', with no '/' at either end.
 */
import { InvalidOptionError } from '../errors.js';

const QUERY_ID = /^[A-Za-z0-9._-]{1,128}$/;
const QUERY_ID_RULE = "1 to 128 letters, digits, '.', '-' or '_', and not '.' or '..'";

/**
 * `queryId`, checked; `setting` names where it came from (`SLUICE_QUERY_ID`, `queryId`). Throws
 * InvalidOptionError naming the setting when it is not a query id.
 */
export function validateQueryId(queryId: unknown, setting: string): string {
  if (typeof queryId !== 'string' || !QUERY_ID.test(queryId) || isDotSegment(queryId)) {
    throw new InvalidOptionError(
      `${setting}='${String(queryId)}' is invalid: use ${QUERY_ID_RULE}; it names the query's checkpoint items, state prefix and metrics.`,
    );
  }
  return queryId;
}

/**
 * `prefix`, checked; `setting` names where it came from (`SLUICE_STATE_PREFIX`, `statePrefix`).
 * Throws InvalidOptionError naming the setting when it is not a key prefix.
 */
export function validateKeyPrefix(prefix: unknown, setting: string): string {
  const problem = keyPrefixProblem(prefix);
  if (problem !== undefined) {
    throw new InvalidOptionError(
      `${setting}='${String(prefix)}' is invalid: it ${problem}; use a key prefix of '/'-separated names without a '/' at either end, e.g. 'sluice' or 'teams/growth'.`,
    );
  }
  return prefix as string;
}

function keyPrefixProblem(prefix: unknown): string | undefined {
  if (typeof prefix !== 'string' || prefix === '') return 'is empty';
  if (prefix.startsWith('/')) return "starts with '/' (S3 keys have no leading slash)";
  if (prefix.endsWith('/')) return "ends with '/'";
  const segments = prefix.split('/');
  if (segments.includes('')) return "has an empty segment ('//')";
  if (segments.some(isDotSegment)) return "has a '.' or '..' segment";
  return undefined;
}

function isDotSegment(segment: string): boolean {
  return segment === '.' || segment === '..';
}
