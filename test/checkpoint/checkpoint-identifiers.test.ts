import { describe, expect, it } from 'vitest';
import { InvalidOptionError, validateKeyPrefix, validateQueryId } from '../../core/index.js';

describe('the query id rule', () => {
  it.each(['clicks', 'clicks.v2', 'team_a-1', '...', 'a'.repeat(128)])('accepts %j', (id) => {
    expect(validateQueryId(id, 'queryId')).toBe(id);
  });

  it.each(['.', '..', '', 'a/b', 'query#1', 'has space', 'a'.repeat(129), undefined])(
    'refuses %j, naming the setting',
    (id) => {
      expect(() => validateQueryId(id, 'SLUICE_QUERY_ID')).toThrow(InvalidOptionError);
      expect(() => validateQueryId(id, 'SLUICE_QUERY_ID')).toThrow(
        `SLUICE_QUERY_ID='${String(id)}' is invalid`,
      );
    },
  );
});

describe('the key prefix rule', () => {
  it.each(['sluice', 'teams/growth', 'a.b/..c/d..'])('accepts %j', (prefix) => {
    expect(validateKeyPrefix(prefix, 'statePrefix')).toBe(prefix);
  });

  it.each([
    ['../../etc', "a '.' or '..' segment"],
    ['teams/./growth', "a '.' or '..' segment"],
    ['x/', "ends with '/'"],
    ['/sluice', "starts with '/'"],
    ['teams//growth', 'an empty segment'],
    ['', 'is empty'],
  ])('refuses %j, naming the setting and the problem', (prefix, problem) => {
    expect(() => validateKeyPrefix(prefix, 'SLUICE_STATE_PREFIX')).toThrow(
      new RegExp(
        `^SLUICE_STATE_PREFIX='${prefix.replaceAll('.', '\\.')}' is invalid: .*${problem.replaceAll('.', '\\.')}`,
      ),
    );
  });
});
