/**
 * DataFrameWriter (`df.write`): writes a batch DataFrame as a directory of data files
 * (`part-00000-<id>.<ext>` plus an empty `_SUCCESS` marker, as Spark lays them out).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { executeBatch } from '../exec/batch-execution.js';
import { formatCsv } from '../io/csv.js';
import { fileFormat, type FileFormat } from '../io/data-files.js';
import { formatJsonLines } from '../io/json-lines.js';
import { writeParquet } from '../io/parquet.js';
import { type StructType, typeName } from '../types/data-types.js';
import type { DataFrame } from './dataframe.js';
import { booleanOption, type OptionValue } from './reader-options.js';

/** What to do when the target directory exists. */
export type SaveMode = 'errorifexists' | 'overwrite' | 'append' | 'ignore';

/** Writes a batch DataFrame to files. */
export class DataFrameWriter {
  private saveMode: SaveMode = 'errorifexists';
  private formatName: FileFormat = 'parquet';
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

  /** json (JSON lines), csv, parquet (default) or text. */
  format(name: string): this {
    this.formatName = fileFormat(name);
    return this;
  }

  /** A writer option (csv: header, delimiter; parquet: compression). */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** Runs the query and writes its rows under `directory`. */
  async save(directory: string): Promise<void> {
    if (existsSync(directory)) {
      if (this.saveMode === 'ignore') return;
      if (this.saveMode === 'errorifexists') {
        throw new AnalysisError(
          `Path ${directory} already exists; use mode('overwrite') or mode('append').`,
        );
      }
      if (this.saveMode === 'overwrite') await fs.rm(directory, { recursive: true, force: true });
    }
    const rows = await executeBatch(this.df.plan);
    await fs.mkdir(directory, { recursive: true });
    const extension = this.formatName === 'text' ? 'txt' : this.formatName;
    const file = path.join(directory, `part-00000-${randomUUID()}.${extension}`);
    await fs.writeFile(file, this.encode(rows));
    await fs.writeFile(path.join(directory, '_SUCCESS'), '');
  }

  /** Writes JSON lines. */
  json(directory: string): Promise<void> {
    return this.format('json').save(directory);
  }

  /** Writes CSV. */
  csv(directory: string): Promise<void> {
    return this.format('csv').save(directory);
  }

  /** Writes Parquet. */
  parquet(directory: string): Promise<void> {
    return this.format('parquet').save(directory);
  }

  /** Writes text: the DataFrame must have exactly one string column; one line per row. */
  text(directory: string): Promise<void> {
    return this.format('text').save(directory);
  }

  private encode(rows: unknown[][]): Uint8Array | string {
    const schema = this.df.schema;
    switch (this.formatName) {
      case 'json':
        return formatJsonLines(rows, schema);
      case 'csv':
        return formatCsv(rows, schema, {
          header: booleanOption('header', this.options.get('header')),
          delimiter: this.options.get('delimiter')?.toString(),
        });
      case 'parquet': {
        const compression = this.options.get('compression')?.toString().toUpperCase();
        return writeParquet(
          rows,
          schema,
          compression ? { compression: compression as 'SNAPPY' } : {},
        );
      }
      case 'text':
        return textLines(rows, schema);
    }
  }
}

function textLines(rows: unknown[][], schema: StructType): string {
  if (schema.fields.length !== 1 || schema.fields[0].dataType.kind !== 'string') {
    throw new AnalysisError(
      `The text format writes a single string column; this DataFrame has [${schema.fields.map((f) => `${f.name}: ${typeName(f.dataType)}`).join(', ')}]. Select or to_json one column first.`,
    );
  }
  return rows.map((r) => `${(r[0] as string | null) ?? ''}\n`).join('');
}
