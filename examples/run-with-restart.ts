/**
 * Runs an example query the way Sluice runs it on Lambda, locally: input files arrive in rounds, and
 * each round starts one invocation (an `availableNow` run) that processes what arrived and appends to
 * a Delta table. In one round the process dies after its sink wrote but before the batch committed;
 * the next invocation resumes from the checkpoint and re-runs that batch with the same offsets, and
 * the Delta sink's transaction record makes the re-run append nothing twice. At the end the table is
 * compared with the batch query over all input: the same DataFrame code run on a static table.
 *
 * The examples' generators end every input with a heartbeat event far in the future, so that the
 * watermark closes every window and session; the batch query's rows for the heartbeat itself are left
 * out of the comparison, since the stream still holds them open.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type DataFrame,
  type OutputMode,
  progressLine,
  type RowObject,
  SluiceSession,
} from '../core/index.js';
import { rowText } from '../core/testing/index.js';

/** A named input: JSON lines per round, one file per round (an empty round writes no file). */
export interface ExampleInput {
  readonly name: string;
  readonly rounds: readonly (readonly string[])[];
}

/** An example: its inputs, its query, and which of the batch query's rows the stream must have. */
export interface ExampleSpec {
  readonly title: string;
  readonly inputs: readonly ExampleInput[];
  readonly outputMode: OutputMode;
  /** The query over the inputs, each a DataFrame of `value STRING` lines (a stream or a table). */
  readonly query: (
    inputs: Readonly<Record<string, DataFrame>>,
    session: SluiceSession,
  ) => DataFrame;
  /** The batch query's rows the stream is expected to have written. @default all of them */
  readonly expected?: (row: RowObject) => boolean;
  /** The round whose invocation dies after its sink, before its commit. @default the middle one */
  readonly crashInRound?: number;
}

/** What a run did, and whether the Delta table equals the batch query. */
export interface ExampleResult {
  readonly invocations: number;
  readonly batches: number;
  readonly crashedBatch: number | undefined;
  /** The rows in the Delta table, as canonical text, sorted. */
  readonly streamed: readonly string[];
  /** The batch query's expected rows, as canonical text, sorted. */
  readonly batch: readonly string[];
  readonly exact: boolean;
}

/** Runs `spec` under `workDir` (emptied first) and prints what happens through `log`. */
export async function runWithRestart(
  spec: ExampleSpec,
  workDir: string,
  log: (line: string) => void = console.log,
): Promise<ExampleResult> {
  rmSync(workDir, { recursive: true, force: true });
  const dirs = Object.fromEntries(spec.inputs.map((i) => [i.name, path.join(workDir, i.name)]));
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const table = path.join(workDir, 'table');
  const checkpoint = path.join(workDir, 'checkpoint');
  const rounds = Math.max(...spec.inputs.map((i) => i.rounds.length));
  const crashInRound = spec.crashInRound ?? Math.floor(rounds / 2);
  log(`=== ${spec.title}`);
  let batches = 0;
  let crashedBatch: number | undefined;
  for (let round = 0; round < rounds; round++) {
    for (const input of spec.inputs) writeRound(dirs[input.name], input.rounds[round] ?? [], round);
    const crash = round === crashInRound;
    log(`-- invocation ${round + 1}${crash ? ': dies after its sink, before its commit' : ''}`);
    const session = new SluiceSession();
    const streams = mapValues(dirs, (dir) => session.readStream.text(dir));
    const query = await spec
      .query(streams, session)
      .writeStream.outputMode(spec.outputMode)
      .format('delta')
      .option('checkpointLocation', checkpoint)
      .trigger({ availableNow: true })
      .onProgress((p) => {
        batches++;
        log(`   ${progressLine(p)}`);
      })
      .afterStep((step, batchId) => {
        if (!crash || step !== 'sink' || crashedBatch !== undefined) return;
        crashedBatch = batchId;
        throw new SimulatedCrash(batchId);
      })
      .start(table);
    await query.awaitTermination().catch((e: unknown) => {
      if (!(e instanceof SimulatedCrash)) throw e;
      log(`   !! ${e.message}`);
    });
  }
  const result = await compare(spec, dirs, table);
  const summary = { invocations: rounds, batches, crashedBatch, ...result };
  report(summary, log);
  return summary;
}

/** The crash the example injects: thrown after a batch's sink step, so the batch never commits. */
class SimulatedCrash extends Error {
  constructor(batchId: number) {
    super(`simulated crash after the sink of batch ${batchId}, before its commit`);
  }
}

function writeRound(dir: string, lines: readonly string[], round: number): void {
  if (lines.length === 0) return;
  const file = path.join(dir, `round-${String(round).padStart(3, '0')}.json`);
  writeFileSync(file, lines.join('\n') + '\n');
}

async function compare(
  spec: ExampleSpec,
  dirs: Record<string, string>,
  table: string,
): Promise<Pick<ExampleResult, 'streamed' | 'batch' | 'exact'>> {
  const session = new SluiceSession();
  const written = await session.read.delta(table);
  const query = spec.query(
    mapValues(dirs, (dir) => session.read.text(dir)),
    session,
  );
  const expected = (await query.collect()).filter(spec.expected ?? (() => true));
  const streamed = canonical(await written.collect(), written);
  const batch = canonical(expected, query);
  const exact = streamed.length === batch.length && streamed.every((r, i) => r === batch[i]);
  return { streamed, batch, exact };
}

function canonical(rows: readonly RowObject[], df: DataFrame): string[] {
  return rows.map((row) => rowText(row, df.schema)).sort();
}

function report(result: ExampleResult, log: (line: string) => void): void {
  log('=== result');
  log(`   ${result.invocations} invocations ran ${result.batches} committed batches`);
  log(`   rows in the Delta table: ${result.streamed.length}`);
  log(`   rows of the batch query over all input: ${result.batch.length}`);
  log(
    result.exact
      ? '   => the stream wrote exactly the batch query: nothing lost, nothing twice'
      : '   => MISMATCH between the stream and the batch query',
  );
}

function mapValues<T>(record: Record<string, string>, fn: (value: string) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}

/**
 * Runs the example under `.sluice/<name>` when `moduleUrl` is the script node was started with
 * (`npm run example:<name>`), and sets a failing exit code when the stream and the batch disagree.
 */
export async function runWhenMain(moduleUrl: string, name: string, spec: () => ExampleSpec) {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const result = await runWithRestart(spec(), path.join('.sluice', name));
  if (!result.exact) process.exitCode = 1;
}
