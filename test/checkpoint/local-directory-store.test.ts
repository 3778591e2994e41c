import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDirectoryStore } from '../../core/checkpoint/local-directory-store.js';
import { tempDir } from '../support/temp-dir.js';

const bytes = (text: string): Uint8Array => Buffer.from(text);
const text = (data: Uint8Array | undefined): string | undefined =>
  data === undefined ? undefined : Buffer.from(data).toString('utf8');

describe('LocalDirectoryStore', () => {
  it('reads back what put wrote, under nested keys as files in the directory', async () => {
    const root = tempDir();
    const store = new LocalDirectoryStore(root);
    await store.put('a/b/c.json', bytes('{"x":1}'));
    expect(text(await store.get('a/b/c.json'))).toBe('{"x":1}');
    expect(existsSync(path.join(root, 'a', 'b', 'c.json'))).toBe(true);
  });

  it('returns undefined when getting a key that does not exist', async () => {
    const store = new LocalDirectoryStore(tempDir());
    expect(await store.get('nope.json')).toBeUndefined();
    expect(await store.get('missing/dir/nope.json')).toBeUndefined();
  });

  it('replaces an object with put', async () => {
    const store = new LocalDirectoryStore(tempDir());
    await store.put('k', bytes('one'));
    await store.put('k', bytes('two'));
    expect(text(await store.get('k'))).toBe('two');
  });

  it('lists the keys under a prefix, sorted, including nested ones', async () => {
    const store = new LocalDirectoryStore(tempDir());
    for (const key of [
      'commits/2.json',
      'offsets/1.json',
      'commits/10.json',
      'commits/1.json',
      'commits/x/deep.json',
      'top.json',
    ]) {
      await store.put(key, bytes(key));
    }
    expect(await store.list('commits/')).toEqual([
      'commits/1.json',
      'commits/10.json',
      'commits/2.json',
      'commits/x/deep.json',
    ]);
    expect(await store.list('commits/1')).toEqual(['commits/1.json', 'commits/10.json']);
    expect(await store.list('')).toEqual([
      'commits/1.json',
      'commits/10.json',
      'commits/2.json',
      'commits/x/deep.json',
      'offsets/1.json',
      'top.json',
    ]);
  });

  it('lists nothing under a prefix whose directory does not exist', async () => {
    const store = new LocalDirectoryStore(tempDir());
    expect(await store.list('state/manifests/')).toEqual([]);
  });

  it('leaves temporary files of unfinished writes out of listings', async () => {
    const root = tempDir();
    const store = new LocalDirectoryStore(root);
    await store.put('commits/1.json', bytes('1'));
    // what a writer killed between writing its temporary file and renaming it leaves behind
    writeFileSync(path.join(root, 'commits', '.tmp-0123'), 'partial');
    expect(await store.list('commits/')).toEqual(['commits/1.json']);
  });

  it('leaves no temporary files behind after writing', async () => {
    const root = tempDir();
    const store = new LocalDirectoryStore(root);
    await store.put('d/a', bytes('a'));
    await store.putIfAbsent('d/b', bytes('b'));
    await store.putIfAbsent('d/b', bytes('c'));
    expect(readdirSync(path.join(root, 'd')).sort()).toEqual(['a', 'b']);
  });

  it("creates with putIfAbsent ('created'), then reports 'exists' and keeps the first content", async () => {
    const store = new LocalDirectoryStore(tempDir());
    expect(await store.putIfAbsent('offsets/0.json', bytes('first'))).toBe('created');
    expect(await store.putIfAbsent('offsets/0.json', bytes('second'))).toBe('exists');
    expect(text(await store.get('offsets/0.json'))).toBe('first');
  });

  it("lets exactly one of 20 concurrent putIfAbsent calls on one key win, and keeps the winner's content", async () => {
    const store = new LocalDirectoryStore(tempDir());
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.putIfAbsent('commits/7.json', bytes(`writer ${i}`)),
      ),
    );
    expect(results.filter((r) => r === 'created')).toHaveLength(1);
    expect(results.filter((r) => r === 'exists')).toHaveLength(19);
    const winner = results.indexOf('created');
    expect(text(await store.get('commits/7.json'))).toBe(`writer ${winner}`);
    expect(await store.list('commits/')).toEqual(['commits/7.json']);
  });

  it('deletes an object, and deleting a missing one is a no-op', async () => {
    const store = new LocalDirectoryStore(tempDir());
    await store.put('x/y', bytes('y'));
    await store.delete('x/y');
    expect(await store.get('x/y')).toBeUndefined();
    expect(await store.list('x/')).toEqual([]);
    await expect(store.delete('x/y')).resolves.toBeUndefined();
    expect(await store.putIfAbsent('x/y', bytes('again'))).toBe('created');
  });

  it('names its directory as an absolute path in its location', () => {
    const root = tempDir();
    const relative = path.relative(process.cwd(), root);
    expect(new LocalDirectoryStore(relative).location).toBe(root);
  });

  it('removes the temporary files of killed writes once unchanged for the abandonment age, and keeps newer ones', async () => {
    const root = tempDir();
    const store = new LocalDirectoryStore(root, 60_000);
    await store.put('state/0/k.delta', bytes('kept'));
    const abandoned = path.join(root, 'state', '0', '.tmp-killed-writer');
    const live = path.join(root, 'state', '.tmp-live-writer');
    writeFileSync(abandoned, 'half a write');
    writeFileSync(live, 'being written');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(abandoned, twoMinutesAgo, twoMinutesAgo);
    expect(await store.removeAbandonedWrites()).toBe(1);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(text(await store.get('state/0/k.delta'))).toBe('kept');
  });

  it('puts into a directory removed after an earlier put into it made it', async () => {
    const root = tempDir();
    const store = new LocalDirectoryStore(root);
    await store.put('state/0/1.delta', bytes('one'));
    rmSync(path.join(root, 'state'), { recursive: true });
    await store.put('state/0/2.delta', bytes('two'));
    expect(text(await store.get('state/0/2.delta'))).toBe('two');
    expect(await store.putIfAbsent('state/0/2.delta', bytes('again'))).toBe('exists');
    rmSync(path.join(root, 'state'), { recursive: true });
    expect(await store.putIfAbsent('state/0/3.delta', bytes('three'))).toBe('created');
    expect(text(await store.get('state/0/3.delta'))).toBe('three');
  });
});
