/**
 * The actions of the Delta transaction log and their JSON form. A commit file (`_delta_log/<version>
 * .json`) holds one action per line, each an object with a single key naming the action: `protocol`,
 * `metaData`, `add`, `remove`, `txn` or `commitInfo` (the ones Sluice writes and reads; field names
 * and meanings are the Delta protocol's).
 *
 * Decoding validates the fields the protocol requires, so a damaged log fails with a message naming
 * the file and line instead of a wrong table. Actions Sluice does not know (`cdc`, `domainMetadata`,
 * ...) and unknown fields are skipped, as the protocol asks of readers: anything a reader must
 * understand is announced by a protocol version, which the snapshot checks.
 */
import { DeltaTableError } from '../errors.js';

/** The Delta reader protocol version Sluice implements. */
export const DELTA_READER_VERSION = 1;
/** The Delta writer protocol version Sluice implements (append-only tables and column invariants). */
export const DELTA_WRITER_VERSION = 2;

/** `protocol`: the protocol versions a client needs to read and to write the table. */
export interface ProtocolAction {
  readonly minReaderVersion: number;
  readonly minWriterVersion: number;
}

/** `metaData`: the table's identity, schema, partitioning and properties. */
export interface MetadataAction {
  /** A unique id of the table (a UUID). */
  readonly id: string;
  /** A user-given name of the table. */
  readonly name?: string;
  /** A user-given description of the table. */
  readonly description?: string;
  readonly format: {
    readonly provider: string;
    readonly options: Readonly<Record<string, string>>;
  };
  /** The schema in Delta's JSON form (see delta-schema.ts). */
  readonly schemaString: string;
  readonly partitionColumns: readonly string[];
  /** Table properties, such as `delta.appendOnly`. */
  readonly configuration: Readonly<Record<string, string>>;
  /** When the metadata was written, in milliseconds since the epoch. */
  readonly createdTime?: number;
}

/** Partition values of a file by column, in the protocol's text form (null for NULL). */
export type PartitionValues = Readonly<Record<string, string | null>>;

/** `add`: a data file that is part of the table from this version on. */
export interface AddFileAction {
  /** The file relative to the table root, as a URI path (percent-encoded). */
  readonly path: string;
  readonly partitionValues: PartitionValues;
  /** Bytes. */
  readonly size: number;
  /** When the file was written, in milliseconds since the epoch. */
  readonly modificationTime: number;
  /** False when the file only rearranges data already in the table. */
  readonly dataChange: boolean;
  /** Per-file statistics as a JSON string (see file-stats.ts). */
  readonly stats?: string;
  /** Metadata about the file other writers may attach; Sluice keeps it in checkpoints. */
  readonly tags?: Readonly<Record<string, string | null>>;
}

/** `remove`: a data file that is no longer part of the table from this version on. */
export interface RemoveFileAction {
  readonly path: string;
  /** When the file was removed, in milliseconds since the epoch. */
  readonly deletionTimestamp?: number;
  readonly dataChange: boolean;
  /** True when partitionValues and size are present. */
  readonly extendedFileMetadata?: boolean;
  readonly partitionValues?: PartitionValues;
  readonly size?: number;
}

/** `txn`: how far an application (a streaming query: appId is its id) has written into the table. */
export interface TransactionAction {
  readonly appId: string;
  /** The application's own progress marker: the streaming batch id. */
  readonly version: number;
  /** When the action was written, in milliseconds since the epoch. */
  readonly lastUpdated?: number;
}

/** `commitInfo`: provenance of a commit (operation, time, engine); free-form JSON. */
export type CommitInfoAction = Readonly<Record<string, unknown>>;

/** One action of a commit. */
export type DeltaAction =
  | { readonly protocol: ProtocolAction }
  | { readonly metaData: MetadataAction }
  | { readonly add: AddFileAction }
  | { readonly remove: RemoveFileAction }
  | { readonly txn: TransactionAction }
  | { readonly commitInfo: CommitInfoAction };

type FieldKind = 'string' | 'number' | 'boolean' | 'object' | 'array';

/** The fields the protocol requires of each action Sluice reads, with their JSON kinds. */
const REQUIRED_FIELDS: Record<string, Record<string, FieldKind>> = {
  protocol: { minReaderVersion: 'number', minWriterVersion: 'number' },
  metaData: { id: 'string', format: 'object', schemaString: 'string', partitionColumns: 'array' },
  add: {
    path: 'string',
    partitionValues: 'object',
    size: 'number',
    modificationTime: 'number',
    dataChange: 'boolean',
  },
  remove: { path: 'string', dataChange: 'boolean' },
  txn: { appId: 'string', version: 'number' },
  commitInfo: {},
};

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The bytes of a commit file holding `actions`, one JSON line each. */
export function encodeCommit(actions: readonly DeltaAction[]): Uint8Array {
  return utf8Encoder.encode(actions.map((a) => `${JSON.stringify(a)}\n`).join(''));
}

/**
 * The actions of a commit file, in file order. `file` names it in errors. Throws DeltaTableError when
 * a line is not JSON or a known action lacks a required field.
 */
export function decodeCommit(bytes: Uint8Array, file: string): DeltaAction[] {
  const actions: DeltaAction[] = [];
  const lines = utf8Decoder.decode(bytes).split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (cause) {
      throw damaged(file, `line ${index + 1}`, `is not JSON (${(cause as Error).message})`, cause);
    }
    actions.push(...decodeActions(parsed, file, `line ${index + 1}`));
  });
  return actions;
}

/**
 * The known actions in one decoded log entry (`{"add": {...}}`): a line of a commit file, or a row of
 * a checkpoint turned into the same form. `file` and `entry` (`line 3`, `row 7`) name it in errors.
 * Throws DeltaTableError when the entry is not an object or a known action lacks a required field.
 */
export function decodeActions(parsed: unknown, file: string, entry: string): DeltaAction[] {
  if (!isObject(parsed)) throw damaged(file, entry, 'is not a JSON object');
  const actions: DeltaAction[] = [];
  for (const [kind, body] of Object.entries(parsed)) {
    const required = REQUIRED_FIELDS[kind];
    if (!required) continue;
    if (!isObject(body)) throw damaged(file, entry, `has a '${kind}' that is not an object`);
    for (const [name, expected] of Object.entries(required)) {
      if (kindOf(body[name]) !== expected) {
        throw damaged(
          file,
          entry,
          `has a '${kind}' action without a valid '${name}' (${expected})`,
        );
      }
    }
    actions.push(normalized(kind, body));
  }
  return actions;
}

/** Fills the optional maps that the rest of Sluice reads, so they are never undefined. */
function normalized(kind: string, body: Record<string, unknown>): DeltaAction {
  if (kind === 'metaData') {
    return {
      metaData: { ...body, configuration: body.configuration ?? {} } as unknown as MetadataAction,
    };
  }
  return { [kind]: body } as unknown as DeltaAction;
}

function kindOf(value: unknown): FieldKind | 'other' {
  if (Array.isArray(value)) return 'array';
  if (isObject(value)) return 'object';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'other';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function damaged(file: string, entry: string, what: string, cause?: unknown): DeltaTableError {
  return new DeltaTableError(
    `Delta log file ${file}: ${entry} ${what}; the log is damaged, restore the file from a backup or rewrite the table.`,
    cause === undefined ? undefined : { cause },
  );
}
