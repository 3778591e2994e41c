/**
 * DataFrameWriter (`df.write`): writes a batch DataFrame as a directory of data files
 * (`part-00000-<id>.<ext>` plus an empty `_SUCCESS` marker, as Spark lays them out) on the local
 * filesystem or in an object store (output-directory.ts), or, with
 * format('delta'), as one version of a Delta table (delta-table-writer.ts), where the save mode
 * applies to the table rather than to the directory.
 */
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { writeDeltaTable } from '../delta/delta-table-writer.js';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { executeBatch } from '../exec/batch-execution.js';
import {
  dataFileExtension,
  type DataFileEncoding,
  encodeDataFile,
} from '../io/data-file-encoding.js';
import { fileFormat, type FileFormat } from '../io/data-files.js';
import type { DataFrame } from './dataframe.js';
import { checkNotReadFrom, normalizedLocation } from './data-locations.js';
import { deltaTableLocation, deltaWriteOptions } from './delta-options.js';
import { checkDeltaWriterOptionNames } from './delta-writer-option-names.js';
import {
  localOutputDirectory,
  type OutputDirectory,
  storeOutputDirectory,
} from './output-directory.js';
import { checkFileWriterOptionNames, fileWriterEncoding } from './file-writer-options.js';
import type { OptionValue } from './reader-options.js';

/** What to do when the target directory exists. */
export type SaveMode = 'errorifexists' | 'overwrite' | 'append' | 'ignore';

/** Writes a batch DataFrame to files. */
export class DataFrameWriter {
  private saveMode: SaveMode = 'errorifexists';
  private formatName: FileFormat | 'delta' = 'parquet';
  private readonly options = new Map<string, OptionValue>();

  constructor(private readonly df: DataFrame) {}

  /** errorifexists (default), overwrite, append or ignore. */
  mode(mode: SaveMode): this {
    if (!['errorifexists', 'overwrite', 'append', 'ignore'].includes(mode)) {
      throw new InvalidOptionError(
        `Unknown save mode '${mode}'; use errorifexists, overwrite, append or ignore.`,
      );
    }
    this.saveMode = mode;
    return this;
  }

  /** json (JSON lines), csv, parquet (default), text or delta. */
  format(name: string): this {
    this.formatName = name.toLowerCase() === 'delta' ? 'delta' : fileFormat(name);
    return this;
  }

  /**
   * A writer option (every file format: compression, none or gzip, or for parquet a codec; csv:
   * header, delimiter or sep, quote, escape, nullValue; delta: partitionBy, compression,
   * targetFileSize, maxCommitAttempts and `delta.*` table properties). The call that starts the
   * write refuses any other, naming it, before anything is written or deleted.
   */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** The columns a Delta table is partitioned by (the same as option('partitionBy', 'a,b')). */
  partitionBy(...columns: string[]): this {
    return this.option('partitionBy', columns.join(','));
  }

  /**
   * Runs the query and writes its rows under `directory`: a local directory, a URL such as
   * `s3://bucket/prefix` (resolved by the session's `objectStores`) or an ObjectStore; with
   * format('delta'), to the Delta table there. mode('overwrite') of files the query itself reads is
   * refused before anything is deleted.
   */
  async save(directory: string | ObjectStore): Promise<void> {
    const format = this.formatName;
    if (format === 'delta') return this.saveDelta(directory);
    const encoding = this.encoding(format);
    if (this.saveMode === 'overwrite') {
      checkNotReadFrom(this.df.plan, normalizedLocation(directory), 'overwrite');
    }
    const output = this.outputDirectory(directory);
    if (await output.exists()) {
      if (this.saveMode === 'ignore') return;
      if (this.saveMode === 'errorifexists') {
        throw new AnalysisError(
          `Path ${output.location} already exists; use mode('overwrite') or mode('append').`,
        );
      }
      if (this.saveMode === 'overwrite') await output.clear();
    }
    const rows = await executeBatch(this.df.plan);
    await output.write(
      `part-00000-${randomUUID()}.${dataFileExtension(encoding)}`,
      encodeDataFile(rows, this.df.schema, encoding),
    );
    await output.write('_SUCCESS', new Uint8Array());
  }

  /**
   * The encoding the options give, checked before anything is written or deleted: every option
   * must be one the writer implements, and the format must hold the schema with those options.
   */
  private encoding(format: FileFormat): DataFileEncoding {
    if (this.options.has('partitionby')) {
      throw new InvalidOptionError(
        `The ${format} writer does not partition its output (partitionBy); drop it, or write with format('delta').`,
      );
    }
    checkFileWriterOptionNames(this.options, format, 'write');
    const encoding = fileWriterEncoding(format, this.options);
    encodeDataFile([], this.df.schema, encoding);
    return encoding;
  }

  private outputDirectory(directory: string | ObjectStore): OutputDirectory {
    if (typeof directory !== 'string') return storeOutputDirectory(directory);
    const store = this.df.session.objectStore(directory);
    return store ? storeOutputDirectory(store) : localOutputDirectory(directory);
  }

  /** Writes the Delta table at `table` (see {@link save}). */
  delta(table: string | ObjectStore): Promise<void> {
    return this.format('delta').save(table);
  }

  private async saveDelta(table: string | ObjectStore): Promise<void> {
    checkDeltaWriterOptionNames(this.options, 'write');
    const location = deltaTableLocation(this.df.session, table);
    const options = deltaWriteOptions(this.options);
    const rows = await executeBatch(this.df.plan);
    await writeDeltaTable(location, rows, this.df.schema, { ...options, mode: this.saveMode });
  }

  /** Writes JSON lines. */
  json(directory: string | ObjectStore): Promise<void> {
    return this.format('json').save(directory);
  }

  /** Writes CSV. */
  csv(directory: string | ObjectStore): Promise<void> {
    return this.format('csv').save(directory);
  }

  /** Writes Parquet. */
  parquet(directory: string | ObjectStore): Promise<void> {
    return this.format('parquet').save(directory);
  }

  /** Writes text: the DataFrame must have exactly one string column; one line per row. */
  text(directory: string | ObjectStore): Promise<void> {
    return this.format('text').save(directory);
  }
}
