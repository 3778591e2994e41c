/**
 * Sink benchmark (`npm run bench:sinks`): one million rows through the Delta sink into a table in a
 * local directory, against DuckDB writing the same rows to Parquet, for two shapes (sink-rows.ts):
 * the canonical query's output (window start and end, category, count) and a wide 20-column table.
 *
 * What is timed is "rows in process memory -> Parquet files on disk", the rows cut into 10
 * micro-batches of 100,000:
 * - Delta: DeltaSink.addBatch per batch (append mode, SNAPPY, default target file size): the data
 *   files with their statistics, and the batch's commit to the table's log.
 * - DuckDB on one thread: per batch, the same engine rows appended to a new in-memory table through
 *   DuckDB's appender (duckdb-appender-feed.ts), then COPY to one Parquet file (SNAPPY).
 * - DuckDB COPY alone: the same COPYs from tables loaded beforehand. That is DuckDB's C++ Parquet
 *   writer without the feed from JavaScript, a bound shown for scale, not the comparison.
 * The warm-up run of each is verified: DuckDB reads the Delta table's data files and its own, and the
 * row count and an order-independent hash of all rows must agree, else the benchmark exits with 1.
 *
 * For the closing note, one batch of each shape is also written to a single Parquet file by Sluice's
 * writer per codec (UNCOMPRESSED, SNAPPY, GZIP, and ZSTD where Node.js has it: 22.15 or later), by
 * stock hyparquet-writer (stock-hyparquet-writer.ts, how Sluice wrote Parquet before), and by DuckDB's
 * COPY per codec from a loaded table: rows/s and file sizes.
 *
 * Every measurement runs once to warm up, then three times, the contenders of a shape interleaved so
 * that drift on a shared machine hits all alike; rows/s and ratios come from each one's median run.
 * The last line of output is one JSON object: {"delta_rows_per_s", "duckdb_rows_per_s",
 * "duckdb_vs_delta", "wide_duckdb_vs_delta", "files_per_batch"}, the first three of the canonical
 * shape, a ratio being DuckDB's rows/s over Delta's (target: duckdb_vs_delta <= 3).
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { col, DeltaSink, SluiceSession, window } from '../core/index.js';
import { type ParquetCompression, writeCodec, writeParquet } from '../core/io/parquet.js';
import type { StructType } from '../core/types/data-types.js';
import type { Row } from '../core/types/row.js';
import { parseSchema } from '../core/types/type-names.js';
import { CLICK_EVENT_SCHEMA } from './clickstream-events.js';
import { appendRows, duckDbColumnList } from './duckdb-appender-feed.js';
import { canonicalOutputRows, WIDE_SCHEMA, wideRows } from './sink-rows.js';
import { writeWithStockHyparquet } from './stock-hyparquet-writer.js';

const ROWS = 1_000_000;
const BATCH_ROWS = 100_000;
const BATCHES = ROWS / BATCH_ROWS;
const TIMED_RUNS = 3;
const CODECS: readonly ParquetCompression[] = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD'];

/** One way of writing rows to Parquet files under a directory. */
interface Contender {
  readonly label: string;
  /** Writes the shape's rows under `directory` (new and empty); returns the data files written. */
  readonly run: (directory: string) => Promise<string[]>;
  readonly seconds: number[];
  /** The bytes of the data files one run writes (measured in the warm-up run). */
  bytes: number;
}

/** A shape's rows and schema. */
interface Shape {
  readonly name: string;
  readonly schema: StructType;
  readonly rows: readonly Row[];
}

/** What one shape's measurements found. */
interface ShapeFigures {
  readonly deltaRowsPerSecond: number;
  readonly duckDbRowsPerSecond: number;
  readonly filesPerBatch: number;
}

/** The output schema of the canonical query, as the engine gives it to a sink. */
function canonicalOutputSchema(): StructType {
  return new SluiceSession()
    .createDataFrame([], CLICK_EVENT_SCHEMA)
    .withWatermark('ts', '15 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .count().schema;
}

/** The rows of batch `batchId`. */
function batch(rows: readonly Row[], batchId: number): readonly Row[] {
  return rows.slice(batchId * BATCH_ROWS, (batchId + 1) * BATCH_ROWS);
}

function deltaContender(shape: Shape): Contender {
  return {
    label: 'Delta sink (10 commits)',
    seconds: [],
    bytes: 0,
    run: async (directory) => {
      const sink = new DeltaSink(directory, { appId: 'bench-sinks' });
      for (let b = 0; b < BATCHES; b++) {
        await sink.addBatch(b, batch(shape.rows, b), shape.schema, 'append');
      }
      return dataFiles(directory);
    },
  };
}

function duckDbContender(shape: Shape, connection: DuckDBConnection): Contender {
  return {
    label: 'DuckDB appender + COPY',
    seconds: [],
    bytes: 0,
    run: async (directory) => {
      const files: string[] = [];
      for (let b = 0; b < BATCHES; b++) {
        await connection.run(`CREATE OR REPLACE TABLE feed (${duckDbColumnList(shape.schema)})`);
        await appendRows(connection, 'feed', batch(shape.rows, b), shape.schema);
        files.push(path.join(directory, `part-${b}.parquet`));
        await connection.run(`COPY feed TO '${files[b]}' (FORMAT parquet, COMPRESSION snappy)`);
      }
      await connection.run('DROP TABLE feed');
      return files;
    },
  };
}

/** DuckDB's COPY alone, from one table per batch loaded before the runs. */
async function duckDbCopyContender(shape: Shape, connection: DuckDBConnection): Promise<Contender> {
  for (let b = 0; b < BATCHES; b++) {
    await connection.run(`CREATE OR REPLACE TABLE loaded_${b} (${duckDbColumnList(shape.schema)})`);
    await appendRows(connection, `loaded_${b}`, batch(shape.rows, b), shape.schema);
  }
  return {
    label: 'DuckDB COPY alone (rows in DuckDB)',
    seconds: [],
    bytes: 0,
    run: async (directory) => {
      const files: string[] = [];
      for (let b = 0; b < BATCHES; b++) {
        files.push(path.join(directory, `part-${b}.parquet`));
        await connection.run(
          `COPY loaded_${b} TO '${files[b]}' (FORMAT parquet, COMPRESSION snappy)`,
        );
      }
      return files;
    },
  };
}

/** The Parquet data files under a directory, outside the Delta log. */
async function dataFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true });
  return entries
    .filter((e) => e.endsWith('.parquet') && !e.startsWith('_delta_log'))
    .map((e) => path.join(directory, e));
}

/** Row count and an order-independent hash of every row of the files, read by DuckDB. */
async function fingerprint(
  connection: DuckDBConnection,
  files: readonly string[],
): Promise<string> {
  const list = files.map((f) => `'${f}'`).join(', ');
  const reader = await connection.runAndReadAll(
    `SELECT count(*) AS n, sum(hash(t)::HUGEINT) AS h FROM read_parquet([${list}]) t`,
  );
  const [[n, h]] = reader.getRows();
  return `${String(n)} rows, hash ${String(h)}`;
}

/**
 * Runs every contender once to warm up (verifying that all wrote the same rows), then TIMED_RUNS
 * times, interleaved. Returns the data files per batch of the first contender's warm-up.
 */
async function measure(
  contenders: readonly Contender[],
  workDirectory: string,
  connection: DuckDBConnection,
): Promise<number> {
  let filesPerBatch = 0;
  for (let round = 0; round <= TIMED_RUNS; round++) {
    const prints: string[] = [];
    for (const [i, c] of contenders.entries()) {
      const directory = await mkdtemp(path.join(workDirectory, 'run-'));
      const started = performance.now();
      const files = await c.run(directory);
      const elapsed = (performance.now() - started) / 1000;
      if (round > 0) c.seconds.push(elapsed);
      else {
        prints.push(`${c.label}: ${await fingerprint(connection, files)}`);
        c.bytes = (await Promise.all(files.map((f) => stat(f)))).reduce((n, s) => n + s.size, 0);
        if (i === 0) filesPerBatch = files.length / BATCHES;
      }
      await rm(directory, { recursive: true, force: true });
    }
    if (round === 0 && new Set(prints.map((p) => p.split(': ')[1])).size !== 1) {
      throw new Error(`The contenders wrote different rows:\n  ${prints.join('\n  ')}`);
    }
  }
  return filesPerBatch;
}

async function measureShape(
  shape: Shape,
  connection: DuckDBConnection,
  workDirectory: string,
): Promise<ShapeFigures> {
  const contenders = [
    deltaContender(shape),
    duckDbContender(shape, connection),
    await duckDbCopyContender(shape, connection),
  ];
  const filesPerBatch = await measure(contenders, workDirectory, connection);
  for (let b = 0; b < BATCHES; b++) await connection.run(`DROP TABLE loaded_${b}`);
  const rowsPerSecond = contenders.map((c) => ROWS / median(c.seconds));
  console.log(
    `\n${shape.name}: ${ROWS.toLocaleString('en-US')} rows in ${BATCHES} batches, ${shape.schema.fields.length} columns; same rows verified; median of ${TIMED_RUNS}`,
  );
  printTable(
    ['rows/s', 'MB/s', 'median s', 'best s', 'vs Delta'],
    contenders.map((c, i) => [
      c.label,
      formatCount(rowsPerSecond[i]),
      (c.bytes / median(c.seconds) / 1e6).toFixed(1),
      median(c.seconds).toFixed(2),
      Math.min(...c.seconds).toFixed(2),
      `${(rowsPerSecond[i] / rowsPerSecond[0]).toFixed(2)}x`,
    ]),
  );
  console.log(`Delta data files per batch: ${filesPerBatch}`);
  return {
    deltaRowsPerSecond: rowsPerSecond[0],
    duckDbRowsPerSecond: rowsPerSecond[1],
    filesPerBatch,
  };
}

/** A way of writing one batch to one Parquet file; returns the file's size in bytes. */
interface FileWriter {
  readonly label: string;
  readonly write: () => Promise<number>;
  readonly seconds: number[];
  bytes: number;
}

/**
 * One batch to one file per codec: Sluice's writer, stock hyparquet-writer, DuckDB's COPY from a
 * loaded table; a warm-up, then TIMED_RUNS rounds with the writers interleaved.
 */
async function measureCodecs(shape: Shape, connection: DuckDBConnection): Promise<void> {
  const rows = batch(shape.rows, 0);
  const directory = await mkdtemp(path.join(os.tmpdir(), 'sluice-bench-codecs-'));
  await connection.run(`CREATE OR REPLACE TABLE codec_rows (${duckDbColumnList(shape.schema)})`);
  await appendRows(connection, 'codec_rows', rows, shape.schema);
  const available = CODECS.filter(codecAvailable);
  const writer = (label: string, write: () => Promise<number>): FileWriter => ({
    label,
    write,
    seconds: [],
    bytes: 0,
  });
  const writers = [
    ...available.map((codec) =>
      writer(
        `Sluice writeParquet ${codec}`,
        async () => writeParquet(rows, shape.schema, { compression: codec }).byteLength,
      ),
    ),
    writer(
      'stock hyparquet-writer SNAPPY',
      async () => writeWithStockHyparquet(rows, shape.schema).byteLength,
    ),
    ...CODECS.map((codec) =>
      writer(`DuckDB COPY ${codec} (rows in DuckDB)`, async () => {
        const file = path.join(directory, `${codec}.parquet`);
        await connection.run(`COPY codec_rows TO '${file}' (FORMAT parquet, COMPRESSION ${codec})`);
        return (await stat(file)).size;
      }),
    ),
  ];
  for (let round = 0; round <= TIMED_RUNS; round++) {
    for (const w of writers) {
      const started = performance.now();
      w.bytes = await w.write();
      if (round > 0) w.seconds.push((performance.now() - started) / 1000);
    }
  }
  await connection.run('DROP TABLE codec_rows');
  await rm(directory, { recursive: true, force: true });
  console.log(`\n${shape.name}: one batch (${formatCount(rows.length)} rows) to one Parquet file`);
  const lines = writers.map((w) => [
    w.label,
    formatCount(rows.length / median(w.seconds)),
    formatCount(w.bytes),
  ]);
  // Codecs this Node.js lacks, in their place after the ones it has.
  const missing = CODECS.filter((codec) => !available.includes(codec));
  lines.splice(
    available.length,
    0,
    ...missing.map((codec) => [`Sluice writeParquet ${codec}`, 'n/a', 'n/a']),
  );
  printTable(['rows/s', 'bytes'], lines);
  if (missing.length > 0) {
    console.log(`${missing.join(', ')}: needs Node.js 22.15 or later; this is ${process.version}.`);
  }
}

/** Whether this process can write `codec` (ZSTD needs Node.js 22.15, writeCodec checks it). */
function codecAvailable(codec: ParquetCompression): boolean {
  try {
    writeCodec(codec);
    return true;
  } catch {
    return false;
  }
}

function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  console.log(''.padEnd(44) + header.map((h) => h.padStart(14)).join(''));
  for (const [label, ...cells] of rows) {
    console.log(label.padEnd(44) + cells.map((c) => c.padStart(14)).join(''));
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

async function main(): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run('SET threads=1');
  const workDirectory = await mkdtemp(path.join(os.tmpdir(), 'sluice-bench-sinks-'));
  console.log(
    'Timed: rows in process memory -> Parquet files on disk. DuckDB (threads=1) takes the same rows ' +
      "through its appender in data chunks, then COPY; 'COPY alone' starts from rows already in DuckDB.",
  );
  try {
    const canonical: Shape = {
      name: 'Canonical output (window, category, count)',
      schema: canonicalOutputSchema(),
      rows: canonicalOutputRows(ROWS),
    };
    const canonicalFigures = await measureShape(canonical, connection, workDirectory);
    await measureCodecs(canonical, connection);
    const wide: Shape = {
      name: 'Wide table (20 mixed columns)',
      schema: parseSchema(WIDE_SCHEMA),
      rows: wideRows(ROWS),
    };
    const wideFigures = await measureShape(wide, connection, workDirectory);
    await measureCodecs(wide, connection);

    const figures = {
      delta_rows_per_s: Math.round(canonicalFigures.deltaRowsPerSecond),
      duckdb_rows_per_s: Math.round(canonicalFigures.duckDbRowsPerSecond),
      duckdb_vs_delta: round2(
        canonicalFigures.duckDbRowsPerSecond / canonicalFigures.deltaRowsPerSecond,
      ),
      wide_duckdb_vs_delta: round2(
        wideFigures.duckDbRowsPerSecond / wideFigures.deltaRowsPerSecond,
      ),
      files_per_batch: canonicalFigures.filesPerBatch,
    };
    console.log(
      `\nDuckDB/Delta: canonical ${figures.duckdb_vs_delta}, wide ${figures.wide_duckdb_vs_delta} (target: canonical <= 3)`,
    );
    console.log(JSON.stringify(figures));
    return 0;
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(workDirectory, { recursive: true, force: true });
  }
}

process.exitCode = await main();
