import { describe, expect, it } from 'vitest';
import { manifestEntry, stateStoreId } from '../../core/state/state-store-id.js';

describe('state store ids', () => {
  it("keep an operator's default store where checkpoints kept it before stores had names", () => {
    expect(manifestEntry(stateStoreId(3))).toBe('3');
  });

  it('put a named store under its operator', () => {
    expect(manifestEntry(stateStoreId(1, 'left-keyToNumValues'))).toBe('1/left-keyToNumValues');
  });

  it.each(['', '../x', 'a/b', '1store', 'x'.repeat(65), 'white space'])(
    'refuse the store name %j, which is not safe in an object key',
    (name) => {
      expect(() => stateStoreId(0, name)).toThrow(/Internal error: state store name/);
    },
  );

  it.each([-1, 1.5, Number.NaN])('refuse the operator id %d', (id) => {
    expect(() => stateStoreId(id)).toThrow(/Internal error: stateful operator id/);
  });
});
