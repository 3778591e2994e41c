/**
 * The two watermarks of a stateful operator, seen apart (Spark 3.5 and later): a row is late only
 * at or below the previous batch's watermark (`eventTimeWatermarkForLateEvents`), while the state
 * is evicted and emitted by this batch's (`eventTimeWatermarkForEviction`). Each test runs a data
 * batch right after one that moved the watermark, and feeds it a row between the two: it must be
 * kept and emitted in that same batch. An operator judging late rows by the current watermark
 * drops it; one evicting by the previous watermark emits it a batch later.
 */
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  interval,
  type RowObject,
  session_window,
  SluiceSession,
} from '../../core/index.js';
import { type BackToBackBatch, backToBackBatches } from '../support/back-to-back-batches.js';
import { at } from '../support/events.js';
import { canonical } from '../support/unification-law.js';

/** The watermark a batch ran under, as its progress shows it. */
const watermarkOf = (batch: BackToBackBatch) => batch.progress.eventTime.watermark;
const droppedIn = (batch: BackToBackBatch) =>
  batch.progress.stateOperators.reduce((n, o) => n + o.numRowsDroppedByWatermark, 0);
const same = (rows: readonly RowObject[]) => canonical(rows);

describe('session windows under the two watermarks', () => {
  it('keeps a row whose session ends between the two watermarks and emits that session in the same batch', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream('ts TIMESTAMP, user STRING');
    const sessions = session.readStream
      .memory(events)
      .withWatermark('ts', '0 seconds')
      .groupBy(col('user'), session_window(col('ts'), '10 minutes'))
      .agg(count().alias('n'));
    const sessionRow = (user: string, start: string, end: string, n: number) => ({
      user,
      session_window: { start: at(start), end: at(end) },
      n,
    });
    const batches = await backToBackBatches(sessions, [
      () => events.addData([{ ts: at('10:00:00'), user: 'b' }]),
      () => events.addData([{ ts: at('10:40:00'), user: 'b' }]),
      () =>
        events.addData([
          { ts: at('10:15:00'), user: 'a' }, // [10:15, 10:25): after 10:00, before 10:40
          { ts: at('09:45:00'), user: 'a' }, // [09:45, 09:55): at or before 10:00, late
        ]),
    ]);
    expect(batches.map(watermarkOf)).toEqual([
      undefined,
      '2026-01-01T10:00:00.000Z',
      '2026-01-01T10:40:00.000Z',
    ]);
    const last = batches[2];
    expect(same(last.rows)).toEqual(
      same([
        sessionRow('b', '10:00:00', '10:10:00', 1),
        sessionRow('a', '10:15:00', '10:25:00', 1),
      ]),
    );
    expect(droppedIn(last)).toBe(1);
  });
});

describe('a stream-stream join under the two watermarks', () => {
  it('keeps rows between the two watermarks, matches them, and evicts them in the same batch', async () => {
    const session = new SluiceSession();
    const impressionEvents = session.memoryStream('adId INT, impressionTime TIMESTAMP');
    const clickEvents = session.memoryStream('clickAdId INT, clickTime TIMESTAMP');
    const impressions = session.readStream
      .memory(impressionEvents)
      .withWatermark('impressionTime', '0 seconds');
    const clicks = session.readStream.memory(clickEvents).withWatermark('clickTime', '0 seconds');
    // a click within 10 minutes after its impression: the watermark W evicts impressions at or
    // before W - 10 minutes, and clicks at or before W
    const joined = impressions.join(
      clicks,
      col('clickAdId')
        .eq(col('adId'))
        .and(
          col('clickTime').between(
            col('impressionTime'),
            col('impressionTime').plus(interval('10 minutes')),
          ),
        ),
      'left',
    );
    const impression = (adId: number, time: string) => ({ adId, impressionTime: at(time) });
    const click = (clickAdId: number, time: string) => ({ clickAdId, clickTime: at(time) });
    const batches = await backToBackBatches(joined, [
      () => {
        impressionEvents.addData([impression(9, '10:00:00')]);
        clickEvents.addData([click(9, '10:00:00')]);
      },
      () => {
        impressionEvents.addData([impression(8, '10:40:00')]);
        clickEvents.addData([click(8, '10:40:00')]);
      },
      () => {
        impressionEvents.addData([
          impression(1, '10:20:00'), // not late (after 10:00), evicted by 10:40 - 10 minutes
          impression(2, '10:10:00'), // the same, and no click comes for it: emitted with nulls
          impression(3, '09:50:00'), // at or before 10:00: late
        ]);
        clickEvents.addData([click(1, '10:25:00')]); // not late: meets impression 1 of this batch
      },
    ]);
    expect(batches.map(watermarkOf)).toEqual([
      undefined,
      '2026-01-01T10:00:00.000Z',
      '2026-01-01T10:40:00.000Z',
    ]);
    const last = batches[2];
    expect(same(last.rows)).toEqual(
      same([
        { ...impression(1, '10:20:00'), ...click(1, '10:25:00') },
        { ...impression(2, '10:10:00'), clickAdId: null, clickTime: null },
      ]),
    );
    expect(droppedIn(last)).toBe(1);
  });
});
