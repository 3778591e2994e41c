import { describe, expect, it } from 'vitest';
import { type ReferenceOrigin, resolveStoredReference, UnsafePathError } from '../../core/index.js';

const uri: ReferenceOrigin = {
  root: 'Delta table /t',
  entry: 'log version 3, add action',
  encoding: 'uri',
};
const key: ReferenceOrigin = {
  root: 'Checkpoint /c',
  entry: 'the intent of batch 2',
  encoding: 'key',
};

describe('a stored reference resolved under its root', () => {
  it('becomes the key it names: URI paths decoded once, keys taken as they are', () => {
    expect(resolveStoredReference('day=a%253Ab/x%20y.parquet', uri)).toBe('day=a%3Ab/x y.parquet');
    expect(resolveStoredReference('state/0/1/00002-a.delta', key)).toBe('state/0/1/00002-a.delta');
    expect(resolveStoredReference('a..b/..c/d..', key)).toBe('a..b/..c/d..');
    // a key is not a URI: '%2E%2E' is a directory of that name, not '..'
    expect(resolveStoredReference('%2E%2E/x', key)).toBe('%2E%2E/x');
  });

  it.each([
    ['../../outside.parquet', uri, "climbs out of the root with a '..' segment"],
    ['%2E%2E/%2E%2E/outside.parquet', uri, "climbs out of the root with a '..' segment"],
    ['sub/../../..', uri, "climbs out of the root with a '..' segment"],
    ['a/%2e%2E', uri, "climbs out of the root with a '..' segment"],
    ['../secret.json', key, "climbs out of the root with a '..' segment"],
    ['./x', key, "has a '.' segment"],
    ['/etc/passwd', uri, 'is an absolute path'],
    ['%2Fetc/passwd', uri, 'is an absolute path'],
    ['file:/etc/passwd', uri, "has the scheme 'file:'"],
    ['s3://other-bucket/x.parquet', key, "has the scheme 's3:'"],
    ['C:/x', key, "has the scheme 'C:'"],
    ['', key, 'is empty'],
    ['bad%E0%A4%A.parquet', uri, 'is not a valid percent-encoded URI path'],
  ])('refuses %j, naming the root, the entry and the path', (reference, origin, problem) => {
    let thrown: unknown;
    try {
      resolveStoredReference(reference, origin);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UnsafePathError);
    const message = (thrown as Error).message;
    expect(message).toContain(
      `${origin.root}: ${origin.entry} holds the path ${JSON.stringify(reference)}`,
    );
    expect(message).toContain(problem);
  });
});
