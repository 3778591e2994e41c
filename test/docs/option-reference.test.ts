/**
 * The option reference cannot drift from the code: every option a registry accepts is described,
 * every description names an option that is accepted, and docs/options.md is what the registries
 * generate today.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkFileOptionNames } from '../../core/api/file-option-names.js';
import { checkFileWriterOptionNames } from '../../core/api/file-writer-options.js';
import { InvalidOptionError } from '../../core/errors.js';
import { optionFamilies, optionReference } from '../../docs/reference/option-reference.js';

describe('the option reference', () => {
  for (const family of optionFamilies()) {
    it(`describes exactly the options of ${family.title.toLowerCase()}`, () => {
      expect(Object.keys(family.descriptions).sort()).toEqual([...family.options.keys()].sort());
    });
  }

  it('lists for each file format the options its reader and writer accept, and no other', () => {
    const option = (name: string) => new Map([[name.toLowerCase(), 'x']]);
    for (const format of ['json', 'csv'] as const) {
      expect(() => checkFileOptionNames(option('header'), format, 'read')).not.toThrow();
      expect(() =>
        checkFileOptionNames(option('maxFilesPerTrigger'), format, 'readStream'),
      ).not.toThrow();
      expect(() =>
        checkFileWriterOptionNames(option('compression'), format, 'write'),
      ).not.toThrow();
      expect(() => checkFileOptionNames(option('sourceArchiveDir'), format, 'read')).toThrow(
        InvalidOptionError,
      );
    }
    const readers = optionFamilies().find((f) => f.title === 'File sources')!;
    expect(readers.options.get('maxFilesPerTrigger')).toBe('streams of every format');
    expect(readers.options.get('header')).toBe('csv');
  });

  it('is checked in as generated (run npm run docs:options after changing an option)', () => {
    const page = readFileSync(new URL('../../docs/options.md', import.meta.url), 'utf8');
    expect(page).toBe(optionReference());
  });
});
