/**
 * Session windows through crashes and restarts: killed after any step of a batch and restarted cold,
 * the query emits exactly the batch query's sessions; a restart with another gap is refused naming
 * it; and state stays bounded by the watermark however long the stream runs.
 */
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  col,
  count,
  type MemoryStream,
  MemorySink,
  type RowObject,
  session_window,
  SluiceSession,
  sum,
} from '../../core/index.js';
import { CheckpointError } from '../../core/errors.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';
import { crashAndRestart } from '../support/crash-and-restart.js';

const SCHEMA = 'ts TIMESTAMP, user STRING, amount INT';
const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];
const MINUTE = 60_000_000;

const event = (time: string, user: string, amount = 1): RowObject => ({
  ts: at(time),
  user,
  amount,
});

const chunks: RowObject[][] = [
  [event('10:00:00', 'a', 1), event('10:15:00', 'a', 2), event('10:01:00', 'b', 4)],
  [event('10:08:00', 'a', 8), event('10:30:00', 'b', 16)], // a's row bridges its two sessions
  [event('10:02:00', 'b', 32), event('10:50:00', 'a', 64)], // b's row is late: dropped
];
const flush = event('13:00:00', 'flush', 0);

function sessions(session: SluiceSession, events: MemoryStream, gap = '10 minutes') {
  return session.readStream
    .memory(events)
    .withWatermark('ts', '10 minutes')
    .groupBy(col('user'), session_window(col('ts'), gap))
    .agg(count().alias('n'), sum('amount').alias('total'));
}

function canonical(rows: RowObject[]): string[] {
  return rows.map((r) => JSON.stringify(r)).sort();
}

async function expectedSessions(): Promise<string[]> {
  const onTime = chunks.flat().filter((r) => r.amount !== 32);
  const batch = new SluiceSession()
    .createDataFrame(onTime, SCHEMA)
    .groupBy(col('user'), session_window(col('ts'), '10 minutes'))
    .agg(count().alias('n'), sum('amount').alias('total'));
  return canonical(await batch.collect());
}

describe('a session-window query killed at any step of a batch and restarted', () => {
  for (const step of STEPS) {
    it(`emits the batch query's sessions when killed right after '${step}'`, async () => {
      const { rows, progress, crashedBatch } = await crashAndRestart({
        query: (session, events) => sessions(session, events),
        schema: SCHEMA,
        chunks,
        flush,
        step,
      });
      expect(canonical(rows)).toEqual(await expectedSessions());
      expect(progress[0].batchId).toBe(step === 'commit' ? crashedBatch + 1 : crashedBatch);
      expect(progress[0].stateLoad).toBe('cold');
      expect(progress.reduce((n, p) => n + p.lateRowsDropped, 0)).toBe(1);
    });
  }
});

describe('restarting a session-window query', () => {
  const changes: { name: string; gap: () => string | ReturnType<typeof col>; now: RegExp }[] = [
    {
      name: 'another static gap',
      gap: () => '5 minutes',
      now: /now .*session_window\(ts, 5 minutes\)/,
    },
    { name: 'a dynamic gap', gap: () => col('user'), now: /now .*session_window\(ts, gap: user\)/ },
  ];
  for (const c of changes) {
    it(`is refused with ${c.name}, naming the gap it had and the one it has`, async () => {
      const checkpoint = tempDir();
      const session = new SluiceSession();
      const events = session.memoryStream(SCHEMA);
      const q = await sessions(session, events)
        .writeStream.outputMode('append')
        .option('checkpointLocation', checkpoint)
        .start();
      events.addData(chunks[0]);
      await q.processAllAvailable();
      await q.stop();
      const changed = session.readStream
        .memory(events)
        .withWatermark('ts', '10 minutes')
        .groupBy(col('user'), session_window(col('ts'), c.gap()))
        .agg(count().alias('n'), sum('amount').alias('total'));
      const restart = changed.writeStream
        .outputMode('append')
        .option('checkpointLocation', checkpoint)
        .start();
      await expect(restart).rejects.toThrow(CheckpointError);
      await expect(restart).rejects.toThrow(
        /was #0 aggregate\(keys: user: string, session_window\(ts, 10 minutes\)/,
      );
      await expect(restart).rejects.toThrow(c.now);
    });
  }
});

describe('the state of a session-window query', () => {
  it('levels off while the stream runs for ten times the watermark span', async () => {
    // Each user is active for 3 minutes, then the next one: sessions keep opening and closing.
    const session = new SluiceSession();
    const events = session.memoryStream(SCHEMA);
    const sink = new MemorySink(sessions(session, events).schema, 'sessions');
    const query = await sessions(session, events, '2 minutes')
      .writeStream.outputMode('append')
      .sink(sink)
      .option('checkpointLocation', tempDir())
      .start();
    const minutes = 100; // the watermark trails by 10 minutes
    const held: number[] = [];
    for (let m = 0; m < minutes; m++) {
      const rows = [0, 20, 40].map((s) => {
        const ts = at('10:00:00', m * MINUTE + s * 1_000_000);
        return { ts, user: `u${Math.floor(m / 3)}`, amount: 1 };
      });
      events.addData(rows);
      await query.processAllAvailable();
      held.push(query.lastProgress!.stateOperators[0].numRowsTotal);
    }
    await query.stop();
    const emitted = sink.rows();
    const late = held.slice(held.length / 2);
    const early = held.slice(0, held.length / 2);
    expect(Math.max(...late)).toBeLessThanOrEqual(Math.max(...early));
    // at most the users active within the watermark's 10 minutes plus the gap: 5 of them
    expect(Math.max(...held)).toBeLessThanOrEqual(5);
    // and every closed session was emitted once: users u0 .. u29 are all behind the watermark
    expect(emitted.filter((r) => Number(String(r.user).slice(1)) < 29)).toHaveLength(29);
  });
});
