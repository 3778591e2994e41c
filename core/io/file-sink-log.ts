/**
 * The file sink's manifest log, `_sluice_metadata/` under the sink's root (Spark's `_spark_metadata`,
 * FileStreamSinkLog): which data files each batch committed. It is the truth about a file sink's
 * output: a data file the log does not list (left by a crashed or losing attempt) is garbage, and
 * readers that find the log read only the files it lists, never a directory listing.
 *
 * Layout: one manifest object per batch, named by its batchId (`_sluice_metadata/7`). Batch n with
 * (n + 1) % compactInterval == 0 writes `n.compact` instead, listing the files of every batch up to
 * and including n, so that a reader reads the latest compact manifest and the batch manifests after it
 * rather than the whole log. A batch's manifest is created with put-if-absent and never rewritten: it
 * exists (under either name) exactly when the batch is in the output.
 *
 * A manifest is text, versioned and validated on read:
 *   v1
 *   {"batchId":7,"queryId":"...","schema":"<Spark's JSON schema of the rows>"}
 *   {"path":"part-00007-<uuid>.parquet","size":1234,"modificationTime":1767225600000,"action":"add"}
 *   ... one line per data file; paths are relative to the sink's root, '/'-separated.
 *
 * The choice of manifests to read, and their encoding, are pure functions over names and bytes, so the
 * same rules serve the sink (through an ObjectStore, local or S3) and the synchronous local readers.
 */
import type { CreateResult, ObjectStore } from '../checkpoint/object-store.js';
import { parseSparkJsonSchema, toSparkJsonSchema } from '../types/spark-json-schema.js';
import { resolveStoredReference } from '../checkpoint/stored-reference.js';
import { InvalidOptionError, SinkError } from '../errors.js';
import type { StructType } from '../types/data-types.js';

/** The directory of the manifest log, under the sink's root. */
export const FILE_SINK_LOG_DIRECTORY = '_sluice_metadata';
/** Every how many batches the log is compacted, unless told otherwise (Spark's compactInterval). */
export const DEFAULT_COMPACT_INTERVAL = 10;
/** The manifest format this code writes and reads. */
const FORMAT_VERSION = 'v1';

/** A data file a batch committed. */
export interface SinkFileEntry {
  /** Relative to the sink's root, '/'-separated. */
  readonly path: string;
  /** In bytes. */
  readonly size: number;
  /** When the file was written, in ms since the epoch. */
  readonly modificationTime: number;
  readonly action: 'add';
}

/** One object of the log: the files of batch `batchId`, or of every batch up to it when `compact`. */
export interface SinkManifest {
  readonly batchId: number;
  /** The query whose batch this is: a log belongs to one query (its batch ids mean nothing to another). */
  readonly queryId: string;
  /** The schema of the rows the sink writes; undefined in manifests written before it was recorded. */
  readonly schema?: StructType;
  readonly compact: boolean;
  readonly files: readonly SinkFileEntry[];
}

/** The name of a manifest object in the log directory. */
export interface ManifestName {
  readonly name: string;
  readonly batchId: number;
  readonly compact: boolean;
}

/** True for the batches that write a compact manifest. */
export function isCompactionBatch(batchId: number, compactInterval: number): boolean {
  return (batchId + 1) % compactInterval === 0;
}

/** `7` or `9.compact`. */
export function manifestName(batchId: number, compact: boolean): string {
  return compact ? `${batchId}.compact` : String(batchId);
}

/** The batch a log object's name stands for; undefined for anything else (e.g. a temporary file). */
export function parseManifestName(name: string): ManifestName | undefined {
  const match = /^(\d+)(\.compact)?$/.exec(name);
  if (!match) return undefined;
  return { name, batchId: Number(match[1]), compact: match[2] !== undefined };
}

/**
 * Of the log objects `names`, those a reader needs, in batch order: the latest compact manifest (it
 * lists every earlier batch's files) and the batch manifests after it.
 */
export function manifestsToRead(names: readonly string[]): ManifestName[] {
  const manifests = names.flatMap((n) => parseManifestName(n) ?? []);
  const latestCompact = manifests.reduce((n, m) => (m.compact ? Math.max(n, m.batchId) : n), -1);
  return manifests
    .filter((m) => (m.compact ? m.batchId === latestCompact : m.batchId > latestCompact))
    .sort((a, b) => a.batchId - b.batchId);
}

/** The bytes of a manifest. */
export function encodeManifest(manifest: SinkManifest): Uint8Array {
  const lines = [
    FORMAT_VERSION,
    JSON.stringify({
      batchId: manifest.batchId,
      queryId: manifest.queryId,
      ...(manifest.schema && { schema: toSparkJsonSchema(manifest.schema) }),
    }),
    ...manifest.files.map((f) =>
      JSON.stringify({
        path: f.path,
        size: f.size,
        modificationTime: f.modificationTime,
        action: f.action,
      }),
    ),
  ];
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/**
 * Reads a manifest's bytes; `source` names the object for messages. Throws SinkError when the bytes
 * are not a manifest of this format version (a damaged log, or one written by a newer Sluice), and
 * UnsafePathError when an entry's path leads outside the sink's root.
 */
export function decodeManifest(
  name: ManifestName,
  bytes: Uint8Array,
  source: string,
): SinkManifest {
  const lines = Buffer.from(bytes).toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const damaged = (what: string, cause?: unknown) =>
    new SinkError(
      `File sink manifest ${source} is damaged: ${what}. The output's ${FILE_SINK_LOG_DIRECTORY}/ log must not be edited; restore the object, or write the query's output to a new path.`,
      { cause },
    );
  if (lines[0] !== FORMAT_VERSION) {
    throw /^v\d+$/.test(lines[0] ?? '')
      ? new SinkError(
          `File sink manifest ${source} has format ${lines[0]}; this version of Sluice reads ${FORMAT_VERSION}. Read the output with a newer Sluice.`,
        )
      : damaged(`its first line is not the format version '${FORMAT_VERSION}'`);
  }
  let header: unknown;
  let files: unknown[];
  try {
    header = JSON.parse(lines[1] ?? 'null');
    files = lines.slice(2).map((line) => JSON.parse(line) as unknown);
  } catch (e) {
    throw damaged('a line is not JSON', e);
  }
  if (!isHeader(header) || header.batchId !== name.batchId) {
    throw damaged(`its header does not name batch ${name.batchId} and a query id`);
  }
  const bad = files.findIndex((f) => !isFileEntry(f));
  if (bad >= 0) throw damaged(`line ${bad + 3} is not a file entry {path, size, action: 'add'}`);
  const parsed = header.schema === undefined ? undefined : parseSparkJsonSchema(header.schema);
  if (parsed !== undefined && !('schema' in parsed)) {
    throw damaged(`the schema in its header ${parsed.problem}`, parsed.cause);
  }
  const schema = parsed?.schema;
  return {
    batchId: header.batchId,
    queryId: header.queryId,
    ...(schema && { schema }),
    compact: name.compact,
    files: (files as SinkFileEntry[]).map((f, i) => ({
      ...f,
      path: resolveStoredReference(f.path, {
        root: `File sink manifest ${source}`,
        entry: `line ${i + 3}`,
        encoding: 'key',
      }),
    })),
  };
}

function isHeader(value: unknown): value is { batchId: number; queryId: string; schema?: string } {
  const h = value as { batchId?: unknown; queryId?: unknown; schema?: unknown } | null;
  return (
    typeof h?.batchId === 'number' &&
    typeof h.queryId === 'string' &&
    (h.schema === undefined || typeof h.schema === 'string')
  );
}

function isFileEntry(value: unknown): value is SinkFileEntry {
  const f = value as Partial<SinkFileEntry> | null;
  return (
    typeof f?.path === 'string' &&
    f.path !== '' &&
    typeof f.size === 'number' &&
    typeof f.modificationTime === 'number' &&
    f.action === 'add'
  );
}

/** The manifest log of a file sink whose root is `store`'s root. */
export class FileSinkLog {
  constructor(
    private readonly store: ObjectStore,
    private readonly compactInterval = DEFAULT_COMPACT_INTERVAL,
  ) {
    if (!Number.isSafeInteger(compactInterval) || compactInterval < 1) {
      throw new InvalidOptionError(
        `File sink option 'compactInterval' must be a positive integer, got ${JSON.stringify(compactInterval)}.`,
      );
    }
  }

  /** Where the log lives, for messages. */
  get location(): string {
    return `${this.store.location}/${FILE_SINK_LOG_DIRECTORY}`;
  }

  /** True when batch `batchId` is in the output (its manifest exists, under either name). */
  async hasBatch(batchId: number): Promise<boolean> {
    const found = await Promise.all(
      [false, true].map((compact) => this.store.get(this.key(manifestName(batchId, compact)))),
    );
    return found.some((bytes) => bytes !== undefined);
  }

  /** The manifest of the latest batch in the log, if any. */
  async latest(): Promise<SinkManifest | undefined> {
    const names = await this.names();
    const latest = names.reduce<ManifestName | undefined>(
      (best, m) => (best === undefined || m.batchId > best.batchId ? m : best),
      undefined,
    );
    return latest && this.read(latest);
  }

  /**
   * Commits batch `batchId` with its data files: creates its manifest if absent ('exists' when an
   * attempt of the batch committed first). A compaction batch's manifest lists every file of the
   * log up to it, so it is built from the latest compact manifest and the batch manifests after it.
   */
  async add(
    batchId: number,
    queryId: string,
    files: readonly SinkFileEntry[],
    schema?: StructType,
  ): Promise<CreateResult> {
    const compact = isCompactionBatch(batchId, this.compactInterval);
    const earlier = compact ? await this.filesBefore(batchId) : [];
    const manifest: SinkManifest = {
      batchId,
      queryId,
      ...(schema && { schema }),
      compact,
      files: [...earlier, ...files],
    };
    return this.store.putIfAbsent(
      this.key(manifestName(batchId, compact)),
      encodeManifest(manifest),
    );
  }

  /** Every data file of the output: the latest compact manifest's and those of the batches after it. */
  async allFiles(): Promise<SinkFileEntry[]> {
    return this.filesOf(manifestsToRead((await this.names()).map((m) => m.name)));
  }

  private async filesBefore(batchId: number): Promise<SinkFileEntry[]> {
    const names = (await this.names()).filter((m) => m.batchId < batchId).map((m) => m.name);
    return this.filesOf(manifestsToRead(names));
  }

  private async filesOf(names: readonly ManifestName[]): Promise<SinkFileEntry[]> {
    const manifests = await Promise.all(names.map((m) => this.read(m)));
    return manifests.flatMap((m) => m.files);
  }

  /** True when the log holds at least one manifest: the root is a file sink's output. */
  async exists(): Promise<boolean> {
    return (await this.names()).length > 0;
  }

  private async names(): Promise<ManifestName[]> {
    const prefix = `${FILE_SINK_LOG_DIRECTORY}/`;
    const keys = await this.store.list(prefix);
    return keys.flatMap((k) => parseManifestName(k.slice(prefix.length)) ?? []);
  }

  private async read(name: ManifestName): Promise<SinkManifest> {
    const key = this.key(name.name);
    const bytes = await this.store.get(key);
    if (bytes === undefined) {
      throw new SinkError(
        `File sink manifest ${this.store.location}/${key} was listed but cannot be read: it was deleted meanwhile. The ${FILE_SINK_LOG_DIRECTORY}/ log must not be edited; restore the object.`,
      );
    }
    return decodeManifest(name, bytes, `${this.store.location}/${key}`);
  }

  private key(name: string): string {
    return `${FILE_SINK_LOG_DIRECTORY}/${name}`;
  }
}
