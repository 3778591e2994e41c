/**
 * Persistence of operator state in an object store (docs/architecture.md section 5).
 *
 * Layout, all keys write-once and attempt-unique (nothing is ever overwritten); <store> is the
 * store's manifest entry (state-store-id.ts: `<operator>` for an operator's default store):
 *   state/<store>/<partition>/<batchId>-<attempt>.delta      changes of one partition in one batch
 *   state/<store>/<partition>/<batchId>-<attempt>.snapshot   every entry of one partition
 *   state/manifests/<batchId>-<attempt>.json                 which files make up each partition
 * A version is a manifest: per store and partition, the latest snapshot and the deltas after it.
 * A partition whose delta chain reaches `snapshotInterval` gets a snapshot instead of a delta, so
 * loading reads at most that many files per partition. The commit record names the manifest; files
 * of attempts that never committed are unreferenced garbage and are never read.
 *
 * Each file is checksummed text (checksummed-text.ts): a header line with the format version, the
 * operator, store, partition and state schema it holds (state-store-identity.ts, checked on load)
 * and the SHA-256 of the body, then one `[key, value]` (put) or `[key]` (delete) per line. A manifest is
 * checksummed JSON, and must hold the batch of the commit that names it. A file whose checksum does
 * not match, a manifest of another batch, or a missing file is a CheckpointError naming its key:
 * state is never silently reset or rolled back.
 */
import { sortableId } from '../checkpoint/sortable-id.js';
import { isTextProblem, openText, sealText } from '../checkpoint/checksummed-text.js';
import {
  decodeChecksummedRecord,
  encodeChecksummedRecord,
} from '../checkpoint/checksummed-record.js';
import { CheckpointError } from '../errors.js';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { resolveStoredReference } from '../checkpoint/stored-reference.js';
import { DELETED, KeyedStateStore, type PartitionChanges } from './keyed-state-store.js';
import {
  describeStore,
  manifestEntry,
  type StateStoreId,
  storeIdOfEntry,
} from './state-store-id.js';
import {
  checkFileIdentity,
  checkManifestEntry,
  fileIdentity,
  type ManifestStoreEntry,
  type StateFileIdentity,
  type StateStoreSchema,
} from './state-store-identity.js';
import { decodeStateValue, encodeStateValue } from './state-value.js';

const FORMAT_VERSION = 1;

/** The files of one partition in one version. */
export interface PartitionFiles {
  readonly snapshot: string | null;
  readonly deltas: readonly string[];
}

/** A state version: the files of every partition of every state store. */
export interface StateManifest {
  readonly formatVersion: number;
  readonly batchId: number;
  readonly numPartitions: number;
  /** By store, under its manifest entry (the field keeps the name it had when stores were operators). */
  readonly operators: Readonly<Record<string, readonly PartitionFiles[]>>;
  /** By manifest entry, which store it is and its state schema (absent in earlier versions' manifests). */
  readonly stores?: Readonly<Record<string, ManifestStoreEntry>>;
}

/** The loaded stores of a version, by manifest entry. */
export type StoresByEntry = ReadonlyMap<string, KeyedStateStore>;

/** What persisting one version wrote. */
export interface PersistResult {
  readonly manifestKey: string;
  readonly manifest: StateManifest;
  readonly filesWritten: number;
  readonly bytesWritten: number;
}

/** Loads and persists versions of operator state. */
export class StateRepository {
  private readonly schemas: ReadonlyMap<string, StateStoreSchema>;

  constructor(
    private readonly store: ObjectStore,
    private readonly numPartitions: number,
    private readonly snapshotInterval: number,
    /** The query's stores and their state schemas, which files record and loading checks. */
    schemas: readonly StateStoreSchema[] = [],
  ) {
    this.schemas = new Map(schemas.map((s) => [manifestEntry(s.id), s]));
  }

  /** The store under a manifest entry, with its schema when the query declared one. */
  private schemaOf(entry: string): StateStoreSchema {
    return this.schemas.get(entry) ?? { id: storeIdOfEntry(entry) };
  }

  /**
   * Loads `storeIds` at the version named by `manifestKey` (empty stores when null); `batchId` is
   * the batch of the commit that names the manifest. A store the manifest does not list is empty.
   */
  async load(
    manifestKey: string | null,
    storeIds: readonly StateStoreId[],
    batchId?: number,
  ): Promise<{ manifest: StateManifest; stores: StoresByEntry }> {
    const manifest = manifestKey
      ? await this.readManifest(manifestKey, batchId)
      : this.emptyManifest(storeIds);
    const stores = await Promise.all(
      storeIds.map((id) => this.loadStore(manifest, manifestKey, id)),
    );
    return { manifest, stores: new Map(storeIds.map((id, i) => [manifestEntry(id), stores[i]])) };
  }

  /** Whether any store holds changes not yet persisted: a batch without any writes no version. */
  hasChanges(stores: StoresByEntry): boolean {
    for (const store of stores.values()) if (store.hasChanges) return true;
    return false;
  }

  /** Writes the changes of every store as version `batchId` and returns the new manifest's key. */
  async persist(
    batchId: number,
    attemptId: string,
    previous: StateManifest,
    stores: StoresByEntry,
  ): Promise<PersistResult> {
    let filesWritten = 0;
    let bytesWritten = 0;
    const operators: Record<string, PartitionFiles[]> = {};
    const storeEntries: Record<string, ManifestStoreEntry> = {};
    await Promise.all(
      [...stores].map(async ([entry, store]) => {
        const { id, stateSchema } = this.schemaOf(entry);
        storeEntries[entry] = { ...id, ...(stateSchema === undefined ? {} : { stateSchema }) };
        const files = [...(previous.operators[entry] ?? this.emptyPartitions())];
        await Promise.all(
          [...store.takeChanges()].map(async ([p, changes]) => {
            const written = await this.writePartition(
              entry,
              p,
              batchId,
              attemptId,
              files[p],
              store,
              changes,
            );
            files[p] = written.files;
            filesWritten++;
            bytesWritten += written.bytes;
          }),
        );
        operators[entry] = files;
      }),
    );
    const manifest: StateManifest = {
      formatVersion: FORMAT_VERSION,
      batchId,
      numPartitions: this.numPartitions,
      operators,
      stores: storeEntries,
    };
    const manifestKey = `state/manifests/${sortableId(batchId)}-${attemptId}.json`;
    const bytes = Buffer.from(encodeChecksummedRecord(manifest, { kind: 'manifest' }));
    await this.store.put(manifestKey, bytes);
    return {
      manifestKey,
      manifest,
      filesWritten: filesWritten + 1,
      bytesWritten: bytesWritten + bytes.length,
    };
  }

  private async writePartition(
    entry: string,
    p: number,
    batchId: number,
    attemptId: string,
    current: PartitionFiles,
    store: KeyedStateStore,
    changes: PartitionChanges,
  ): Promise<{ files: PartitionFiles; bytes: number }> {
    const snapshot = current.deltas.length + 1 >= this.snapshotInterval;
    const kind = snapshot ? 'snapshot' : 'delta';
    const key = `state/${entry}/${p}/${sortableId(batchId)}-${attemptId}.${kind}`;
    const lines: string[] = [];
    const entries = snapshot ? store.partitionEntries(p) : changes.entries();
    for (const [k, v] of entries) {
      lines.push(JSON.stringify(v === DELETED ? [k] : [k, encodeStateValue(v)]));
    }
    const bytes = encodeFile(kind, lines, fileIdentity(this.schemaOf(entry), p));
    await this.store.put(key, bytes);
    const files = snapshot
      ? { snapshot: key, deltas: [] }
      : { snapshot: current.snapshot, deltas: [...current.deltas, key] };
    return { files, bytes: bytes.length };
  }

  private async loadStore(
    manifest: StateManifest,
    manifestKey: string | null,
    id: StateStoreId,
  ): Promise<KeyedStateStore> {
    const store = new KeyedStateStore(this.numPartitions);
    const entry = manifestEntry(id);
    const expected = this.schemas.get(entry) ?? { id };
    if (manifestKey)
      checkManifestEntry(manifest.stores?.[entry], expected, this.describe(manifestKey));
    const partitions = manifest.operators[entry] ?? this.emptyPartitions();
    const contents = await Promise.all(
      partitions.map((files, p) =>
        Promise.all(
          [files.snapshot, ...files.deltas]
            .filter((k): k is string => k !== null)
            .map((k) =>
              this.readFile(
                k,
                `the state manifest of batch ${manifest.batchId}, ${describeStore(id)} partition ${p}`,
                (header) => checkFileIdentity(header, expected, p, this.describe(k)),
              ),
            ),
        ),
      ),
    );
    contents.forEach((files, p) => {
      for (const entries of files) {
        for (const [key, value] of entries) store.apply(p, key, value);
      }
    });
    store.takeChanges();
    return store;
  }

  /** Reads and validates a manifest; `batchId` is the batch of the commit that names it. */
  async readManifest(key: string, batchId?: number): Promise<StateManifest> {
    const decoded = decodeChecksummedRecord(
      Buffer.from(await this.required(key, "a commit record's state manifest")).toString('utf8'),
    );
    if ('problem' in decoded) throw corrupt(this.store, key, decoded.problem, decoded.cause);
    const manifest = decoded.record as StateManifest;
    if (manifest.formatVersion !== FORMAT_VERSION)
      throw corrupt(this.store, key, `unknown format version ${manifest.formatVersion}`);
    if (batchId !== undefined && manifest.batchId !== batchId) {
      throw new CheckpointError(
        `State manifest ${this.store.location}/${key} holds version ${String(manifest.batchId)} but commit ${batchId} names it: the manifest or the commit was edited. Restore it from a backup or start the query on a new checkpoint.`,
      );
    }
    if (manifest.numPartitions !== this.numPartitions) {
      throw new CheckpointError(
        `State manifest ${this.store.location}/${key} has ${manifest.numPartitions} partitions but the query uses ${this.numPartitions}; the partition count is fixed when a checkpoint is created.`,
      );
    }
    return manifest;
  }

  /** Reads one state file; `checkHeader` refuses a file that is not the one the caller expects. */
  private async readFile(
    key: string,
    entry: string,
    checkHeader: (header: Readonly<Record<string, unknown>>) => void,
  ): Promise<[string, unknown][]> {
    const opened = openText(Buffer.from(await this.required(key, entry)).toString('utf8'));
    if (isTextProblem(opened)) throw corrupt(this.store, key, opened.problem, opened.cause);
    const { header, body } = opened;
    if (header.formatVersion !== FORMAT_VERSION)
      throw corrupt(this.store, key, `unknown format version ${String(header.formatVersion)}`);
    checkHeader(header);
    if (body === '') return [];
    return body.split('\n').map((line) => {
      const entry = JSON.parse(line) as [string, unknown?];
      return [entry[0], entry.length === 1 ? DELETED : decodeStateValue(entry[1])];
    });
  }

  /** The bytes under `key`, a reference read from `entry`, which must lie in the store. */
  private async required(key: string, entry: string): Promise<Uint8Array> {
    const origin = { root: `State store ${this.store.location}`, entry, encoding: 'key' as const };
    const bytes = await this.store.get(resolveStoredReference(key, origin));
    if (bytes === undefined) {
      throw new CheckpointError(
        `State file ${this.store.location}/${key} is missing; the checkpoint is damaged. Restore the file or start the query on a new checkpoint.`,
      );
    }
    return bytes;
  }

  /** How a state object is named in messages: the store's location and its key. */
  private describe(key: string): string {
    return `${this.store.location}/${key}`;
  }

  private emptyManifest(storeIds: readonly StateStoreId[]): StateManifest {
    const operators: Record<string, PartitionFiles[]> = {};
    for (const id of storeIds) operators[manifestEntry(id)] = this.emptyPartitions();
    return {
      formatVersion: FORMAT_VERSION,
      batchId: -1,
      numPartitions: this.numPartitions,
      operators,
    };
  }

  private emptyPartitions(): PartitionFiles[] {
    return Array.from({ length: this.numPartitions }, () => ({ snapshot: null, deltas: [] }));
  }
}

function encodeFile(kind: string, lines: string[], identity: StateFileIdentity): Uint8Array {
  const header = { formatVersion: FORMAT_VERSION, kind, ...identity };
  return Buffer.from(sealText(header, lines.join('\n')));
}

function corrupt(
  store: ObjectStore,
  key: string,
  problem: string,
  cause?: unknown,
): CheckpointError {
  return new CheckpointError(
    `State file ${store.location}/${key} is corrupt (${problem}). Restore it from a backup or start the query on a new checkpoint.`,
    { cause },
  );
}
