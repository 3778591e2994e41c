/**
 * DataStreamReader (`session.readStream`): unbounded DataFrames from the files under a directory or
 * an object store's prefix (`s3://bucket/prefix`), Kafka topics, Delta tables or a MemoryStream. A
 * file stream needs its schema up front, as in Spark, so the query's shape cannot change when new
 * files arrive; Kafka's schema is fixed, and a Delta table's is read from its log when the stream is
 * defined.
 */
import { LocalDirectoryStore } from '../checkpoint/local-directory-store.js';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { DeltaLog } from '../delta/delta-log.js';
import { checkDeltaSourceOptions, type DeltaSourceOptions } from '../delta/delta-source-options.js';
import { DeltaStreamSource } from '../delta/delta-stream-source.js';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { type FileFormat, TEXT_SCHEMA } from '../io/data-files.js';
import { kafkaSchema } from '../kafka/kafka-schema.js';
import { KafkaSource } from '../kafka/kafka-source.js';
import { describeSubscription } from '../kafka/kafka-subscription.js';
import { newPlanId, type StreamingRelation } from '../plan/logical-plan.js';
import type { FileListing } from '../sources/file-listing.js';
import { FileStreamSource } from '../sources/file-stream-source.js';
import type { MemoryStream } from '../sources/memory-stream.js';
import { storeListing } from '../sources/object-store-listing.js';
import { SinkOutputListing } from '../sources/sink-output-listing.js';
import type { StructType } from '../types/data-types.js';
import { DataFrame } from './dataframe.js';
import { deltaSourceOptions, deltaTableLocation } from './delta-options.js';
import { FileReaderBuilder } from './file-reader-builder.js';
import { fileStreamSettings } from './file-stream-options.js';
import { checkFileOptionNames } from './file-option-names.js';
import { fileReadOptions, fileSelection, type OptionValue } from './reader-options.js';
import type { SluiceSession } from './session.js';
import { isStateFormat } from './state-data-source.js';

/** Reads streaming DataFrames. */
export class DataStreamReader extends FileReaderBuilder {
  constructor(private readonly session: SluiceSession) {
    super();
  }

  protected deltaTable(
    location: string | ObjectStore,
    options: ReadonlyMap<string, OptionValue>,
  ): Promise<DataFrame> {
    return this.delta(location, deltaSourceOptions(options));
  }

  /**
   * New files appearing under a location, as a stream: a local directory, a URL such as
   * `s3://bucket/prefix` (resolved by the session's `objectStores`), or an ObjectStore whose root
   * holds the files. With format('kafka'), the records of the topics the options name (no location).
   */
  load(location?: string | ObjectStore): DataFrame {
    const format = this.formatName;
    if (format === 'kafka') {
      return this.kafka(typeof location === 'object' ? location.location : location);
    }
    if (isStateFormat(format)) {
      throw new InvalidOptionError(
        `format('${format}') reads a checkpoint's state as a table, not a stream: use session.read, not session.readStream.`,
      );
    }
    return this.fileStream(format, this.fileListing(location));
  }

  private fileStream(format: FileFormat, files: FileListing): DataFrame {
    const schema = format === 'text' ? TEXT_SCHEMA : this.userSchema;
    if (!schema) {
      throw new InvalidOptionError(
        `A file stream over ${files.location} needs a schema: call readStream.schema(...) before load(), so the query's shape cannot change as files arrive.`,
      );
    }
    checkFileOptionNames(this.options, format, 'readStream');
    const selection = fileSelection(this.options);
    const read = { ...fileReadOptions(this.options, schema), schema };
    const settings = fileStreamSettings(this.options);
    return this.relation(
      `FileSource[${files.location}]`,
      schema,
      (context) =>
        new FileStreamSource({ files, format, read, ...selection, ...settings }, context),
    );
  }

  /** Where a file stream's files are: a store, a URL the session resolves, or a local directory. */
  private fileListing(location: string | ObjectStore | undefined): FileListing {
    const path = typeof location === 'object' ? undefined : this.fileLocation(location);
    const store =
      path === undefined
        ? (location as ObjectStore)
        : (this.session.objectStore(path) ?? new LocalDirectoryStore(path));
    return new SinkOutputListing(storeListing(store), store);
  }

  private kafka(location: string | undefined): DataFrame {
    const options = this.kafkaSourceOptions(location, 'stream');
    return this.relation(
      `KafkaSource[${describeSubscription(options.subscription)}]`,
      kafkaSchema(options.includeHeaders),
      (context) => new KafkaSource(options, context),
      ['key'],
    );
  }

  /**
   * A Delta table as a stream: its current files first (or from `startingVersion`), then the files
   * each new version adds. The table is a local directory, a URL such as `s3://bucket/prefix`, or
   * an ObjectStore whose root is the table root; its schema is fixed now, from its log.
   */
  async delta(table: string | ObjectStore, options: DeltaSourceOptions = {}): Promise<DataFrame> {
    const log = DeltaLog.at(deltaTableLocation(this.session, table));
    const description = `DeltaSource[${log.table}]`;
    checkDeltaSourceOptions(options, description);
    const defined = await log.snapshot();
    if (!defined) {
      throw new AnalysisError(
        `${log.table} is not a Delta table: it has no _delta_log/ commits. Check the path, or write the table first.`,
      );
    }
    return this.relation(
      description,
      defined.schema,
      (context) => new DeltaStreamSource(log, defined, options, context),
    );
  }

  /** The rows added to a MemoryStream, as a stream. */
  memory(stream: MemoryStream): DataFrame {
    return this.relation(stream.description, stream.schema, () => stream);
  }

  private relation(
    description: string,
    schema: StructType,
    source: StreamingRelation['source'],
    partitionedBy?: readonly string[],
  ): DataFrame {
    return new DataFrame(this.session, {
      kind: 'streamingRelation',
      id: newPlanId(),
      description,
      schema,
      source,
      isStreaming: true,
      ...(partitionedBy ? { partitionedBy } : {}),
    });
  }
}
