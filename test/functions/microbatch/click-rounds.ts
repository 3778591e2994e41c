/**
 * Click events for the function's end-to-end tests, produced in rounds (every round is fully
 * processed before the next is produced), and the oracle that says which of them the canonical
 * query must count.
 *
 * Events are mostly in order, some out of order within the 15-minute watermark, and from the second
 * round on a few 45 minutes late. The stream drops an event when its 10-minute window had already
 * closed (window end <= the watermark in force) in the batch that reads it, and that watermark
 * depends on where batches were cut, which the test does not control (admission limits, concurrent
 * and interrupted invocations). It is bounded, though: the watermark in force when a round-k event
 * is read is at least (latest event time of rounds < k) - 15 min, since those rounds were committed
 * before round k existed, and at most (latest event time of rounds <= k) - 15 min. An event whose
 * window end is at or below the lower bound is dropped however batches were cut; one above the upper
 * bound is counted however they were cut. The generator keeps a round's span plus its disorder under
 * 15 minutes so that every event falls on one side, and `fates` checks that it did: the expected
 * result is then the batch query over exactly the counted events.
 */

import { seededRandom } from '../../../examples/seeded-random.js';

/** One click, as produced to Kafka. */
export interface Click {
  /** Event time, ms since the epoch. */
  readonly ts: number;
  /** The event as JSON, the record's value. */
  readonly value: string;
  readonly user: string;
}

const CATEGORIES = ['books', 'games', 'music', 'garden', 'toys'];
const WATERMARK_DELAY_MS = 15 * 60_000;
const WINDOW_MS = 10 * 60_000;
const FAR_LATE_MS = 45 * 60_000;
const MAX_DISORDER_MS = 4 * 60_000;

/**
 * `rounds` rounds of `perRound` clicks from 2026-01-01T10:00Z, about 800 ms of event time apart (a
 * round of 500 spans under 7 minutes), then one round holding a single click a day later, which moves
 * the watermark past every earlier window so that append mode writes them all.
 */
export function clickRounds(rounds: number, perRound: number, seed = 11): Click[][] {
  const random = seededRandom(seed);
  let clock = Date.parse('2026-01-01T10:00:00Z');
  const result: Click[][] = [];
  for (let k = 0; k < rounds; k++) {
    const round: Click[] = [];
    for (let i = 0; i < perRound; i++) {
      clock += 200 + Math.floor(random() * 1_200);
      const r = random();
      const lateness =
        k > 0 && r < 0.02 ? FAR_LATE_MS : r < 0.12 ? Math.floor(random() * MAX_DISORDER_MS) : 0;
      round.push(click(clock - lateness, random));
    }
    result.push(round);
  }
  result.push([click(clock + 24 * 60 * 60_000, random)]);
  return result;
}

/**
 * Whether each click of each round is counted or dropped; throws if a click could go either way.
 * `skewMs` widens the lower bound for a stream whose watermark may trail the latest event time of
 * the earlier rounds by up to that much (a shard's watermark comes from its own rows only).
 */
export function fates(
  rounds: readonly (readonly Click[])[],
  skewMs = 0,
): ('counted' | 'dropped')[][] {
  let before = -Infinity;
  return rounds.map((round, k) => {
    const through = Math.max(before, ...round.map((c) => c.ts));
    const fate = round.map((c) => {
      const windowEnd = Math.floor(c.ts / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
      if (windowEnd <= before - WATERMARK_DELAY_MS - skewMs) return 'dropped' as const;
      if (windowEnd > through - WATERMARK_DELAY_MS) return 'counted' as const;
      throw new Error(
        `Click ${c.value} of round ${k} may be counted or dropped depending on batch cuts; the generator must not make such clicks.`,
      );
    });
    before = through;
    return fate;
  });
}

function click(ts: number, random: () => number): Click {
  const category = CATEGORIES[Math.floor(random() * CATEGORIES.length)];
  const user = `u${Math.floor(random() * 300)}`;
  const event = { ts: new Date(ts).toISOString(), category, user, page: `/${category}/${user}` };
  return { ts, value: JSON.stringify(event), user };
}
