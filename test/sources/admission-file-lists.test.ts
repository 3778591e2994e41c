import { describe, expect, it } from 'vitest';
import { MemoryObjectStore, UnsafePathError } from '../../core/index.js';
import { AdmissionFileLists } from '../../core/sources/admission-file-lists.js';
import type { ListedFile } from '../../core/sources/file-listing.js';
import { FILE_SOURCE_FORMAT_VERSION } from '../../core/sources/file-source-offset.js';

const listed = (...paths: string[]): ListedFile[] =>
  paths.map((path) => ({ path, size: 10, modifiedMs: 1 }));

const offsetOf = (fields: { files?: ListedFile[]; filesKey?: string }) => ({
  formatVersion: FILE_SOURCE_FORMAT_VERSION,
  logOffset: 3,
  lastPath: 'b.json',
  ...fields,
});

describe('the file list of an admission, read back from the checkpoint', () => {
  it('is the list that was stored, inline or in an object of its own', async () => {
    const lists = new AdmissionFileLists(new MemoryObjectStore(), 100);
    const short = await lists.offset(3, listed('a.json'), 'a.json');
    const long = await lists.offset(
      3,
      listed(...Array.from({ length: 20 }, (_, i) => `d/${i}.json`)),
      'd/9.json',
    );
    expect(short.files).toBeDefined();
    expect(long.filesKey).toMatch(/^files\//);
    expect(await lists.files(short)).toEqual(listed('a.json'));
    expect((await lists.files(long)).length).toBe(20);
  });

  it('is refused when it names a data file outside the source root', async () => {
    const lists = new AdmissionFileLists(new MemoryObjectStore(), 100);
    for (const path of ['../../etc/passwd', '/etc/passwd', 's3://other-bucket/x.json']) {
      const read = lists.files(offsetOf({ files: listed('a.json', path) }));
      await expect(read).rejects.toBeInstanceOf(UnsafePathError);
      await expect(read).rejects.toThrow(
        `the file list of the offset of admission 3 holds the path ${JSON.stringify(path)}`,
      );
    }
  });

  it('is refused when the offset references a list object outside the source’s metadata store', async () => {
    const store = new MemoryObjectStore();
    const filesKey = '../1/files/00000000000000000003-x.json';
    const record = {
      formatVersion: FILE_SOURCE_FORMAT_VERSION,
      logOffset: 3,
      files: listed('a.json'),
    };
    await store.put(filesKey, Buffer.from(JSON.stringify(record)));
    const read = new AdmissionFileLists(store, 100).files(offsetOf({ filesKey }));
    await expect(read).rejects.toBeInstanceOf(UnsafePathError);
    await expect(read).rejects.toThrow(
      `the offset of admission 3 holds the path ${JSON.stringify(filesKey)}, which climbs out`,
    );
  });
});
