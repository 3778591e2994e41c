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
 * With an inline budget (the default of a query), the manifest travels in the commit record instead
 * (inline-state.ts), and so do each partition's changes since its last file, merged: a warm batch
 * writes no object at all. Snapshots then come in turns, one partition per batch
 * (snapshot-schedule.ts), and only when the partition's changes since its last snapshot make it
 * worth the cost of writing all its keys. When the commit's state would exceed the budget, every
 * partition's inline changes are written as delta files, as without a budget, and when even the
 * manifest alone exceeds it, the manifest is an object again. Loading applies snapshot, deltas,
 * then inline changes.
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
import { decodeStateValue, encodeStateValueForText } from './state-value.js';
import {
  decodeInlineState,
  encodeInlineState,
  type InlineChange,
  mergeInlineChanges,
} from './inline-state.js';
import { snapshotSlot, snapshotTurn } from './snapshot-schedule.js';
import { type CommitRecord, stateVersionOf } from '../checkpoint/checkpoint-store.js';

const FORMAT_VERSION = 1;

/** The files of one partition in one version. */
export interface PartitionFiles {
  readonly snapshot: string | null;
  readonly deltas: readonly string[];
  /** The changes since the last file, merged, when the commit carries them (inline-state.ts). */
  readonly inline?: readonly InlineChange[];
  /** How many changes the delta files hold (absent in earlier versions' manifests: unknown). */
  readonly deltaChanges?: number;
}

/** Where a committed state version is: a manifest object, or the commit record itself. */
export interface StateVersionRef {
  /** The manifest object's key; null when the commit carries the manifest. */
  readonly manifestKey: string | null;
  /** The manifest as the commit carries it (inline-state.ts), when it does. */
  readonly inlineState?: string;
  /** The batch whose version it is; a manifest of another batch is refused. Unchecked when absent. */
  readonly batchId?: number;
}

/** The state version a commit names, or null when the query had no state at that batch. */
export function stateVersionRefOf(commit: CommitRecord): StateVersionRef | null {
  if (!commit.stateManifest && commit.inlineState === undefined) return null;
  return {
    manifestKey: commit.stateManifest,
    ...(commit.inlineState === undefined ? {} : { inlineState: commit.inlineState }),
    batchId: stateVersionOf(commit),
  };
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
  /** Where the version is, for its commit record. */
  readonly version: StateVersionRef;
  readonly manifest: StateManifest;
  /** Objects written to the object store. */
  readonly filesWritten: number;
  /** Bytes written, to the object store and into the commit. */
  readonly bytesWritten: number;
}

/** Counts what one persist writes to the object store. */
interface WriteCount {
  files: number;
  bytes: number;
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
    /** The most bytes of state a commit carries (inline-state.ts); 0: every version is files. */
    private readonly inlineBudgetBytes = 0,
  ) {
    this.schemas = new Map(schemas.map((s) => [manifestEntry(s.id), s]));
  }

  /** The store under a manifest entry, with its schema when the query declared one. */
  private schemaOf(entry: string): StateStoreSchema {
    return this.schemas.get(entry) ?? { id: storeIdOfEntry(entry) };
  }

  /** Loads `storeIds` at `version` (empty stores when null). A store the manifest does not list is empty. */
  async load(
    version: StateVersionRef | null,
    storeIds: readonly StateStoreId[],
  ): Promise<{ manifest: StateManifest; stores: StoresByEntry }> {
    const manifest = version ? await this.manifestOf(version) : this.emptyManifest(storeIds);
    const stores = await Promise.all(storeIds.map((id) => this.loadStore(manifest, version, id)));
    return { manifest, stores: new Map(storeIds.map((id, i) => [manifestEntry(id), stores[i]])) };
  }

  /** Whether any store holds changes not yet persisted: a batch without any writes no version. */
  hasChanges(stores: StoresByEntry): boolean {
    for (const store of stores.values()) if (store.hasChanges) return true;
    return false;
  }

  /**
   * Writes the changes of every store as version `batchId`: into the commit while they fit the
   * inline budget, else as files and a manifest object.
   */
  async persist(
    batchId: number,
    attemptId: string,
    previous: StateManifest,
    stores: StoresByEntry,
  ): Promise<PersistResult> {
    const written: WriteCount = { files: 0, bytes: 0 };
    if (this.inlineBudgetBytes > 0) {
      const { manifest, inline } = await this.persistInline(
        batchId,
        attemptId,
        previous,
        stores,
        written,
      );
      if (inline) return inline;
      return this.persistManifest(manifest, attemptId, written);
    }
    const operators: Record<string, PartitionFiles[]> = {};
    await Promise.all(
      [...stores].map(async ([entry, store]) => {
        const changes = store.takeChanges();
        const partitions = previous.operators[entry] ?? this.emptyPartitions();
        operators[entry] = await Promise.all(
          partitions.map((current, p) =>
            this.persistPartition(
              { entry, p, batchId, attemptId, store, written },
              current,
              changes.get(p),
            ),
          ),
        );
      }),
    );
    return this.persistManifest(
      this.versionManifest(batchId, stores, operators),
      attemptId,
      written,
    );
  }

  /** A version's manifest: the files of each store's partitions, and each store's entry. */
  private versionManifest(
    batchId: number,
    stores: StoresByEntry,
    operators: Record<string, PartitionFiles[]>,
  ): StateManifest {
    const storeEntries: Record<string, ManifestStoreEntry> = {};
    for (const entry of stores.keys()) {
      const { id, stateSchema } = this.schemaOf(entry);
      storeEntries[entry] = { ...id, ...(stateSchema === undefined ? {} : { stateSchema }) };
    }
    return {
      formatVersion: FORMAT_VERSION,
      batchId,
      numPartitions: this.numPartitions,
      operators,
      stores: storeEntries,
    };
  }

  /**
   * With an inline budget, in three steps:
   * 1. each partition with changes pending (inline or in delta files) snapshots on its turn when
   *    that is worth it, or when spills made its chain long; every other partition with pending
   *    changes is a candidate, its merged change set encoded as the lines a delta file holds;
   * 2. if the candidates' lines may fit the budget (mayFitInline), their merged changes go into the
   *    manifest, and the commit carries it when its text fits;
   * 3. else every candidate's lines are written as a delta file (as a snapshot when the changes
   *    cover the partition or its chain is long), and the commit carries the manifest of files if
   *    that fits. `inline` is undefined when it does not: the manifest is then an object.
   * The lines are encoded once, for the size test and the spill. Changes that may fit are compressed
   * once, as the manifest the commit carries, not first as lines to test the fit: they nearly always
   * fit, and a test that passed cost a second compression of the same changes.
   */
  private async persistInline(
    batchId: number,
    attemptId: string,
    previous: StateManifest,
    stores: StoresByEntry,
    written: WriteCount,
  ): Promise<{ manifest: StateManifest; inline?: PersistResult }> {
    const entries = [...stores.keys()];
    const operators: Record<string, PartitionFiles[]> = {};
    const candidates: InlineCandidate[] = [];
    await Promise.all(
      [...stores].map(async ([entry, store]) => {
        const changes = store.takeChanges();
        const turn = (p: number) =>
          snapshotTurn(
            batchId,
            snapshotSlot(entries, entry, p, this.numPartitions),
            entries.length * this.numPartitions,
            this.snapshotInterval,
          );
        const partitions = previous.operators[entry] ?? this.emptyPartitions();
        operators[entry] = await Promise.all(
          partitions.map((current, p) => {
            const partition = { entry, p, batchId, attemptId, store, written };
            const { inline } = current;
            const changed = changes.get(p);
            const count = mergedCount(inline, changed);
            if (current.deltas.length + count === 0) return current;
            const size = store.partitionSize(p);
            if (
              (turn(p) && this.snapshotWorthIt(current, count, size)) ||
              current.deltas.length >= this.snapshotInterval
            )
              return this.writeSnapshot(partition);
            if (count > 0) {
              const lines = mergedLines(inline, changed);
              candidates.push({ partition, current, changes: changed, count, lines });
            }
            return current;
          }),
        );
      }),
    );
    const place = (c: InlineCandidate, files: PartitionFiles) => {
      operators[c.partition.entry][c.partition.p] = files;
    };
    if (mayFitInline(candidates, this.inlineBudgetBytes)) {
      for (const c of candidates)
        if (c.changes)
          place(c, { ...c.current, inline: mergeInlineChanges(c.current.inline, c.changes) });
      const manifest = this.versionManifest(batchId, stores, operators);
      const inline = this.inlineResult(manifest, written);
      if (inline) return { manifest, inline };
    }
    await Promise.all(
      candidates.map(async (c) => {
        const { partition, current } = c;
        // a delta of as many entries as the partition holds is a snapshot's size: write that
        const whole = c.count >= partition.store.partitionSize(partition.p);
        place(
          c,
          whole || current.deltas.length + 1 >= this.snapshotInterval
            ? await this.writeSnapshot(partition)
            : await this.writeDelta(partition, current, c.lines),
        );
      }),
    );
    const manifest = this.versionManifest(batchId, stores, operators);
    return { manifest, inline: this.inlineResult(manifest, written) };
  }

  /** The version carried by the commit, or undefined when the manifest's text is over budget. */
  private inlineResult(manifest: StateManifest, written: WriteCount): PersistResult | undefined {
    const inlineState = encodeInlineState(manifest, this.inlineBudgetBytes);
    if (inlineState === undefined) return undefined;
    return {
      version: { manifestKey: null, inlineState, batchId: manifest.batchId },
      manifest,
      filesWritten: written.files,
      bytesWritten: written.bytes + inlineState.length,
    };
  }

  /** The manifest as an object of its own, as versions without an inline budget have it. */
  private async persistManifest(
    manifest: StateManifest,
    attemptId: string,
    written: WriteCount,
  ): Promise<PersistResult> {
    const manifestKey = `state/manifests/${sortableId(manifest.batchId)}-${attemptId}.json`;
    const bytes = Buffer.from(encodeChecksummedRecord(manifest, { kind: 'manifest' }));
    await this.store.put(manifestKey, bytes);
    return {
      version: { manifestKey, batchId: manifest.batchId },
      manifest,
      filesWritten: written.files + 1,
      bytesWritten: written.bytes + bytes.length,
    };
  }

  /** Without an inline budget: a changed partition gets a delta, or a snapshot once its chain is long. */
  private async persistPartition(
    partition: PartitionWrite,
    current: PartitionFiles,
    changes: PartitionChanges | undefined,
  ): Promise<PartitionFiles> {
    if (!changes) return current;
    if (current.deltas.length + 1 >= this.snapshotInterval) return this.writeSnapshot(partition);
    return this.writeDelta(partition, current, [...changes].map(changeLine));
  }

  /**
   * Whether a partition's snapshot is worth writing on its turn: its changes since the snapshot
   * amount to a snapshot interval's share of its keys, so that a snapshot, whose cost grows with the
   * keys held, costs at most `snapshotInterval` times the keys changed, and a batch of a large
   * partition with few changes writes none (they stay inline, or spill to a delta file when the
   * commit is full); or its delta chain is half the interval, so that chains growing in step are
   * snapshotted on their turns rather than all in the batch at which they reach the interval.
   */
  private snapshotWorthIt(files: PartitionFiles, inlineChanges: number, keys: number): boolean {
    if (files.deltas.length * 2 >= this.snapshotInterval) return true;
    if (files.deltas.length > 0 && files.deltaChanges === undefined) return true;
    const changed = (files.deltaChanges ?? 0) + inlineChanges;
    return changed * this.snapshotInterval >= keys;
  }

  private async writeSnapshot(partition: PartitionWrite): Promise<PartitionFiles> {
    const lines = [...partition.store.partitionEntries(partition.p)].map(changeLine);
    return { snapshot: await this.writeFile(partition, 'snapshot', lines), deltas: [] };
  }

  private async writeDelta(
    partition: PartitionWrite,
    current: PartitionFiles,
    lines: readonly string[],
  ): Promise<PartitionFiles> {
    const key = await this.writeFile(partition, 'delta', lines);
    return {
      snapshot: current.snapshot,
      deltas: [...current.deltas, key],
      // counted for the inline path's snapshot rule, and only while the count is known
      ...(this.inlineBudgetBytes === 0 ||
      (current.deltaChanges === undefined && current.deltas.length > 0)
        ? {}
        : { deltaChanges: (current.deltaChanges ?? 0) + lines.length }),
    };
  }

  private async writeFile(
    { entry, p, batchId, attemptId, written }: PartitionWrite,
    kind: 'snapshot' | 'delta',
    lines: readonly string[],
  ): Promise<string> {
    const key = `state/${entry}/${p}/${sortableId(batchId)}-${attemptId}.${kind}`;
    const bytes = encodeFile(kind, lines, fileIdentity(this.schemaOf(entry), p));
    await this.store.put(key, bytes);
    written.files++;
    written.bytes += bytes.length;
    return key;
  }

  private async loadStore(
    manifest: StateManifest,
    version: StateVersionRef | null,
    id: StateStoreId,
  ): Promise<KeyedStateStore> {
    const store = new KeyedStateStore(this.numPartitions);
    const entry = manifestEntry(id);
    const expected = this.schemas.get(entry) ?? { id };
    if (version)
      checkManifestEntry(manifest.stores?.[entry], expected, this.describeVersion(version));
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
      for (const change of partitions[p].inline ?? []) {
        store.apply(p, change[0], change.length === 1 ? DELETED : decodeStateValue(change[1]));
      }
    });
    store.takeChanges();
    return store;
  }

  /** The manifest of a committed version, from its object or from the commit that carries it. */
  async manifestOf(version: StateVersionRef): Promise<StateManifest> {
    if (version.inlineState === undefined)
      return this.readManifest(version.manifestKey!, version.batchId);
    const name = this.describeVersion(version);
    const manifest = decodeInlineState(version.inlineState, name) as StateManifest;
    if (manifest.formatVersion !== FORMAT_VERSION) {
      throw new CheckpointError(
        `The state carried by ${name} has unknown format version ${String(manifest.formatVersion)}. Restore it from a backup or start the query on a new checkpoint.`,
      );
    }
    this.checkManifest(manifest, name, version.batchId);
    return manifest;
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
    this.checkManifest(manifest, `State manifest ${this.describe(key)}`, batchId);
    return manifest;
  }

  /** Refuses a manifest of another version than its commit's, or of another partition count. */
  private checkManifest(manifest: StateManifest, name: string, batchId?: number): void {
    if (batchId !== undefined && manifest.batchId !== batchId) {
      throw new CheckpointError(
        `${name} holds version ${String(manifest.batchId)} but commit ${batchId} names it: the manifest or the commit was edited. Restore it from a backup or start the query on a new checkpoint.`,
      );
    }
    if (manifest.numPartitions !== this.numPartitions) {
      throw new CheckpointError(
        `${name} has ${manifest.numPartitions} partitions but the query uses ${this.numPartitions}; the partition count is fixed when a checkpoint is created.`,
      );
    }
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

  /** How a version is named in messages: its manifest object, or the commit that carries it. */
  private describeVersion(version: StateVersionRef): string {
    return version.manifestKey === null
      ? `the commit record of batch ${version.batchId}`
      : this.describe(version.manifestKey);
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

/**
 * A partition whose changes since its last file (the inline ones the previous version carried,
 * merged with this batch's) stay inline or are spilled to a file.
 */
interface InlineCandidate {
  readonly partition: PartitionWrite;
  readonly current: PartitionFiles;
  /** This batch's changes of the partition; absent when it changed nothing there. */
  readonly changes: PartitionChanges | undefined;
  /** How many keys the merged change set holds. */
  readonly count: number;
  /** The merged change set as a delta file's lines. */
  readonly lines: readonly string[];
}

/** How many keys `inline` followed by `changes` changed. */
function mergedCount(
  inline: readonly InlineChange[] | undefined,
  changes: PartitionChanges | undefined,
): number {
  if (!inline?.length) return changes?.size ?? 0;
  if (!changes) return inline.length;
  let count = changes.size;
  for (const change of inline) if (!changes.has(change[0])) count++;
  return count;
}

/**
 * `inline` followed by `changes`, each key with its last change, as lines in the order
 * mergeInlineChanges gives the changes (a key keeps its first place); a carried change that this
 * batch replaced is not encoded.
 */
function mergedLines(
  inline: readonly InlineChange[] | undefined,
  changes: PartitionChanges | undefined,
): string[] {
  if (!changes) return (inline ?? []).map((c) => JSON.stringify(c));
  const lines: string[] = [];
  let carried: Set<string> | undefined;
  if (inline?.length) {
    carried = new Set();
    for (const change of inline) {
      const key = change[0];
      carried.add(key);
      lines.push(changes.has(key) ? changeLine([key, changes.get(key)]) : JSON.stringify(change));
    }
  }
  for (const change of changes) if (!carried?.has(change[0])) lines.push(changeLine(change));
  return lines;
}

/**
 * Gzip compresses state lines a few times over, rarely more than this; inline changes whose JSON is
 * longer than this many budgets are spilled without compressing them to find they do not fit.
 */
const MAX_INLINE_COMPRESSION = 32;

/**
 * False when the candidates' lines, which make up nearly all of a manifest, surely do not fit
 * `budgetBytes`: their JSON is over MAX_INLINE_COMPRESSION budgets. True when they may fit: the
 * manifest itself is then encoded to find out, compressed once, as the commit carries it.
 */
function mayFitInline(candidates: readonly InlineCandidate[], budgetBytes: number): boolean {
  let bytes = 0;
  for (const { lines } of candidates) {
    for (const line of lines) bytes += line.length + 1;
  }
  return bytes <= budgetBytes * MAX_INLINE_COMPRESSION;
}

/** One partition being persisted, and the count of what the persist writes. */
interface PartitionWrite {
  readonly entry: string;
  readonly p: number;
  readonly batchId: number;
  readonly attemptId: string;
  readonly store: KeyedStateStore;
  readonly written: WriteCount;
}

/** A state file's line for one entry or change: `[key, value]`, or `[key]` for a delete. */
function changeLine([key, value]: [string, unknown]): string {
  return JSON.stringify(value === DELETED ? [key] : [key, encodeStateValueForText(value)]);
}

function encodeFile(
  kind: string,
  lines: readonly string[],
  identity: StateFileIdentity,
): Uint8Array {
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
