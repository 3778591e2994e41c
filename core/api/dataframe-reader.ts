/**
 * DataFrameReader (`session.read`): bounded tables from files and Delta tables. The schema is fixed
 * when the DataFrame is created (given, or inferred from the files or the Delta log then); the data is
 * read again each time the DataFrame runs, so a static side of a stream-static join sees the current
 * content per batch (a Delta table's latest version, unless versionAsOf fixes one).
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { DeltaLog } from '../delta/delta-log.js';
import type { DeltaSnapshot } from '../delta/delta-snapshot.js';
import { readSnapshotRows } from '../delta/delta-table-reader.js';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import {
  type FileFormat,
  type FileReadOptions,
  inferSchema,
  listDataFiles,
  parseDataFile,
  readDataFile,
  TEXT_SCHEMA,
} from '../io/data-files.js';
import { kafkaBatchScan } from '../kafka/kafka-batch-scan.js';
import { kafkaSchema } from '../kafka/kafka-schema.js';
import { describeSubscription } from '../kafka/kafka-subscription.js';
import { fileNameOf, pathGlobFilter } from '../io/path-glob-filter.js';
import { newPlanId } from '../plan/logical-plan.js';
import { storeListing } from '../sources/object-store-listing.js';
import { SinkOutputListing } from '../sources/sink-output-listing.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { normalizedLocation } from './data-locations.js';
import { DataFrame } from './dataframe.js';
import { deltaTableLocation, refuseChangeDataFeed } from './delta-options.js';
import { FileReaderBuilder } from './file-reader-builder.js';
import { checkFileOptionNames } from './file-option-names.js';
import { fileReadOptions, fileSelection, type OptionValue } from './reader-options.js';
import type { SluiceSession } from './session.js';
import { isStateFormat, stateFrame } from './state-data-source.js';

/** Options of a Delta table read. */
export interface DeltaReadOptions {
  /** The version to read (time travel). @default the latest version, each time the DataFrame runs */
  readonly versionAsOf?: number;
}

/** Reads bounded DataFrames from files and Delta tables. */
export class DataFrameReader extends FileReaderBuilder {
  constructor(private readonly session: SluiceSession) {
    super();
  }

  protected deltaTable(
    location: string | ObjectStore,
    options: ReadonlyMap<string, OptionValue>,
  ): Promise<DataFrame> {
    return this.delta(location, deltaReadOptions(options));
  }

  /**
   * Reads a file, or every data file under a directory, or under a URL such as
   * `s3://bucket/prefix` (resolved by the session's `objectStores`; files there need a schema, or
   * the text format); with format('kafka'), the records of [startingOffsets, endingOffsets) of the
   * topics the options name (no path).
   */
  load(location?: string): DataFrame {
    const format = this.formatName;
    if (format === 'kafka') return this.kafka(location);
    if (isStateFormat(format)) return stateFrame(this.session, format, location, this.options);
    const path = this.fileLocation(location);
    checkFileOptionNames(this.options, format, 'read');
    const { pathGlobFilter: pathGlob } = fileSelection(this.options);
    const options = fileReadOptions(this.options, this.userSchema);
    const store = this.session.objectStore(path);
    const { schema, scan } = store
      ? this.storeFiles(store, format, options, pathGlob)
      : localFiles(path, format, options, pathGlob);
    return new DataFrame(this.session, {
      kind: 'relation',
      id: newPlanId(),
      description: `${format}[${store?.location ?? path}]`,
      scan,
      schema,
      isStreaming: false,
      location: normalizedLocation(store ?? path),
    });
  }

  /**
   * The data files under a store's root, read as the file stream reads them (a file sink's output
   * through its manifest log). The schema cannot be inferred: load() returns at once, and inferring
   * would read the objects first.
   */
  private storeFiles(
    store: ObjectStore,
    format: FileFormat,
    options: FileReadOptions,
    pathGlob: string | undefined,
  ): FileTable {
    const schema = format === 'text' ? TEXT_SCHEMA : options.schema;
    if (!schema) {
      throw new InvalidOptionError(
        `Reading ${format} files from ${store.location} needs a schema: call read.schema(...) before load(). Schemas are inferred only from local files.`,
      );
    }
    const listing = new SinkOutputListing(storeListing(store), store);
    const scan = async () => {
      const selected = pathGlob === undefined ? () => true : pathGlobFilter(pathGlob);
      const files = (await listing.list()).filter((f) => selected(fileNameOf(f.path)));
      const contents = await Promise.all(
        files.map(async (f) =>
          parseDataFile(listing.nameOf(f.path), format, await listing.read(f.path), {
            ...options,
            schema,
          }),
        ),
      );
      return contents.flatMap((c) => c.rows);
    };
    return { schema, scan };
  }

  private kafka(location: string | undefined): DataFrame {
    const options = this.kafkaSourceOptions(location, 'batch');
    return new DataFrame(this.session, {
      kind: 'relation',
      id: newPlanId(),
      description: `Kafka[${describeSubscription(options.subscription)}]`,
      scan: kafkaBatchScan(options),
      schema: kafkaSchema(options.includeHeaders),
      isStreaming: false,
    });
  }

  /**
   * Reads a Delta table: a local directory, a URL such as `s3://bucket/prefix` (resolved by the
   * session's `objectStores`), or an ObjectStore whose root is the table root (an S3ObjectStore for
   * a table on S3). Asynchronous, unlike the file formats: the schema comes from the table's log.
   * Each run of the DataFrame reads the table's latest version (or `versionAsOf`); it fails if the
   * table's schema has changed since.
   */
  async delta(table: string | ObjectStore, options: DeltaReadOptions = {}): Promise<DataFrame> {
    const location = deltaTableLocation(this.session, table);
    const log = DeltaLog.at(location);
    const { versionAsOf } = options;
    const first =
      versionAsOf === undefined ? await log.snapshot() : await log.snapshotAt(versionAsOf);
    if (!first) {
      throw new AnalysisError(
        `${log.table} is not a Delta table: it has no _delta_log/ commits. Check the path, or write the table first.`,
      );
    }
    const schema = first.schema;
    let snapshot: DeltaSnapshot = first;
    const scan = async () => {
      if (versionAsOf !== undefined) return readSnapshotRows(log.store, first);
      snapshot = await log.snapshot(snapshot);
      if (!snapshot.hasSchema(schema)) {
        throw new AnalysisError(
          `The schema of Delta table ${log.table} changed since it was read; read the table again.`,
        );
      }
      return readSnapshotRows(log.store, snapshot);
    };
    return new DataFrame(this.session, {
      kind: 'relation',
      id: newPlanId(),
      description: `delta[${log.table}${versionAsOf === undefined ? '' : `@v${versionAsOf}`}]`,
      scan,
      schema,
      isStreaming: false,
      location: normalizedLocation(location),
    });
  }
}

function deltaReadOptions(options: ReadonlyMap<string, OptionValue>): DeltaReadOptions {
  refuseChangeDataFeed(options);
  const version = options.get('versionasof');
  if (version === undefined) return {};
  const n = Number(version);
  if (!Number.isSafeInteger(n) || n < 0 || String(version).trim() === '') {
    throw new InvalidOptionError(
      `Invalid option versionAsOf='${version}'; use a table version (0 or more).`,
    );
  }
  return { versionAsOf: n };
}

/** A file table's schema and how to read its rows. */
interface FileTable {
  readonly schema: StructType;
  readonly scan: () => Promise<Row[]>;
}

/** A local file, or the data files under a local directory; the schema is inferred now if not given. */
function localFiles(
  path: string,
  format: FileFormat,
  options: FileReadOptions,
  pathGlob: string | undefined,
): FileTable {
  const schema = inferSchema(listDataFiles(path, pathGlob), format, options, path);
  const scan = async () => {
    const files = listDataFiles(path, pathGlob);
    const contents = await Promise.all(
      files.map((f) => readDataFile(f, format, { ...options, schema })),
    );
    return contents.flatMap((c) => c.rows);
  };
  return { schema, scan };
}
