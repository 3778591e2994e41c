/**
 * A deterministic clickstream generator: JSON events with skewed categories, event time advancing
 * with jitter, some events out of order and a few very late (beyond a 15-minute watermark).
 */
import { seededRandom } from './seeded-random.js';

/** Options of the generator. */
export interface ClickstreamOptions {
  readonly files: number;
  readonly eventsPerFile: number;
  readonly seed: number;
  /** Event time of the first event, ms since the epoch. @default 2026-01-01T10:00:00Z */
  readonly startMs?: number;
}

const CATEGORIES = ['books', 'games', 'music', 'garden', 'toys', 'sports', 'kitchen', 'travel'];

/** The events as JSON lines, grouped into files that arrive one after another. */
export function clickstreamFiles(options: ClickstreamOptions): string[][] {
  const random = seededRandom(options.seed);
  let clockMs = options.startMs ?? Date.parse('2026-01-01T10:00:00Z');
  const files: string[][] = [];
  for (let f = 0; f < options.files; f++) {
    const lines: string[] = [];
    for (let i = 0; i < options.eventsPerFile; i++) {
      clockMs += Math.floor(random() * 1_000);
      lines.push(JSON.stringify(event(clockMs, random)));
    }
    files.push(lines);
  }
  return files;
}

function event(clockMs: number, random: () => number) {
  const r = random();
  // 3% arrive up to 12 minutes late (within the watermark), 0.5% 40 minutes late (dropped).
  const delayMs = r < 0.005 ? 40 * 60_000 : r < 0.035 ? Math.floor(random() * 12 * 60_000) : 0;
  const category = CATEGORIES[Math.floor(CATEGORIES.length * random() ** 2)];
  return {
    ts: new Date(clockMs - delayMs).toISOString(),
    category,
    user: `u${Math.floor(random() * 5000)}`,
    page: `/${category}/${Math.floor(random() * 300)}`,
  };
}
