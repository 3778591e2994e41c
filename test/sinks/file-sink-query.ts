/**
 * The query of the file sink tests — the canonical windowed click count, its window flattened into
 * `start` and `end` columns so that every file format (CSV too) holds it — and helpers that stream it
 * into a file sink, read the output back, and compute what the batch query gives for comparison.
 */
import {
  type BatchStep,
  col,
  type CreateResult,
  type DataFrame,
  FileSinkLog,
  type MemoryStream,
  type ObjectStore,
  type OptionValue,
  type RowObject,
  type Sink,
  SluiceSession,
  type StreamingQuery,
  type StructType,
} from '../../core/index.js';
import { type FileFormat, parseDataFile } from '../../core/io/data-files.js';
import { toRowObject } from '../../core/types/row.js';
import { dateEpochMicros } from '../../core/types/timestamp.js';
import { expect } from 'vitest';
import { clickStream, FLUSH, windowCounts } from '../delta/window-counts.js';
import { clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

export { clickBatches, clickStream, FLUSH } from '../delta/window-counts.js';

/** The formats whose files hold the query's rows. */
export const FORMATS = ['json', 'csv', 'parquet'] as const;

/** The protocol steps, in order. */
export const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

/** The query over a DataFrame of clicks: window start, window end, category, count. */
export function flatCounts(clicks: DataFrame): DataFrame {
  const window = col('window');
  return windowCounts(clicks).select(
    window.getField('start').alias('start'),
    window.getField('end').alias('end'),
    'category',
    'n',
  );
}

/** The schema of the query's rows. */
export const FLAT_SCHEMA: StructType = flatCounts(
  new SluiceSession().createDataFrame([], clickSchema),
).schema;

/** Rows of the query as sorted comparable strings. */
export function canonical(rows: readonly RowObject[]): string[] {
  const micros = (t: unknown) => dateEpochMicros(t as Date);
  return rows.map((r) => JSON.stringify([micros(r.start), micros(r.end), r.category, r.n])).sort();
}

/** The batch query's result over `clicks`. */
export async function batchResult(clicks: readonly RowObject[]): Promise<string[]> {
  const session = new SluiceSession();
  return canonical(await flatCounts(session.createDataFrame(clicks, clickSchema)).collect());
}

/** How to run the query as a stream into a file sink. */
export interface FileStreamOptions {
  readonly events: MemoryStream;
  readonly checkpoint: string;
  /** The session to build the query in (one with `objectStores` for URLs). */
  readonly session?: SluiceSession;
  /** A sink object; without it, `writeStream.format(format).start(path)`. */
  readonly sink?: Sink;
  readonly format?: FileFormat;
  readonly path?: string;
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly outputMode?: 'append' | 'update' | 'complete';
  readonly afterStep?: (step: BatchStep, batchId: number) => void;
}

/** Starts the query over `events`, into the sink or the format's sink at `path`. */
export function startQuery(options: FileStreamOptions): Promise<StreamingQuery> {
  const session = options.session ?? new SluiceSession();
  const writer = flatCounts(session.readStream.memory(options.events))
    .writeStream.outputMode(options.outputMode ?? 'append')
    .option('checkpointLocation', options.checkpoint);
  for (const [key, value] of Object.entries(options.options ?? {})) writer.option(key, value);
  if (options.afterStep) writer.afterStep(options.afterStep);
  if (options.sink) return writer.sink(options.sink).start();
  return writer.format(options.format ?? 'parquet').start(options.path);
}

/** Feeds each chunk (then the flush click) to a running query, one batch after another. */
export async function feed(
  query: StreamingQuery,
  events: MemoryStream,
  chunks: readonly RowObject[][],
): Promise<void> {
  for (const chunk of chunks) {
    events.addData(chunk);
    await query.processAllAvailable();
  }
}

/** The output at local directory `path` through `session.read`, with the query's schema. */
export async function readDirectory(
  path: string,
  format: FileFormat,
  options: Readonly<Record<string, OptionValue>> = {},
): Promise<string[]> {
  const reader = new SluiceSession().read.schema(FLAT_SCHEMA).optionsFrom(options);
  return canonical(await reader.format(format).load(path).collect());
}

/** The output in `store` as a reader of the manifest log sees it: the listed files' rows. */
export async function readStore(store: ObjectStore, format: FileFormat): Promise<string[]> {
  const files = await new FileSinkLog(store).allFiles();
  const contents = await Promise.all(
    files.map(async (f) =>
      parseDataFile(f.path, format, (await store.get(f.path))!, { schema: FLAT_SCHEMA }),
    ),
  );
  return canonical(contents.flatMap((c) => c.rows.map((r) => toRowObject(r, FLAT_SCHEMA))));
}

/** The crash a test injects after a protocol step. */
export class Crash extends Error {}

/** What a query runner is given: its input, its checkpoint, and the crash hook. */
export interface RunSpec {
  readonly events: MemoryStream;
  readonly checkpoint: string;
  readonly afterStep?: (step: BatchStep, batchId: number) => void;
}

/** Where a crash hit and where the restarted query went on. */
export interface CrashOutcome {
  readonly crashed: number;
  readonly resumedAt: number;
}

/**
 * Streams `chunks` (then the flush click) through queries that `start` builds on one checkpoint: the
 * first crashes after `step` of the batch of the second chunk, a second query on the same checkpoint
 * takes over.
 */
export async function streamThroughCrash(
  step: BatchStep,
  chunks: readonly RowObject[][],
  start: (spec: RunSpec) => Promise<StreamingQuery>,
): Promise<CrashOutcome> {
  const events = clickStream();
  const checkpoint = tempDir('sluice-checkpoint-');
  let armed = false;
  let crashed = -1;
  const first = await start({
    events,
    checkpoint,
    afterStep: (s, batchId) => {
      if (armed && s === step) {
        armed = false;
        crashed = batchId;
        throw new Crash(`crash after ${s} of batch ${batchId}`);
      }
    },
  });
  await feed(first, events, [chunks[0]]);
  armed = true;
  events.addData(chunks[1]);
  await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);
  const second = await start({ events, checkpoint });
  await feed(second, events, [...chunks.slice(2), [FLUSH]]);
  await second.stop();
  return { crashed, resumedAt: second.recentProgress[0].batchId };
}

/**
 * A store whose first manifest write after a data file fails: a crash between a batch's data files
 * and its manifest, which leaves the files unlisted.
 */
export class CrashBeforeManifest implements ObjectStore {
  readonly location: string;
  private wroteData = false;
  private crashed = false;

  constructor(private readonly store: ObjectStore) {
    this.location = store.location;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.store.put(key, bytes);
    this.wroteData = true;
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
    if (this.wroteData && !this.crashed) {
      this.crashed = true;
      throw new Crash(`crash before creating ${key}`);
    }
    return this.store.putIfAbsent(key, bytes);
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return this.store.get(key);
  }

  list(prefix: string): Promise<string[]> {
    return this.store.list(prefix);
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }
}
