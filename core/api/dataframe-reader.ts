/**
 * DataFrameReader (`session.read`): bounded tables from files and Delta tables. The schema is fixed
 * when the DataFrame is created (given, or inferred from the files or the Delta log then); the data is
 * read again each time the DataFrame runs, so a static side of a stream-static join sees the current
 * content per batch.
 */
import { DeltaLog, type DeltaTableLocation } from '../delta/delta-log.js';
import type { DeltaSnapshot } from '../delta/delta-snapshot.js';
import { readSnapshotRows } from '../delta/delta-table-reader.js';
import { AnalysisError } from '../errors.js';
import { inferSchema, listDataFiles, readDataFile } from '../io/data-files.js';
import { kafkaBatchScan } from '../kafka/kafka-batch-scan.js';
import { kafkaSchema } from '../kafka/kafka-schema.js';
import { describeSubscription } from '../kafka/kafka-subscription.js';
import { newPlanId } from '../plan/logical-plan.js';
import { DataFrame } from './dataframe.js';
import { FileReaderBuilder } from './file-reader-builder.js';
import { fileReadOptions } from './reader-options.js';
import type { SluiceSession } from './session.js';

/** Reads bounded DataFrames from files and Delta tables. */
export class DataFrameReader extends FileReaderBuilder {
  constructor(private readonly session: SluiceSession) {
    super();
  }

  /**
   * Reads a file, or every data file under a directory; with format('kafka'), the records of
   * [startingOffsets, endingOffsets) of the topics the options name (no path).
   */
  load(location?: string): DataFrame {
    const format = this.formatName;
    if (format === 'kafka') return this.kafka(location);
    const path = this.fileLocation(location);
    const options = fileReadOptions(this.options, this.userSchema);
    const schema = inferSchema(listDataFiles(path), format, options);
    const scan = async () => {
      const files = listDataFiles(path);
      const contents = await Promise.all(
        files.map((f) => readDataFile(f, format, { ...options, schema })),
      );
      return contents.flatMap((c) => c.rows);
    };
    return new DataFrame(this.session, {
      kind: 'relation',
      id: newPlanId(),
      description: `${format}[${path}]`,
      scan,
      schema,
      isStreaming: false,
    });
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
   * Reads the current snapshot of a Delta table: a local directory, or an ObjectStore whose root is
   * the table root (an S3ObjectStore for a table on S3). Asynchronous, unlike the file formats: the
   * schema comes from the table's log, which may live on S3. Each run of the DataFrame reads the
   * table's latest version; it fails if the table's schema has changed since.
   */
  async delta(table: DeltaTableLocation): Promise<DataFrame> {
    const log = DeltaLog.at(table);
    const first = await log.snapshot();
    if (!first) {
      throw new AnalysisError(
        `${log.table} is not a Delta table: it has no _delta_log/ commits. Check the path, or write the table first.`,
      );
    }
    const schema = first.schema;
    let snapshot: DeltaSnapshot = first;
    const scan = async () => {
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
      description: `delta[${log.table}]`,
      scan,
      schema,
      isStreaming: false,
    });
  }
}
