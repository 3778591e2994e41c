import { describe, expect, it } from 'vitest';
import { fileStreamSettings } from '../../core/api/file-stream-options.js';
import type { OptionValue } from '../../core/api/reader-options.js';
import { InvalidOptionError, SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const settings = (options: Record<string, OptionValue>) =>
  fileStreamSettings(new Map(Object.entries(options).map(([k, v]) => [k.toLowerCase(), v])));

describe('file stream options', () => {
  it('reads byte sizes as numbers or with a binary unit', () => {
    expect(settings({ maxBytesPerTrigger: 1000 }).maxBytesPerTrigger).toBe(1000);
    expect(settings({ maxBytesPerTrigger: '64m' }).maxBytesPerTrigger).toBe(64 * 1024 * 1024);
    expect(settings({ maxBytesPerTrigger: '2 KB' }).maxBytesPerTrigger).toBe(2048);
  });

  it('reads maxFileAge as milliseconds or an interval', () => {
    expect(settings({ maxFileAge: '7d' }).maxFileAgeMs).toBe(7 * 24 * 3600 * 1000);
    expect(settings({ maxFileAge: '90 minutes' }).maxFileAgeMs).toBe(90 * 60 * 1000);
    expect(settings({ maxFileAge: 1500 }).maxFileAgeMs).toBe(1500);
    expect(settings({}).maxFileAgeMs).toBeUndefined();
  });

  it('reads the switches and the file limit', () => {
    expect(
      settings({ latestFirst: 'true', incrementalListing: true, maxFilesPerTrigger: '3' }),
    ).toEqual({
      maxFilesPerTrigger: 3,
      maxBytesPerTrigger: undefined,
      latestFirst: true,
      maxFileAgeMs: undefined,
      incrementalListing: true,
    });
  });

  it('rejects bad values when the stream is defined, naming the option', () => {
    const dir = tempDir();
    const load = (key: string, value: OptionValue) => () =>
      new SluiceSession().readStream.schema('a INT').option(key, value).json(dir);
    for (const [key, value, message] of [
      ['maxBytesPerTrigger', 'lots', /option maxBytesPerTrigger='lots'/],
      ['maxBytesPerTrigger', 0, /option maxBytesPerTrigger='0'/],
      ['maxBytesPerTrigger', '3x', /option maxBytesPerTrigger='3x'/],
      ['maxFileAge', 'a week', /option maxFileAge 'a week'/],
      ['maxFileAge', -5, /option maxFileAge='-5'/],
      ['maxFilesPerTrigger', 0, /option maxFilesPerTrigger='0'/],
      ['incrementalListing', 'yes', /option incrementalListing='yes'/],
    ] as const) {
      expect(load(key, value)).toThrow(InvalidOptionError);
      expect(load(key, value)).toThrow(message);
    }
  });
});
