/**
 * session.streams and the query listener, as Spark's StreamingQueryManager and
 * StreamingQueryListener: events in a query's order, the active queries, waiting for any to
 * terminate, and query.status as it runs.
 */
import { describe, expect, it } from 'vitest';
import {
  type QueryTerminatedEvent,
  SluiceSession,
  type StreamingQueryListener,
} from '../../core/index.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

/** A listener that records each event as `kind:batchId` (progress) or `kind`. */
function recorder() {
  const events: string[] = [];
  const terminated: QueryTerminatedEvent[] = [];
  const listener: StreamingQueryListener = {
    onQueryStarted: () => events.push('started'),
    onQueryProgress: ({ progress }) => events.push(`progress:${progress.batchId}`),
    onQueryIdle: () => events.push('idle'),
    onQueryTerminated: (e) => {
      events.push('terminated');
      terminated.push(e);
    },
  };
  return { events, terminated, listener };
}

/** A memory stream and a stateless query over it, ready to start. */
function passThrough(session: SluiceSession, name: string) {
  const clicks = session.memoryStream(clickSchema, name);
  const writer = session.readStream.memory(clicks).writeStream.format('memory').queryName(name);
  return { clicks, writer };
}

describe('session.streams listeners', () => {
  it('tells every listener when a query starts, commits each batch, goes idle and terminates', async () => {
    const session = new SluiceSession();
    const { events, terminated, listener } = recorder();
    session.streams.addListener(listener);
    const { clicks, writer } = passThrough(session, 'events');
    const query = await writer.start();
    clicks.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await query.processAllAvailable();
    clicks.addData([{ ts: at('10:01:00'), category: 'b', user: 'u' }]);
    await query.processAllAvailable();
    await query.stop();
    // one idle event after each batch's first idle trigger, then none for 10 s
    expect(events).toEqual(['started', 'progress:0', 'idle', 'progress:1', 'idle', 'terminated']);
    expect(terminated).toEqual([{ id: query.id, runId: query.runId, exception: null }]);
  });

  it('stops telling a removed listener', async () => {
    const session = new SluiceSession();
    const { events, listener } = recorder();
    session.streams.addListener(listener);
    session.streams.removeListener(listener);
    const query = await passThrough(session, 'removed').writer.start();
    await query.stop();
    expect(events).toEqual([]);
  });

  it('keeps running the query, and the other listeners, when a listener throws, reporting its error as a warning', async () => {
    const session = new SluiceSession();
    const { events, listener } = recorder();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    session.streams.addListener({
      onQueryProgress: () => {
        throw new Error('listener bug');
      },
    });
    session.streams.addListener(listener);
    const { clicks, writer } = passThrough(session, 'throwing');
    const query = await writer.start();
    clicks.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await query.processAllAvailable();
    await query.stop();
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(events).toContain('progress:0');
    expect(query.exception).toBeUndefined();
    expect(warnings.map((w) => (w.cause as Error).message)).toEqual(['listener bug']);
  });

  it('rejects a listener that is not an object, saying what it takes', () => {
    expect(() =>
      new SluiceSession().streams.addListener(undefined as unknown as StreamingQueryListener),
    ).toThrow(/addListener takes an object with any of onQueryStarted/);
  });
});

describe('session.streams queries', () => {
  it('lists the active queries and finds one by id until it stops', async () => {
    const session = new SluiceSession();
    const first = await passThrough(session, 'first').writer.start();
    const second = await passThrough(session, 'second').writer.start();
    expect(session.streams.active).toEqual([first, second]);
    expect(session.streams.get(second.id)).toBe(second);
    await first.stop();
    expect(session.streams.active).toEqual([second]);
    expect(session.streams.get(first.id)).toBeUndefined();
    await second.stop();
    expect(session.streams.active).toEqual([]);
  });

  it('awaitAnyTermination waits for the first query to terminate, then returns at once until resetTerminated', async () => {
    const session = new SluiceSession();
    const query = await passThrough(session, 'awaited').writer.start();
    expect(await session.streams.awaitAnyTermination(20)).toBe(false);
    const waiting = session.streams.awaitAnyTermination();
    await query.stop();
    expect(await waiting).toBe(true);
    expect(await session.streams.awaitAnyTermination(0)).toBe(true);
    session.streams.resetTerminated();
    expect(await session.streams.awaitAnyTermination(20)).toBe(false);
  });

  it('awaitAnyTermination rejects with the error of a query that failed, which its terminated event names', async () => {
    const session = new SluiceSession();
    const { terminated, listener } = recorder();
    session.streams.addListener(listener);
    const clicks = session.memoryStream(clickSchema, 'failing');
    await session.readStream
      .memory(clicks)
      .writeStream.foreachBatch(() => {
        throw new Error('sink is down');
      })
      .option('checkpointLocation', tempDir())
      .start();
    clicks.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await expect(session.streams.awaitAnyTermination()).rejects.toThrow(/sink is down/);
    expect(terminated[0].exception).toMatch(/sink is down/);
    expect(terminated[0].error).toBeInstanceOf(Error);
  });
});

describe('query.status', () => {
  it('says whether data was found and whether a trigger is running, and Stopped at the end', async () => {
    const session = new SluiceSession();
    const { clicks, writer } = passThrough(session, 'status');
    const seen: { message: string; isDataAvailable: boolean; isTriggerActive: boolean }[] = [];
    session.streams.addListener({
      onQueryProgress: () => seen.push(session.streams.active[0].status),
    });
    const query = await writer.start();
    clicks.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await query.processAllAvailable();
    expect(query.status).toEqual({
      message: 'Waiting for data to arrive',
      isDataAvailable: false,
      isTriggerActive: false,
    });
    await query.stop();
    expect(seen).toEqual([
      { message: 'Waiting for next trigger', isDataAvailable: true, isTriggerActive: false },
    ]);
    expect(query.status).toMatchObject({ message: 'Stopped', isTriggerActive: false });
  });
});
