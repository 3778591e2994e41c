/**
 * The input of one chaos seed: click events cut at random into a few JSON-lines files, which the
 * file source admits one per batch, so each seed runs its query over different batch boundaries.
 */
import type { RowObject } from '../../core/index.js';
import { seededRandom } from '../../examples/seeded-random.js';

/** The schema of the events. */
export const CHAOS_EVENT_SCHEMA = 'id INT, ts TIMESTAMP, category STRING';

/** A seed's events, and the files they are cut into (name to JSON lines). */
export interface ChaosInput {
  readonly events: readonly RowObject[];
  readonly files: ReadonlyMap<string, string>;
}

/**
 * Seed `seed`'s input: 2 to 4 files of 1 to 8 events each (every tenth seed 11 files of 1 or 2, so
 * that its run reaches checkpoint maintenance at batch 10), event times moving forward by up to
 * 4 minutes (the last by 20) with some events up to 4 minutes late: within the windowed query's
 * watermark delay, so the streamed windows can equal the batch query's.
 */
export function chaosInput(seed: number): ChaosInput {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  let t = Date.UTC(2026, 0, 1, 10);
  let id = 0;
  const events: RowObject[] = [];
  const files = new Map<string, string>();
  const long = seed % 10 === 0;
  const fileCount = long ? 11 : 2 + pick(3);
  for (let f = 0; f < fileCount; f++) {
    const lines: string[] = [];
    for (let i = 1 + pick(long ? 2 : 8); i > 0; i--) {
      // The last event jumps ahead, so the final watermark closes most windows.
      t += f === fileCount - 1 && i === 1 ? 20 * 60_000 : pick(240_000);
      const late = random() < 0.2 ? pick(240_000) : 0;
      const event = {
        id: id++,
        ts: new Date(t - late).toISOString(),
        category: ['a', 'b', 'c'][pick(3)],
      };
      events.push(event);
      lines.push(JSON.stringify(event));
    }
    files.set(`in-${String(f).padStart(3, '0')}.json`, lines.join('\n'));
  }
  return { events, files };
}
