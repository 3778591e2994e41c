/**
 * The behaviour every ObjectStore must have, as one suite run against each implementation: what
 * the checkpoint and the state store rely on (read-your-writes, complete sorted listings under a
 * prefix, missing keys read as undefined, idempotent deletes, conditional creates).
 */
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../core/checkpoint/object-store.js';

/** What the store under test guarantees beyond the common behaviour. */
export interface ObjectStoreCapabilities {
  /**
   * Whether `putIfAbsent` of an existing key answers 'exists'. False only for stores whose server
   * accepts the condition without enforcing it (s3rver); the engine never relies on it there.
   */
  readonly enforcesPutIfAbsent: boolean;
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined): string | undefined =>
  data === undefined ? undefined : new TextDecoder().decode(data);

/**
 * Defines the contract tests for the stores `create` makes; every call must return a store that
 * holds no objects yet.
 */
export function objectStoreContract(
  name: string,
  create: () => ObjectStore | Promise<ObjectStore>,
  capabilities: ObjectStoreCapabilities,
): void {
  describe(`ObjectStore contract: ${name}`, () => {
    it('reads back the exact bytes put wrote, under nested keys', async () => {
      const store = await create();
      const binary = Uint8Array.from([0, 1, 2, 127, 128, 254, 255, 0]);
      await store.put('state/op-0/part-3/delta-7.bin', binary);
      await store.put('empty', new Uint8Array());
      // compared as plain arrays: a store may return any Uint8Array, a Buffer included
      expect([...((await store.get('state/op-0/part-3/delta-7.bin')) ?? [])]).toEqual([...binary]);
      expect(await store.get('empty')).toHaveLength(0);
    });

    it('keeps what was put, not what the caller later does to its buffer', async () => {
      const store = await create();
      const buffer = bytes('original');
      await store.put('k', buffer);
      buffer.fill(0);
      expect(text(await store.get('k'))).toBe('original');
    });

    it('returns undefined for a key that does not exist', async () => {
      const store = await create();
      await store.put('commits/1.json', bytes('1'));
      expect(await store.get('commits/2.json')).toBeUndefined();
      expect(await store.get('missing/dir/nope.json')).toBeUndefined();
      expect(await store.get('commits')).toBeUndefined();
    });

    it('replaces an object with put', async () => {
      const store = await create();
      await store.put('k', bytes('one'));
      await store.put('k', bytes('two'));
      expect(text(await store.get('k'))).toBe('two');
    });

    it('keeps keys with the characters the engine uses in names apart', async () => {
      const store = await create();
      const keys = ['a/op=agg,part=1/v#2.bin', 'a/op=agg,part=1/v#10.bin', 'a/x_y-z.0.json'];
      for (const key of keys) await store.put(key, bytes(key));
      for (const key of keys) expect(text(await store.get(key))).toBe(key);
      expect(await store.list('a/')).toEqual([...keys].sort());
    });

    it('lists the keys under a prefix, sorted, nested ones included', async () => {
      const store = await create();
      const keys = [
        'commits/2.json',
        'offsets/1.json',
        'commits/10.json',
        'commits/1.json',
        'commits/x/deep.json',
        'top.json',
      ];
      for (const key of keys) await store.put(key, bytes(key));
      expect(await store.list('commits/')).toEqual([
        'commits/1.json',
        'commits/10.json',
        'commits/2.json',
        'commits/x/deep.json',
      ]);
      // a prefix need not end at a '/'
      expect(await store.list('commits/1')).toEqual(['commits/1.json', 'commits/10.json']);
      expect(await store.list('')).toEqual([...keys].sort());
    });

    it('lists nothing under a prefix nothing was written under', async () => {
      const store = await create();
      expect(await store.list('state/manifests/')).toEqual([]);
      await store.put('state/other/1', bytes('1'));
      expect(await store.list('state/manifests/')).toEqual([]);
    });

    it('lists every key of a long listing, in order', async () => {
      // more keys than one page of the paged stores under test (see their listPageSize)
      const store = await create();
      const keys = Array.from({ length: 45 }, (_, i) => `deltas/${String(i).padStart(4, '0')}.bin`);
      await Promise.all([...keys].reverse().map((key) => store.put(key, bytes(key))));
      await store.put('deltas-other/0.bin', bytes('0'));
      expect(await store.list('deltas/')).toEqual(keys);
      expect(await store.list('deltas/001')).toEqual(keys.slice(10, 20));
    });

    it("creates a free key with putIfAbsent ('created')", async () => {
      const store = await create();
      expect(await store.putIfAbsent('offsets/0.json', bytes('first'))).toBe('created');
      expect(text(await store.get('offsets/0.json'))).toBe('first');
      expect(await store.list('offsets/')).toEqual(['offsets/0.json']);
    });

    // Only stores that enforce the condition are held to it (s3rver, the test S3 server, does not).
    if (capabilities.enforcesPutIfAbsent) {
      it("answers 'exists' to putIfAbsent of a taken key, and keeps the first content", async () => {
        const store = await create();
        await store.put('offsets/0.json', bytes('first'));
        expect(await store.putIfAbsent('offsets/0.json', bytes('second'))).toBe('exists');
        expect(text(await store.get('offsets/0.json'))).toBe('first');
      });

      it('lets exactly one of 10 concurrent putIfAbsent calls on one key win', async () => {
        const store = await create();
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            store.putIfAbsent('commits/7.json', bytes(`writer ${i}`)),
          ),
        );
        expect(results.filter((r) => r === 'created')).toHaveLength(1);
        const winner = results.indexOf('created');
        expect(text(await store.get('commits/7.json'))).toBe(`writer ${winner}`);
      });
    }

    it('deletes an object; deleting a missing one is a no-op', async () => {
      const store = await create();
      await store.put('x/y', bytes('y'));
      await store.put('x/z', bytes('z'));
      await store.delete('x/y');
      expect(await store.get('x/y')).toBeUndefined();
      expect(await store.list('x/')).toEqual(['x/z']);
      await expect(store.delete('x/y')).resolves.toBeUndefined();
      await expect(store.delete('never/written')).resolves.toBeUndefined();
      expect(await store.putIfAbsent('x/y', bytes('again'))).toBe('created');
      expect(text(await store.get('x/y'))).toBe('again');
    });

    it('describes where it keeps its objects', async () => {
      const store = await create();
      expect(store.location).toEqual(expect.any(String));
      expect(store.location.length).toBeGreaterThan(0);
    });
  });
}
