import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDirectoryStore } from '../../core/checkpoint/local-directory-store.js';
import { CheckpointError, UnsafePathError } from '../../core/errors.js';
import { KeyedStateStore } from '../../core/state/keyed-state-store.js';
import { type StateManifest, StateRepository } from '../../core/state/state-repository.js';
import { stateStoreId } from '../../core/state/state-store-id.js';
import { tempDir } from '../support/temp-dir.js';

/** Every file under `root`, as '/'-separated paths relative to it. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** The entries of a store as a Map, for comparing whole states. */
function contents(store: KeyedStateStore): Map<string, unknown> {
  return new Map([...store.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Keys that all fall in one partition of a `numPartitions` store. */
function keysInPartition(numPartitions: number, partition: number, count: number): string[] {
  const probe = new KeyedStateStore(numPartitions);
  const keys: string[] = [];
  for (let i = 0; keys.length < count; i++)
    if (probe.partitionOf(`k${i}`) === partition) keys.push(`k${i}`);
  return keys;
}

/** The default stores of operators 0..n-1. */
function storeIds(n: number) {
  return Array.from({ length: n }, (_, op) => stateStoreId(op));
}

function setup(numPartitions = 16, snapshotInterval = 10) {
  const root = tempDir();
  const objects = new LocalDirectoryStore(root);
  return {
    root,
    objects,
    repository: new StateRepository(objects, numPartitions, snapshotInterval),
  };
}

/** A partition's files in a manifest, for operator 0. */
function partitionFiles(manifest: StateManifest, partition: number) {
  return manifest.operators[0][partition];
}

describe('StateRepository', () => {
  it('loads an empty state for every operator when there is no manifest yet', async () => {
    const { repository } = setup();
    const { manifest, stores } = await repository.load(null, storeIds(2));
    expect([...stores.keys()]).toEqual(['0', '1']);
    expect([...stores.values()].every((s) => s.size === 0)).toBe(true);
    expect(manifest.batchId).toBe(-1);
  });

  describe('persist', () => {
    it('writes one file per changed partition plus one manifest: changing 1 key of 10,000 writes 2 files', async () => {
      const { root, repository } = setup(16);
      const { manifest: empty, stores } = await repository.load(null, storeIds(1));
      for (let i = 0; i < 10_000; i++) stores.get('0')!.put(`user-${i}`, i);
      const first = await repository.persist(0, 'a0', empty, stores);
      expect(first.filesWritten).toBe(17);
      expect(filesUnder(root)).toHaveLength(17);

      stores.get('0')!.put('user-4242', -1);
      const second = await repository.persist(1, 'a1', first.manifest, stores);
      expect(second.filesWritten).toBe(2);
      expect(filesUnder(root)).toHaveLength(19);
    });

    it('writes a file for exactly the partitions whose keys changed', async () => {
      const { root, repository } = setup(16);
      const { manifest, stores } = await repository.load(null, storeIds(1));
      const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
      for (const k of keys) stores.get('0')!.put(k, k);
      const partitions = new Set(keys.map((k) => stores.get('0')!.partitionOf(k)));
      const result = await repository.persist(0, 'x', manifest, stores);
      expect(result.filesWritten).toBe(partitions.size + 1);
      const stateFiles = filesUnder(root).filter((f) => !f.startsWith('state/manifests/'));
      expect(new Set(stateFiles.map((f) => Number(f.split('/')[2])))).toEqual(partitions);
    });

    it('writes only the manifest when nothing changed, and the new version equals the previous one', async () => {
      const { root, repository } = setup(4);
      const { manifest, stores } = await repository.load(null, storeIds(1));
      stores.get('0')!.put('k', 1);
      const v0 = await repository.persist(0, 'a', manifest, stores);
      const before = filesUnder(root).length;
      const v1 = await repository.persist(1, 'b', v0.manifest, stores);
      expect(v1.filesWritten).toBe(1);
      expect(filesUnder(root)).toHaveLength(before + 1);
      expect(v1.manifest.operators).toEqual(v0.manifest.operators);
    });

    it('keeps the changes of each operator in its own files', async () => {
      const { repository } = setup(4);
      const { manifest, stores } = await repository.load(null, storeIds(2));
      stores.get('0')!.put('k', 'operator 0');
      stores.get('1')!.put('k', 'operator 1');
      stores.get('1')!.put('only-in-1', true);
      const v0 = await repository.persist(0, 'a', manifest, stores);
      expect(v0.filesWritten).toBe(
        1 +
          new Set([stores.get('1')!.partitionOf('k'), stores.get('1')!.partitionOf('only-in-1')])
            .size +
          1,
      );
      const loaded = await repository.load(v0.version, storeIds(2));
      expect(contents(loaded.stores.get('0')!)).toEqual(new Map([['k', 'operator 0']]));
      expect(contents(loaded.stores.get('1')!)).toEqual(
        new Map<string, unknown>([
          ['k', 'operator 1'],
          ['only-in-1', true],
        ]),
      );
    });
  });

  describe('load', () => {
    it('reproduces the persisted state exactly, across versions with updates and deletes', async () => {
      const { repository } = setup(8);
      const initial = await repository.load(null, storeIds(1));
      const stores = initial.stores;
      let manifest = initial.manifest;
      const state = stores.get('0')!;
      state.put('count', 3);
      state.put('set', new Set(['u1', 'u2']));
      state.put(
        'map',
        new Map<unknown, unknown>([
          [1, 'one'],
          ['k', [1.5, null]],
        ]),
      );
      state.put('bytes', new Uint8Array([0, 1, 254, 255]));
      state.put('special', [NaN, Infinity, -Infinity, -0]);
      state.put('doomed', 'goes away in version 1');
      state.put('null', null);
      for (let i = 0; i < 50; i++) state.put(`n${i}`, i);
      ({ manifest } = await repository.persist(0, 'a', manifest, stores));

      state.remove('doomed');
      state.put('count', 4);
      state.put('set', new Set(['u1', 'u2', 'u3']));
      for (let i = 0; i < 50; i += 2) state.remove(`n${i}`);
      const v1 = await repository.persist(1, 'b', manifest, stores);

      const loaded = await repository.load(v1.version, storeIds(1));
      expect(loaded.stores.get('0')!.size).toBe(state.size);
      expect(contents(loaded.stores.get('0')!)).toEqual(contents(state));
      expect(loaded.stores.get('0')!.get('doomed')).toBeUndefined();
      expect(Object.is((loaded.stores.get('0')!.get('special') as number[])[3], -0)).toBe(true);
      expect(loaded.manifest).toEqual(v1.manifest);
    });

    it('loads an older version unchanged after newer ones were written', async () => {
      const { repository } = setup(4);
      const { manifest, stores } = await repository.load(null, storeIds(1));
      stores.get('0')!.put('k', 'v0');
      const v0 = await repository.persist(0, 'a', manifest, stores);
      stores.get('0')!.put('k', 'v1');
      stores.get('0')!.put('k2', 'new');
      await repository.persist(1, 'b', v0.manifest, stores);
      expect(contents((await repository.load(v0.version, storeIds(1))).stores.get('0')!)).toEqual(
        new Map([['k', 'v0']]),
      );
    });

    it('gives stores with no pending changes, so persisting right after a load writes only a manifest', async () => {
      const { repository } = setup(4);
      const { manifest, stores } = await repository.load(null, storeIds(1));
      stores.get('0')!.put('k', 1);
      const v0 = await repository.persist(0, 'a', manifest, stores);
      const loaded = await repository.load(v0.version, storeIds(1));
      expect((await repository.persist(1, 'b', loaded.manifest, loaded.stores)).filesWritten).toBe(
        1,
      );
    });
  });

  describe('snapshots', () => {
    it("writes a snapshot when a partition's delta chain reaches snapshotInterval, per partition", async () => {
      const { repository } = setup(4, 3);
      const [hot, hotSibling] = keysInPartition(4, 1, 2);
      const [cold] = keysInPartition(4, 2, 1);
      const initial = await repository.load(null, storeIds(1));
      const stores = initial.stores;
      let manifest = initial.manifest;
      stores.get('0')!.put(hotSibling, 'written once');
      stores.get('0')!.put(cold, 'written once');
      const chains: { snapshot: boolean; deltas: number }[] = [];
      for (let batchId = 0; batchId < 5; batchId++) {
        stores.get('0')!.put(hot, batchId);
        ({ manifest } = await repository.persist(batchId, `attempt${batchId}`, manifest, stores));
        const files = partitionFiles(manifest, 1);
        chains.push({ snapshot: files.snapshot !== null, deltas: files.deltas.length });
      }
      // 1 and 2 deltas, then the third file of the chain is a snapshot, then deltas after it again
      expect(chains).toEqual([
        { snapshot: false, deltas: 1 },
        { snapshot: false, deltas: 2 },
        { snapshot: true, deltas: 0 },
        { snapshot: true, deltas: 1 },
        { snapshot: true, deltas: 2 },
      ]);
      expect(partitionFiles(manifest, 1).snapshot).toMatch(/^state\/0\/1\/0+2-attempt2\.snapshot$/);
      // the partition that changed once keeps its single delta
      expect(partitionFiles(manifest, 2)).toEqual({
        snapshot: null,
        deltas: [expect.stringMatching(/^state\/0\/2\/0+-attempt0\.delta$/)],
      });
    });

    it('loads from the latest snapshot plus the deltas after it, without reading older files', async () => {
      const { root, repository } = setup(4, 3);
      const [hot, sibling] = keysInPartition(4, 1, 2);
      const initial = await repository.load(null, storeIds(1));
      const stores = initial.stores;
      let manifest = initial.manifest;
      stores.get('0')!.put(sibling, new Set(['kept by the snapshot']));
      for (let batchId = 0; batchId < 4; batchId++) {
        stores.get('0')!.put(hot, batchId);
        ({ manifest } = await repository.persist(batchId, `a${batchId}`, manifest, stores));
      }
      stores.get('0')!.put(sibling, 'after the snapshot');
      const last = await repository.persist(4, 'a4', manifest, stores);
      // the deltas of batches 0 and 1 are superseded by batch 2's snapshot: remove them
      const superseded = filesUnder(root).filter((f) => /^state\/0\/1\/0+[01]-/.test(f));
      expect(superseded).toHaveLength(2);
      for (const f of superseded) rmSync(path.join(root, f));

      const loaded = await repository.load(last.version, storeIds(1));
      expect(contents(loaded.stores.get('0')!)).toEqual(contents(stores.get('0')!));
      expect(loaded.stores.get('0')!.get(hot)).toBe(3);
      expect(loaded.stores.get('0')!.get(sibling)).toBe('after the snapshot');
    });

    it('holds every entry of the partition in a snapshot, not only the changed ones', async () => {
      const { root, repository } = setup(2, 1);
      const keys = keysInPartition(2, 0, 3);
      const { manifest, stores } = await repository.load(null, storeIds(1));
      for (const k of keys) stores.get('0')!.put(k, k);
      const v0 = await repository.persist(0, 'a', manifest, stores);
      stores.get('0')!.put(keys[0], 'changed');
      const v1 = await repository.persist(1, 'b', v0.manifest, stores);
      rmSync(path.join(root, partitionFiles(v0.manifest, 0).snapshot!));
      expect(contents((await repository.load(v1.version, storeIds(1))).stores.get('0')!)).toEqual(
        new Map([
          [keys[0], 'changed'],
          [keys[1], keys[1]],
          [keys[2], keys[2]],
        ]),
      );
    });
  });

  describe('attempts', () => {
    it("never overwrites a first attempt's files when the same batch is persisted again by another attempt", async () => {
      const { root, repository } = setup(4);
      const { manifest: empty, stores } = await repository.load(null, storeIds(1));
      stores.get('0')!.put('k', 'base');
      const v0 = await repository.persist(0, 'base', empty, stores);

      // attempt A of batch 1 persists, then dies before committing
      const a = await repository.load(v0.version, storeIds(1));
      a.stores.get('0')!.put('k', 'attempt A');
      const persistedA = await repository.persist(1, 'attemptA', a.manifest, a.stores);
      const filesOfA = filesUnder(root).filter((f) => f.includes('attemptA'));
      expect(filesOfA).toHaveLength(2);
      const bytesOfA = filesOfA.map((f) => readFileSync(path.join(root, f)));

      // attempt B re-runs batch 1 from the same version and computes something else
      const b = await repository.load(v0.version, storeIds(1));
      b.stores.get('0')!.put('k', 'attempt B');
      const persistedB = await repository.persist(1, 'attemptB', b.manifest, b.stores);

      expect(persistedB.version.manifestKey!).not.toBe(persistedA.version.manifestKey!);
      expect(filesOfA.map((f) => readFileSync(path.join(root, f)))).toEqual(bytesOfA);
      expect(
        (await repository.load(persistedA.version, storeIds(1))).stores.get('0')!.get('k'),
      ).toBe('attempt A');
      expect(
        (await repository.load(persistedB.version, storeIds(1))).stores.get('0')!.get('k'),
      ).toBe('attempt B');
    });
  });

  describe('damaged checkpoints', () => {
    async function persistedVersion() {
      const fixture = setup(4);
      const { manifest, stores } = await fixture.repository.load(null, storeIds(1));
      stores.get('0')!.put('k', 12345);
      const v0 = await fixture.repository.persist(0, 'a', manifest, stores);
      const stateFile = partitionFiles(v0.manifest, stores.get('0')!.partitionOf('k')).deltas[0];
      return { ...fixture, v0, stateFile, stores };
    }

    it("fails with a CheckpointError naming the file when a state file's body was altered (checksum mismatch)", async () => {
      const { root, repository, v0, stateFile } = await persistedVersion();
      const file = path.join(root, stateFile);
      const bytes = readFileSync(file);
      const bodyStart = bytes.indexOf('\n') + 1;
      const lastDigit = bytes.indexOf('12345', bodyStart) + 4;
      bytes[lastDigit] ^= 0x01; // 12345 becomes 12344: still valid JSON, but not what was written
      writeFileSync(file, bytes);
      const error = await repository.load(v0.version, storeIds(1)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toContain(stateFile);
      expect((error as Error).message).toContain('checksum mismatch');
    });

    it('fails with a CheckpointError naming the file when a state file is missing', async () => {
      const { root, repository, v0, stateFile } = await persistedVersion();
      rmSync(path.join(root, stateFile));
      const error = await repository.load(v0.version, storeIds(1)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toContain(stateFile);
      expect((error as Error).message).toContain('missing');
    });

    it('fails with a CheckpointError naming the manifest when the manifest is missing or not JSON', async () => {
      const { root, repository, v0 } = await persistedVersion();
      writeFileSync(path.join(root, v0.version.manifestKey!), '{"formatVersion":');
      await expect(repository.load(v0.version, storeIds(1))).rejects.toThrow(CheckpointError);
      await expect(repository.load(v0.version, storeIds(1))).rejects.toThrow(
        v0.version.manifestKey!,
      );
      await expect(
        repository.load({ manifestKey: 'state/manifests/nope.json' }, storeIds(1)),
      ).rejects.toThrow(/nope\.json is missing/);
    });

    it('fails with a CheckpointError naming the file when a manifest or a state file header is JSON null', async () => {
      const { root, repository, v0, stateFile } = await persistedVersion();
      const body = readFileSync(path.join(root, stateFile), 'utf8').split('\n').slice(1).join('\n');
      writeFileSync(path.join(root, stateFile), `null\n${body}`);
      await expect(repository.load(v0.version, storeIds(1))).rejects.toThrow(
        `${stateFile} is corrupt`,
      );
      writeFileSync(path.join(root, v0.version.manifestKey!), 'null');
      await expect(repository.load(v0.version, storeIds(1))).rejects.toThrow(
        `${v0.version.manifestKey!} is corrupt`,
      );
    });

    it('refuses a manifest whose file list had a digit edited: the checksum no longer matches', async () => {
      const { root, repository, v0, stateFile } = await persistedVersion();
      const file = path.join(root, v0.version.manifestKey!);
      const text = readFileSync(file, 'utf8');
      const edited = stateFile.replace(/\/(\d)\//, (_, p: string) => `/${(Number(p) + 1) % 4}/`);
      expect(text).toContain(stateFile);
      writeFileSync(file, text.replace(stateFile, edited));
      const error = await repository
        .load({ manifestKey: v0.version.manifestKey, batchId: 0 }, storeIds(1))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toContain(
        `${v0.version.manifestKey!} is corrupt (checksum mismatch)`,
      );
    });

    it('refuses a manifest of another version than the commit that names it', async () => {
      const { repository, v0 } = await persistedVersion();
      const error = await repository
        .load({ manifestKey: v0.version.manifestKey, batchId: 1 }, storeIds(1))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toContain(
        `${v0.version.manifestKey!} holds version 0 but commit 1 names it`,
      );
    });

    it('still reads a manifest written before manifests were checksummed', async () => {
      const { root, repository, v0, stores } = await persistedVersion();
      writeFileSync(path.join(root, v0.version.manifestKey!), JSON.stringify(v0.manifest));
      const loaded = await repository.load(
        { manifestKey: v0.version.manifestKey, batchId: 0 },
        storeIds(1),
      );
      expect(contents(loaded.stores.get('0')!)).toEqual(contents(stores.get('0')!));
    });

    it("refuses a manifest reference or a state file reference that leads outside the store, such as another query's state", async () => {
      const parent = tempDir();
      const other = new StateRepository(new LocalDirectoryStore(path.join(parent, 'q2')), 4, 10);
      const { manifest, stores } = await other.load(null, storeIds(1));
      stores.get('0')!.put('k', 12345);
      const theirs = await other.persist(0, 'a', manifest, stores);
      const ours = new LocalDirectoryStore(path.join(parent, 'q1'));
      const repository = new StateRepository(ours, 4, 10);

      const foreignManifest = `../q2/${theirs.version.manifestKey!}`;
      await expect(repository.load({ manifestKey: foreignManifest }, storeIds(1))).rejects.toThrow(
        `a commit record's state manifest holds the path "${foreignManifest}", which climbs out`,
      );

      const p = stores.get('0')!.partitionOf('k');
      const foreignFile = `../q2/${partitionFiles(theirs.manifest, p).deltas[0]}`;
      const operators = {
        0: theirs.manifest.operators[0].map((f, i) =>
          i === p ? { snapshot: null, deltas: [foreignFile] } : f,
        ),
      };
      await ours.put(
        'state/manifests/0-b.json',
        Buffer.from(JSON.stringify({ ...theirs.manifest, operators })),
      );
      const error = await repository
        .load({ manifestKey: 'state/manifests/0-b.json' }, storeIds(1))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsafePathError);
      expect((error as Error).message).toContain(
        `the state manifest of batch 0, operator 0 store 'default' partition ${p} holds the path "${foreignFile}"`,
      );
    });

    it('refuses a manifest written with another partition count', async () => {
      const { objects, v0 } = await persistedVersion();
      const other = new StateRepository(objects, 8, 10);
      const error = await other.load(v0.version, storeIds(1)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toMatch(/has 4 partitions but the query uses 8/);
    });
  });
});

describe('StateRepository with named stores', () => {
  it("keeps each store's files apart and loads each store by its id", async () => {
    const { root, repository } = setup(2);
    const ids = [stateStoreId(0), stateStoreId(0, 'left'), stateStoreId(1, 'right')];
    const { manifest, stores } = await repository.load(null, ids);
    stores.get('0')!.put('k', 'default');
    stores.get('0/left')!.put('k', 'left');
    stores.get('1/right')!.put('k', 'right');
    const v0 = await repository.persist(0, 'a', manifest, stores);
    const dirs = new Set(filesUnder(root).map((f) => f.split('/').slice(0, -2).join('/')));
    expect(dirs).toEqual(new Set(['state', 'state/0', 'state/0/left', 'state/1/right']));
    const left = await repository.load(v0.version, [stateStoreId(0, 'left')]);
    expect([...left.stores.keys()]).toEqual(['0/left']);
    expect(contents(left.stores.get('0/left')!)).toEqual(new Map([['k', 'left']]));
  });
});
