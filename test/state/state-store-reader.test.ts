/**
 * A checkpoint's state read from outside its query, store by store: the stores a version holds
 * with their state schemas, and one store's rows at a batch, each file checked to be the store,
 * partition and schema asked for.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CheckpointError,
  listStateStores,
  localCheckpointBackend,
  readStateStore,
} from '../../core/index.js';
import { MemoryObjectStore } from '../../core/checkpoint/memory-object-store.js';
import { StateRepository } from '../../core/state/state-repository.js';
import { stateStoreId } from '../../core/state/state-store-id.js';
import {
  COUNTS_SCHEMA,
  countsCheckpoint as countsCheckpointDirectory,
} from '../support/counts-checkpoint.js';

/** A checkpoint of `groupBy('k').count()` over `batches`, and its backend. */
async function countsCheckpoint(batches: string[][], inlineStateMaxBytes?: number) {
  const checkpoint = await countsCheckpointDirectory(batches, inlineStateMaxBytes);
  return { checkpoint, backend: localCheckpointBackend(checkpoint) };
}

/** The state files of the checkpoint, relative to it. */
function stateFiles(checkpoint: string): string[] {
  return readdirSync(path.join(checkpoint, 'state'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.parentPath.includes('manifests'))
    .map((e) => path.relative(checkpoint, path.join(e.parentPath, e.name)));
}

const countsOf = (rows: { value: unknown }[]) =>
  rows
    .map((r) => r.value as [unknown[], unknown[]])
    .map(([k, [n]]) => `${String(k[0])}=${String(n)}`)
    .sort();

describe('reading a checkpoint state store by store', () => {
  it("lists a version's stores with their operator, name, partitions and state schema", async () => {
    const { backend } = await countsCheckpoint([['a', 'b']]);
    expect(await listStateStores(backend)).toEqual([
      {
        operatorId: 0,
        storeName: 'default',
        stateSchema: COUNTS_SCHEMA,
        numPartitions: 3,
        stateVersion: 0,
      },
    ]);
  });

  it("reads one store's rows at the latest batch and at an earlier one, with the partition of each", async () => {
    const { backend } = await countsCheckpoint([
      ['a', 'b'],
      ['a', 'c'],
    ]);
    const latest = await readStateStore(backend, { operatorId: 0 });
    expect(countsOf(latest)).toEqual(['a=2', 'b=1', 'c=1']);
    expect(latest.every((r) => r.partition >= 0 && r.partition < 3)).toBe(true);
    expect(countsOf(await readStateStore(backend, { operatorId: 0 }, 0))).toEqual(['a=1', 'b=1']);
  });

  it('reads the version a batch that changed no state kept', async () => {
    const { backend } = await countsCheckpoint([['a'], ['noise']]);
    expect((await listStateStores(backend, 1))[0].stateVersion).toBe(0);
    expect(countsOf(await readStateStore(backend, { operatorId: 0 }, 1))).toEqual(['a=1']);
  });

  it('refuses a store the version does not hold, naming the stores it holds', async () => {
    const { backend } = await countsCheckpoint([['a']]);
    await expect(readStateStore(backend, { operatorId: 1 })).rejects.toThrow(
      /has no operator 1 store 'default' at batch 0; it holds operator 0 store 'default'\./,
    );
  });

  it('refuses a store read as holding another state schema, naming both', async () => {
    const { backend } = await countsCheckpoint([['a']]);
    const other = 'aggregate(keys: k:string; values: total:long)';
    const read = readStateStore(backend, { operatorId: 0, stateSchema: other });
    await expect(read).rejects.toBeInstanceOf(CheckpointError);
    await expect(read).rejects.toThrow(
      `holds state of ${COUNTS_SCHEMA}, but operator 0 store 'default' of this query keeps ${other}`,
    );
  });

  it('refuses a state file listed for another partition than the one it holds, naming both', async () => {
    const { checkpoint, backend } = await countsCheckpoint([['a', 'b', 'c', 'd', 'e', 'f']], 0);
    const [one, two] = stateFiles(checkpoint).filter((f) => !f.startsWith('state/manifests'));
    const partitionOf = (f: string) => Number(f.split('/')[2]);
    expect(partitionOf(one)).not.toBe(partitionOf(two));
    // the file of one partition copied over another's: its checksum holds, its header does not match
    writeFileSync(path.join(checkpoint, two), readFileSync(path.join(checkpoint, one)));
    await expect(readStateStore(backend, { operatorId: 0 })).rejects.toThrow(
      new RegExp(
        `State file \\S+${two.replaceAll('/', '\\/')} holds operator 0 store 'default' partition ${partitionOf(one)}, but was read as operator 0 store 'default' partition ${partitionOf(two)}`,
      ),
    );
  });

  it("refuses, in a query's load, a store its manifest records with another state schema, naming both", async () => {
    const objects = new MemoryObjectStore();
    const id = stateStoreId(0);
    const writer = new StateRepository(objects, 2, 10, [{ id, stateSchema: COUNTS_SCHEMA }]);
    const empty = await writer.load(null, [id]);
    empty.stores.get('0')!.put('k', 1);
    const { version } = await writer.persist(0, 'attempt', empty.manifest, empty.stores);
    const manifestKey = version.manifestKey!;
    const other = 'aggregate(keys: k:string; values: total:long)';
    const reader = new StateRepository(objects, 2, 10, [{ id, stateSchema: other }]);
    await expect(reader.load(version, [id])).rejects.toThrow(
      `${manifestKey}, for operator 0 store 'default', holds state of ${COUNTS_SCHEMA}, but operator 0 store 'default' of this query keeps ${other}`,
    );
    // a reader that names no schema, and one that names the same, read it
    expect(
      (await new StateRepository(objects, 2, 10).load(version, [id])).stores.get('0')!.size,
    ).toBe(1);
    expect((await writer.load(version, [id])).stores.get('0')!.get('k')).toBe(1);
  });
});
