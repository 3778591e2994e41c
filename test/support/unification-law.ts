/**
 * What the unification-law property tests share: random input cut into micro-batches, a stream run
 * over them with its output collected batch by batch, and rows in one canonical order, so a
 * stream's result and a batch query's compare as multisets.
 */
import fc from 'fast-check';
import type { DataFrame, OutputMode, RowObject, SluiceSession } from '../../core/index.js';
import { afterLatest, at } from './events.js';
import { tempDir } from './temp-dir.js';

/** The shape of random input for a property: events with a key and an amount, out of order. */
export interface DisorderedEvents {
  /** The key column's name, and its values. */
  readonly key: string;
  readonly keys: fc.Arbitrary<string>;
  readonly amounts: fc.Arbitrary<number | null>;
  /** The most the clock moves from one event to the next, in ticks. */
  readonly maxStep: number;
  /** The most an event's time lies before the clock, in ticks. */
  readonly maxDisorder: number;
  /** Microseconds per tick. @default 1 */
  readonly tick?: number;
  readonly maxLength: number;
  /** The most cuts into micro-batches. */
  readonly maxCuts: number;
}

/**
 * Events `{ ts, <key>, amount }` from 10:00 on, each up to `maxDisorder` before a clock that moves
 * by up to `maxStep`, with the cuts that split them into micro-batches.
 */
export function disorderedEventStreams(
  shape: DisorderedEvents,
): fc.Arbitrary<{ events: RowObject[]; cuts: number[] }> {
  const tick = shape.tick ?? 1;
  return fc
    .array(
      fc.record({
        step: fc.integer({ min: 0, max: shape.maxStep }),
        back: fc.integer({ min: 0, max: shape.maxDisorder }),
        key: shape.keys,
        amount: shape.amounts,
      }),
      { minLength: 1, maxLength: shape.maxLength },
    )
    .chain((specs) => {
      let clock = 0;
      const events = specs.map((s) => {
        clock += s.step * tick;
        return { ts: at('10:00:00', clock - s.back * tick), [shape.key]: s.key, amount: s.amount };
      });
      return fc.record({
        events: fc.constant(events),
        cuts: fc.uniqueArray(fc.integer({ min: 1, max: specs.length }), {
          maxLength: shape.maxCuts,
        }),
      });
    });
}

/** `rows` cut before each index in `cuts` (any order), without empty batches. */
export function microBatches<T>(rows: readonly T[], cuts: readonly number[]): T[][] {
  const points = [0, ...[...cuts].sort((a, b) => a - b), rows.length];
  return points
    .slice(1)
    .map((end, i) => rows.slice(points[i], end))
    .filter((batch) => batch.length > 0);
}

/** One text per row, sorted: two results are equal as multisets when these are equal. */
export function canonical(rows: readonly RowObject[]): string[] {
  return rows.map((r) => JSON.stringify(r)).sort();
}

/**
 * An event `laterByMicros` after the latest of `events`, with `key` and a null amount: added last,
 * it moves the watermark past every window or session the events opened.
 */
export function flushEvent(
  events: readonly RowObject[],
  laterByMicros: number,
  key: RowObject,
): RowObject {
  return {
    ts: afterLatest(
      events.map((e) => e.ts),
      laterByMicros,
    ),
    ...key,
    amount: null,
  };
}

/** How a stream under test is fed: its session, the memory stream it reads, and the result query. */
export interface StreamUnderLaw {
  readonly session: SluiceSession;
  readonly schema: string;
  readonly query: (input: DataFrame) => DataFrame;
}

/**
 * The rows each batch of the stream wrote, when `parts` were added one micro-batch at a time
 * (4 state partitions, a fresh local checkpoint).
 */
export async function streamOutputs(
  { session, schema, query }: StreamUnderLaw,
  mode: OutputMode,
  parts: readonly RowObject[][],
): Promise<RowObject[][]> {
  const input = session.memoryStream(schema);
  const outputs: RowObject[][] = [];
  const running = await query(session.readStream.memory(input))
    .writeStream.outputMode(mode)
    .foreachBatch(async (batch) => {
      outputs.push(await batch.collect());
    })
    .option('checkpointLocation', tempDir())
    .option('numStatePartitions', 4)
    .start();
  for (const part of parts) {
    input.addData(part);
    await running.processAllAvailable();
  }
  await running.stop();
  return outputs;
}

/** What a stream's sink holds at the end: the last batch in complete mode, every row otherwise. */
export function finalResult(mode: OutputMode, outputs: readonly RowObject[][]): RowObject[] {
  return mode === 'complete' ? [...(outputs[outputs.length - 1] ?? [])] : outputs.flat();
}
