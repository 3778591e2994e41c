/**
 * Stateful-operator benchmark (`npm run bench:stateful`): Structured Streaming's stateful operators
 * on one million generated events each, in events per second next to a hand-written plain JS loop
 * doing the same work, so the figures say what the engine's generality (state stores, checkpoint,
 * watermarks) costs over doing the job by hand:
 * - deduplication on (id, event time) under a watermark (stateful-dedup.ts);
 * - sessionization with a 5-minute gap, counted per session (stateful-session.ts);
 * - a stream-stream join of ad impressions to clicks within an hour, Spark's canonical example,
 *   with the join state's bytes per key (stateful-join.ts).
 * Each part runs its contenders once to warm up and then three times, interleaved, and checks that
 * they computed the same thing (a mismatch exits with status 1); figures come from the median run
 * (stateful-harness.ts). The parts run in turn; the output is a table, then one JSON line:
 * {"dedup_vs_loop": R, "session_vs_loop": R, "join_vs_loop": R, "join_state_bytes_per_key": N},
 * each R the engine's events per second over the loop's. `SLUICE_BENCH_EVENTS=200000` runs a quick
 * variant on fewer events, still in ten micro-batches (stateful-harness.ts).
 */
import { benchDedup } from './stateful-dedup.js';
import type { PartFigures } from './stateful-harness.js';
import { benchJoin } from './stateful-join.js';
import { benchSession } from './stateful-session.js';

/** The engine's events per second over the loop's, to three decimals. */
function ratio(part: PartFigures): number {
  return Number((part.engineEventsPerSecond / part.loopEventsPerSecond).toFixed(3));
}

/** Prints one row per part, numbers right-aligned. */
function printTable(parts: readonly PartFigures[]): void {
  const eps = (n: number) => Math.round(n).toLocaleString('en');
  const rows = [
    ['part', 'engine events/s', 'loop events/s', 'engine/loop', 'computed'],
    ...parts.map((p) => [
      p.name,
      eps(p.engineEventsPerSecond),
      eps(p.loopEventsPerSecond),
      ratio(p).toFixed(3),
      p.outcome,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows)
    console.log(
      r
        .map((cell, i) =>
          i === 0 || i === r.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]),
        )
        .join('  ')
        .trimEnd(),
    );
}

async function main(): Promise<void> {
  const dedup = await benchDedup();
  const session = await benchSession();
  const join = await benchJoin();
  printTable([dedup, session, join]);
  const bytesPerKey = Math.round(join.stateBytesPerKey);
  console.log(`join state: ${bytesPerKey.toLocaleString('en')} bytes per key`);
  console.log(
    JSON.stringify({
      dedup_vs_loop: ratio(dedup),
      session_vs_loop: ratio(session),
      join_vs_loop: ratio(join),
      join_state_bytes_per_key: bytesPerKey,
    }),
  );
}

await main();
