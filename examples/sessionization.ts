/**
 * Sessionization (`npm run example:sessionization`): each user's page views grouped into sessions
 * that end after five minutes without a view, with the views and the length of each session.
 *
 * `session_window` gives each view the window [ts, ts + gap) and merges a user's overlapping windows
 * into one session; in append mode a session is written once, when the watermark has passed its end,
 * so a late view within the watermark still extends the session it belongs to.
 */
import { col, count, type DataFrame, from_json, max, min, session_window } from '../core/index.js';
import { type ExampleSpec, runWhenMain } from './run-with-restart.js';
import { seededRandom } from './seeded-random.js';

const VIEW_SCHEMA = 'user STRING, ts TIMESTAMP, page STRING';
const HEARTBEAT = 'heartbeat';

/** Sessions per user: their window, number of views, and first and last view. */
export function userSessions(views: DataFrame): DataFrame {
  return views
    .select(from_json(col('value'), VIEW_SCHEMA).alias('view'))
    .select('view.*')
    .withWatermark('ts', '10 minutes')
    .groupBy(col('user'), session_window(col('ts'), '5 minutes'))
    .agg(count('*').alias('views'), min('ts').alias('firstView'), max('ts').alias('lastView'));
}

/**
 * Page views of `users` users in rounds of ten minutes of event time: each user browses in bursts,
 * a view every few seconds to two minutes, and pauses for 6 to 30 minutes between bursts. Views of a
 * round arrive up to a minute out of order. The last round is a heartbeat far in the future.
 */
export function viewRounds(rounds: number, users: number, seed: number): string[][] {
  const random = seededRandom(seed);
  const start = Date.parse('2026-01-01T10:00:00Z');
  const roundMs = 10 * 60_000;
  const out: string[][] = Array.from({ length: rounds + 1 }, () => []);
  for (let u = 0; u < users; u++) {
    let t = start + Math.floor(random() * roundMs);
    while (t < start + rounds * roundMs) {
      const burst = 1 + Math.floor(random() * 8);
      for (let v = 0; v < burst && t < start + rounds * roundMs; v++) {
        const jitter = Math.floor(random() * 60_000);
        const round = Math.floor((t - start + jitter) / roundMs);
        const view = { user: `u${u}`, ts: new Date(t).toISOString(), page: `/p/${v}` };
        out[Math.min(round, rounds - 1)].push(JSON.stringify(view));
        t += 3_000 + Math.floor(random() * 117_000);
      }
      t += 6 * 60_000 + Math.floor(random() * 24 * 60_000);
    }
  }
  const later = new Date(start + 48 * 3_600_000).toISOString();
  out[rounds].push(JSON.stringify({ user: HEARTBEAT, ts: later, page: '/' }));
  return out;
}

/** The example: an hour of browsing by 60 users in six rounds, the third invocation dying. */
export function sessionizationExample(users = 60): ExampleSpec {
  return {
    title: 'sessionization: page views grouped into sessions per user',
    inputs: [{ name: 'views', rounds: viewRounds(6, users, 5) }],
    outputMode: 'append',
    query: (inputs) => userSessions(inputs.views),
    expected: (row) => row.user !== HEARTBEAT,
    crashInRound: 2,
  };
}

await runWhenMain(import.meta.url, 'sessionization', sessionizationExample);
