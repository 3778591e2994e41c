/**
 * The sessionization part of the stateful-operator benchmark (`npm run bench:stateful`): one
 * million generated events of 10,000 users, sessions with a 5-minute gap per user, counted, as
 * - the engine as a stream: a MemoryStream fed in micro-batches of 100,000 events, append mode, a
 *   watermark of 10 minutes, a local checkpoint, and a final event far ahead that closes every
 *   session;
 * - a hand-written loop doing the same work batch by batch (per user, a sorted list of open
 *   sessions; each event merged into it; late events dropped; closed sessions evicted and counted).
 * Both must find the same sessions and the same events in them (checked by the harness).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { col, count, type RowObject, session_window, SluiceSession } from '../core/index.js';
import {
  BATCH_SIZE,
  batchesOf,
  EVENT_COUNT,
  type PartFigures,
  random,
  timeContenders,
  withTimestamps,
} from './stateful-harness.js';

const USERS = 10_000;
const MINUTE = 60_000_000;
const GAP = 5 * MINUTE;
const DELAY = 10 * MINUTE;

interface Event {
  readonly ts: number;
  readonly user: string;
}

/** Events over about 8 hours, up to 2 minutes out of order, from users with uneven activity. */
function generateEvents(): Event[] {
  const next = random(42);
  const start = Date.parse('2026-01-01T00:00:00Z') * 1000;
  const events: Event[] = [];
  for (let i = 0; i < EVENT_COUNT; i++) {
    const clock = start + Math.floor((i / EVENT_COUNT) * 8 * 60 * MINUTE);
    const user = `u${Math.floor(next() * next() * USERS)}`;
    events.push({ ts: clock - Math.floor(next() * 2 * MINUTE), user });
  }
  return events;
}

/** Sessions found and events in them. */
interface Outcome {
  readonly sessions: number;
  readonly events: number;
}

/** The engine over `batches`, the flush event last. */
async function engine(batches: readonly RowObject[][]): Promise<Outcome> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-session-bench-'));
  const session = new SluiceSession();
  const input = session.memoryStream('ts TIMESTAMP, user STRING');
  const outcome = { sessions: 0, events: 0 };
  const query = await session.readStream
    .memory(input)
    .withWatermark('ts', '10 minutes')
    .groupBy(col('user'), session_window(col('ts'), '5 minutes'))
    .agg(count().alias('n'))
    .writeStream.outputMode('append')
    .foreachBatch(async (batch) => {
      const rows = await batch.collect();
      outcome.sessions += rows.length;
      for (const r of rows) outcome.events += r.n as number;
    })
    .option('checkpointLocation', dir)
    .start();
  for (const batch of batches) {
    input.addData(batch);
    await query.processAllAvailable();
  }
  await query.stop();
  await rm(dir, { recursive: true, force: true });
  return outcome;
}

/** The same sessionization by hand: per user, open sessions [start, end, count] sorted by start. */
function loop(batches: readonly Event[][], flush: Event): Outcome {
  const open = new Map<string, [number, number, number][]>();
  const outcome = { sessions: 0, events: 0 };
  let maxTime = -Infinity;
  const evict = (watermark: number) => {
    for (const [user, sessions] of open) {
      const kept = sessions.filter((s) => {
        if (s[1] > watermark) return true;
        outcome.sessions++;
        outcome.events += s[2];
        return false;
      });
      if (kept.length === 0) open.delete(user);
      else if (kept.length !== sessions.length) open.set(user, kept);
    }
  };
  for (const batch of [...batches, [flush]]) {
    const watermark = maxTime - DELAY;
    const byUser = new Map<string, number[]>();
    for (const e of batch) {
      if (e.ts > maxTime) maxTime = e.ts;
      if (e.ts + GAP <= watermark) continue;
      let times = byUser.get(e.user);
      if (!times) byUser.set(e.user, (times = []));
      times.push(e.ts);
    }
    for (const [user, times] of byUser) {
      times.sort((a, b) => a - b);
      const merged: [number, number, number][] = [];
      const stored = open.get(user) ?? [];
      let i = 0;
      let j = 0;
      while (i < stored.length || j < times.length) {
        const last = merged[merged.length - 1];
        if (j === times.length || (i < stored.length && stored[i][0] <= times[j])) {
          const s = stored[i++];
          if (last && s[0] <= last[1]) {
            last[1] = Math.max(last[1], s[1]);
            last[2] += s[2];
          } else merged.push([s[0], s[1], s[2]]);
        } else {
          const t = times[j++];
          if (last && t <= last[1]) {
            last[1] = Math.max(last[1], t + GAP);
            last[2]++;
          } else merged.push([t, t + GAP, 1]);
        }
      }
      open.set(user, merged);
    }
    evict(watermark);
    // the engine's no-data batch: the watermark this batch's events moved
    if (maxTime - DELAY > watermark) evict(maxTime - DELAY);
  }
  return outcome;
}

/** Runs the sessionization part: the engine and the loop on the same events, timed by the harness. */
export async function benchSession(): Promise<PartFigures> {
  const batches = batchesOf(generateEvents(), BATCH_SIZE);
  const flush: Event = { ts: Date.parse('2099-01-01T00:00:00Z') * 1000, user: 'flush' };
  const engineBatches = withTimestamps([...batches, [flush]] as unknown as RowObject[][], 'ts');
  const { outcome, ...figures } = await timeContenders('session', EVENT_COUNT, {
    engine: () => engine(engineBatches),
    loop: () => loop(batches, flush),
  });
  const { sessions, events } = outcome;
  return {
    name: 'session',
    ...figures,
    outcome: `${sessions.toLocaleString('en')} sessions of ${events.toLocaleString('en')} events`,
  };
}
