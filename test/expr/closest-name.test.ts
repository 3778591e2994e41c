/** The "did you mean" of error messages: the known name fewest edits away, when it is close. */
import { describe, expect, it } from 'vitest';
import { closestName } from '../../core/expr/closest-name.js';

describe('closestName', () => {
  it.each([
    ['catgory', ['category', 'count'], 'category'],
    ['CATEGROY', ['category', 'count'], 'category'],
    ['cnt', ['count', 'sum'], 'count'],
    ['uper', ['upper', 'lower'], 'upper'],
    ['x', ['a', 'b'], undefined],
    ['totally_else', ['category'], undefined],
    ['category', ['category'], undefined],
  ])('%s among %j is %s', (name, known, expected) => {
    expect(closestName(name, known)).toBe(expected);
  });
});
