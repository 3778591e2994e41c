import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import { fileNameOf, pathGlobFilter } from '../../core/io/path-glob-filter.js';

/** The names of `names` that `glob` keeps. */
function kept(glob: string, names: readonly string[]): string[] {
  const matches = pathGlobFilter(glob);
  return names.filter(matches);
}

describe('pathGlobFilter, with Hadoop glob syntax', () => {
  const names = ['a.json', 'b.json.gz', 'ab.csv', 'part-1.csv', 'part-2.json', 'x.json.bak'];

  it('matches the whole name with * and ?', () => {
    expect(kept('*.json', names)).toEqual(['a.json', 'part-2.json']);
    expect(kept('?.json*', names)).toEqual(['a.json', 'b.json.gz', 'x.json.bak']);
  });

  it('matches sets, negated sets and alternatives', () => {
    expect(kept('part-[12].*', names)).toEqual(['part-1.csv', 'part-2.json']);
    expect(kept('[!p]*.csv', names)).toEqual(['ab.csv']);
    expect(kept('*.{csv,json.gz}', names)).toEqual(['b.json.gz', 'ab.csv', 'part-1.csv']);
  });

  it('takes characters after a backslash, and those regular expressions use, literally', () => {
    expect(kept('a\\*', ['a*', 'ab'])).toEqual(['a*']);
    expect(kept('a.(b)+', ['a.(b)+', 'ax(b)', 'a.bb'])).toEqual(['a.(b)+']);
  });

  it('refuses a malformed glob, naming the option', () => {
    expect(() => pathGlobFilter('[abc')).toThrow(InvalidOptionError);
    expect(() => pathGlobFilter('{a,b')).toThrow(/pathGlobFilter='\{a,b': a \{ is not closed/);
  });

  it('tests the last segment of a path', () => {
    expect(fileNameOf('2026/05/a.json')).toBe('a.json');
    expect(fileNameOf('a.json')).toBe('a.json');
  });
});
