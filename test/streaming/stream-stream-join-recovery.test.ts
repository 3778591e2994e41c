/**
 * A join of two streams through crashes and restarts: a crash after any protocol step, restarted
 * cold on the same checkpoint, gives the same output; a restart whose query changed the join's keys
 * or time bounds is refused naming the change; and its state levels off when the watermark moves
 * through ten times its span of data.
 */
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  CheckpointError,
  col,
  type Column,
  type DataFrame,
  interval,
  MemorySink,
  type RowObject,
  SluiceSession,
} from '../../core/index.js';
import {
  addData,
  checkAnswer,
  crashAfter,
  execute,
  processAllAvailable,
  startStream,
  type StreamAction,
  testStream,
} from '../../core/testing/index.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];
const MINUTE = 60_000_000;

/** Impressions and clicks, each with a 10-minute watermark delay, joined by `on` as `how`. */
function adJoin(
  session: SluiceSession,
  how: string,
  on: (bound: string) => Column,
  bound = '1 hour',
) {
  const impressionEvents = session.memoryStream('adId INT, impressionTime TIMESTAMP');
  const clickEvents = session.memoryStream('clickAdId INT, clickTime TIMESTAMP');
  const impressions = session.readStream
    .memory(impressionEvents)
    .withWatermark('impressionTime', '10 minutes');
  const clicks = session.readStream.memory(clickEvents).withWatermark('clickTime', '10 minutes');
  return { impressionEvents, clickEvents, query: impressions.join(clicks, on(bound), how) };
}

/** A click on the same ad within `bound` after its impression. */
const withinBound = (bound: string) =>
  col('clickAdId')
    .eq(col('adId'))
    .and(
      col('clickTime').between(col('impressionTime'), col('impressionTime').plus(interval(bound))),
    );

const impression = (adId: number, time: string) => ({ adId, impressionTime: at(time) });
const click = (clickAdId: number, time: string) => ({ clickAdId, clickTime: at(time) });

describe('a stream-stream join through a crash after every protocol step', () => {
  const impressions1 = [impression(1, '10:00:00'), impression(2, '10:05:00')];
  const clicks1 = [click(1, '10:20:00')];
  const impressions2 = [impression(3, '10:30:00'), impression(1, '10:40:00')];
  const clicks2 = [click(3, '10:35:00'), click(1, '10:50:00'), click(7, '10:45:00')];
  const far = [impression(99, '15:00:00')];
  const farClick = [click(98, '15:00:00')];

  async function expected(how: string): Promise<RowObject[]> {
    const session = new SluiceSession();
    const left = session.createDataFrame(
      [...impressions1, ...impressions2],
      'adId INT, impressionTime TIMESTAMP',
    );
    const right = session.createDataFrame(
      [...clicks1, ...clicks2],
      'clickAdId INT, clickTime TIMESTAMP',
    );
    return left.join(right, withinBound('1 hour'), how).collect();
  }

  for (const how of ['inner', 'full']) {
    it.each(STEPS)(
      `${how} join: a crash after %s, restarted cold, gives the batch join`,
      async (step) => {
        const { impressionEvents, clickEvents, query } = adJoin(
          new SluiceSession(),
          how,
          withinBound,
        );
        await testStream(query, 'append')(
          addData(impressionEvents, impressions1),
          addData(clickEvents, clicks1),
          processAllAvailable(),
          addData(impressionEvents, impressions2),
          addData(clickEvents, clicks2),
          crashAfter(step),
          startStream(),
          addData(impressionEvents, far),
          addData(clickEvents, farClick),
          checkAnswer(await expected(how)),
        );
      },
    );
  }
});

describe('restarting a stream-stream join with a changed query', () => {
  async function runOnce(df: DataFrame, checkpoint: string) {
    const query = await df.writeStream
      .sink(new MemorySink(df.schema))
      .outputMode('append')
      .option('checkpointLocation', checkpoint)
      .start();
    await query.processAllAvailable();
    await query.stop();
  }

  it.each([
    [
      'a time bound',
      (s: SluiceSession) => adJoin(s, 'inner', withinBound, '2 hours').query,
      /was #0 join\(inner on .*INTERVAL '1 hours'.*, now #0 join\(inner on .*INTERVAL '2 hours'/,
    ],
    [
      'a join key',
      (s: SluiceSession) =>
        adJoin(s, 'inner', (b) =>
          col('clickTime').between(col('impressionTime'), col('impressionTime').plus(interval(b))),
        ).query,
      /was #0 join\(inner on \(\(clickAdId = adId\) and .*, now #0 join\(inner on \(\(clickTime >= impressionTime\)/,
    ],
    [
      'the join type',
      (s: SluiceSession) => adJoin(s, 'left', withinBound).query,
      /was #0 join\(inner .*, now #0 join\(left /,
    ],
  ])('refuses %s changed, naming the old and the new join', async (_, changed, pattern) => {
    const checkpoint = tempDir();
    const session = new SluiceSession();
    const { impressionEvents, query } = adJoin(session, 'inner', withinBound);
    impressionEvents.addData([impression(1, '10:00:00')]);
    await runOnce(query, checkpoint);
    const restart = runOnce(changed(new SluiceSession()), checkpoint);
    await expect(restart).rejects.toThrow(CheckpointError);
    await expect(runOnce(changed(new SluiceSession()), checkpoint)).rejects.toThrow(pattern);
  });

  it('accepts a changed watermark delay, as Spark does', async () => {
    const checkpoint = tempDir();
    const { impressionEvents, query } = adJoin(new SluiceSession(), 'inner', withinBound);
    impressionEvents.addData([impression(1, '10:00:00')]);
    await runOnce(query, checkpoint);
    const session = new SluiceSession();
    const impressions = session.readStream
      .memory(session.memoryStream('adId INT, impressionTime TIMESTAMP'))
      .withWatermark('impressionTime', '30 minutes');
    const clicks = session.readStream
      .memory(session.memoryStream('clickAdId INT, clickTime TIMESTAMP'))
      .withWatermark('clickTime', '10 minutes');
    await expect(
      runOnce(impressions.join(clicks, withinBound('1 hour')), checkpoint),
    ).resolves.toBeUndefined();
  });
});

describe('the state of a stream-stream join stays bounded', () => {
  /** The join's rows held after each batch, from its progress. */
  function stateRows(sizes: number[]): StreamAction {
    return execute('collect state sizes', (s) => {
      sizes.push(...s.progress.map((p) => p.stateOperators[0].numRowsTotal));
      return undefined;
    });
  }

  it('holds about one watermark span of keys while ten spans of events stream through', async () => {
    // watermark delay 10 minutes, bound 1 hour: an impression stays until clicks pass it by an
    // hour and ten minutes; 5 events a minute for 12 hours stream 10 times that span
    const { impressionEvents, clickEvents, query } = adJoin(
      new SluiceSession(),
      'left',
      withinBound,
    );
    const actions: StreamAction[] = [];
    let adId = 0;
    for (let minute = 0; minute < 12 * 60; minute += 10) {
      const shown = [...Array(10).keys()].map((i) => ({
        adId: adId + i,
        impressionTime: at('10:00:00', (minute + i) * MINUTE),
      }));
      const clicked = shown
        .filter((_, i) => i % 2 === 0)
        .map((s, i) => ({
          clickAdId: s.adId,
          clickTime: at('10:00:00', (minute + 2 * i + 5) * MINUTE),
        }));
      adId += 10;
      actions.push(
        addData(impressionEvents, shown),
        addData(clickEvents, clicked),
        processAllAvailable(),
      );
    }
    const sizes: number[] = [];
    await testStream(query, 'append')(...actions, stateRows(sizes));
    const peak = Math.max(...sizes);
    const lastHalf = sizes.slice(Math.floor(sizes.length / 2));
    // one span (80 minutes) holds at most ~8 batches of 10 impressions and 5 clicks, 15 keys each
    expect(peak).toBeLessThanOrEqual(9 * 15);
    expect(Math.max(...lastHalf)).toBeGreaterThan(0);
    // levelled off: the second half of the run holds no more than its first half's peak
    expect(Math.max(...lastHalf)).toBeLessThanOrEqual(
      Math.max(...sizes.slice(0, sizes.length / 2)),
    );
    // 720 impressions and 360 clicks went through
    expect(adId).toBe(720);
  });
});
