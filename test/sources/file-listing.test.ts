import { describe, expect, it } from 'vitest';
import { comparePaths, isHiddenPath } from '../../core/sources/file-listing.js';

describe('comparePaths', () => {
  it('orders paths by their UTF-8 bytes, as S3 orders keys', () => {
    const paths = ['b', 'a/b', 'a', '\u{1F600}.json', '\uFF5E.json', 'é.json', 'z.json', 'a-b'];
    const byUtf8 = [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...paths].sort(comparePaths)).toEqual(byUtf8);
    // where JavaScript's own order differs: U+1F600 (a surrogate pair) sorts after U+FF5E in UTF-8
    expect(comparePaths('\u{1F600}', '\uFF5E')).toBeGreaterThan(0);
    expect('\u{1F600}' < '\uFF5E').toBe(true);
  });

  it('puts a path before the paths it prefixes, and is zero only for equal paths', () => {
    expect(comparePaths('2026/01', '2026/01/a.json')).toBeLessThan(0);
    expect(comparePaths('a.json', 'a.json')).toBe(0);
  });
});

describe('isHiddenPath', () => {
  it('hides paths with a part starting with . or _, as Spark does', () => {
    for (const p of ['_SUCCESS', '.tmp', '_temporary/0/part.json', 'dt=1/.staging/x.json']) {
      expect(isHiddenPath(p)).toBe(true);
    }
    for (const p of ['part-0.json', 'dt=1/x_y.json', 'a.b/c.json'])
      expect(isHiddenPath(p)).toBe(false);
  });
});
