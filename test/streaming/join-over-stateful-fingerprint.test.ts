/**
 * A stream-stream join over other stateful operators keeps state in each of them, so the plan
 * fingerprint records the join's keys and time bounds beside the windows and dedup keys beneath it:
 * restarting a checkpoint of such a chain with any of them changed is refused, naming the operator
 * (#0 and #1 are the operators beneath, #2 the join) with its old and new description.
 */
import { describe, expect, it } from 'vitest';
import {
  CheckpointError,
  col,
  count,
  type DataFrame,
  interval,
  MemorySink,
  SluiceSession,
  window,
} from '../../core/index.js';
import { planPhysical } from '../../core/exec/physical-planner.js';
import { checkPlanFingerprint, planFingerprint } from '../../core/streaming/plan-fingerprint.js';
import { CLICKS, IMPRESSIONS, MINUTE } from '../support/ad-events.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const session = new SluiceSession();
const impressions = (delay = '15 minutes') =>
  session.readStream
    .memory(session.memoryStream(IMPRESSIONS))
    .withWatermark('impressionTime', delay);
const clicks = () =>
  session.readStream.memory(session.memoryStream(CLICKS)).withWatermark('clickTime', '15 minutes');

/**
 * Impressions and clicks counted per window of `duration` and ad, joined on the window and, when
 * `onAd`, the ad.
 */
function windowedCountsJoined(
  shown: DataFrame,
  clicked: DataFrame,
  { duration = '10 minutes', onAd = true } = {},
): DataFrame {
  const shownCounts = shown
    .groupBy(window(col('impressionTime'), duration), col('adId'))
    .agg(count().alias('impressions'));
  const clickCounts = clicked
    .groupBy(window(col('clickTime'), duration).alias('clickWindow'), col('clickAdId'))
    .agg(count().alias('clicks'));
  const onWindow = col('window').eq(col('clickWindow'));
  return shownCounts.join(
    clickCounts,
    onAd ? onWindow.and(col('adId').eq(col('clickAdId'))) : onWindow,
    'inner',
  );
}

/** Each side deduplicated on ad and time, then clicks within `bound` of their impression. */
function deduplicatedThenJoined(bound: string, ...impressionKeys: string[]): DataFrame {
  return impressions()
    .dropDuplicates(...impressionKeys)
    .join(
      clicks().dropDuplicates('clickAdId', 'clickTime'),
      col('clickAdId')
        .eq(col('adId'))
        .and(
          col('clickTime').between(
            col('impressionTime'),
            col('impressionTime').plus(interval(bound)),
          ),
        ),
      'left',
    );
}

/** The error of restarting a checkpoint of `before` with `after`, or undefined when it is accepted. */
function restart(before: DataFrame, after: DataFrame): Error | undefined {
  try {
    const physical = planPhysical(after.plan, true, { batchTimestampMicros: 0 });
    checkPlanFingerprint(planFingerprint(before.plan, 4), after.plan, physical, 4, '/cp');
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

describe('the fingerprint of a stream-stream join over stateful operators', () => {
  it('refuses a restarted join of windowed counts whose join keys changed, naming the old and the new join', async () => {
    const checkpoint = tempDir();
    const run = (onAd: boolean) => {
      const s = new SluiceSession();
      const impressionEvents = s.memoryStream(IMPRESSIONS);
      const clickEvents = s.memoryStream(CLICKS);
      const query = windowedCountsJoined(
        s.readStream.memory(impressionEvents).withWatermark('impressionTime', '15 minutes'),
        s.readStream.memory(clickEvents).withWatermark('clickTime', '15 minutes'),
        { onAd },
      );
      impressionEvents.addData([{ adId: 1, impressionTime: at('10:00:00') }]);
      clickEvents.addData([{ clickAdId: 1, clickTime: at('10:00:00', 2 * MINUTE) }]);
      return query.writeStream
        .outputMode('append')
        .sink(new MemorySink(query.schema))
        .option('checkpointLocation', checkpoint)
        .start();
    };
    const first = await run(true);
    await first.processAllAvailable();
    await first.stop();
    const restarted = run(false);
    await expect(restarted).rejects.toThrow(CheckpointError);
    await expect(restarted).rejects.toThrow(
      /\(was #2 join\(inner on \(\(window = clickWindow\) and \(adId = clickAdId\)\);.*, now #2 join\(inner on \(window = clickWindow\);/,
    );
  });

  const cases: ReadonlyArray<readonly [string, () => DataFrame, () => DataFrame, RegExp?]> = [
    [
      'the same join of windowed counts',
      () => windowedCountsJoined(impressions(), clicks()),
      () => windowedCountsJoined(impressions(), clicks()),
    ],
    [
      'another watermark delay beneath the join',
      () => windowedCountsJoined(impressions(), clicks()),
      () => windowedCountsJoined(impressions('30 minutes'), clicks()),
    ],
    [
      'another window duration beneath the join',
      () => windowedCountsJoined(impressions(), clicks()),
      () => windowedCountsJoined(impressions(), clicks(), { duration: '5 minutes' }),
      /was #0 aggregate\(keys: window\(impressionTime, 10 minutes, 10 minutes, 0 µs\).*, now #0 aggregate\(keys: window\(impressionTime, 5 minutes, 5 minutes, 0 µs\)/,
    ],
    [
      'the join keys of windowed counts',
      () => windowedCountsJoined(impressions(), clicks()),
      () => windowedCountsJoined(impressions(), clicks(), { onAd: false }),
      /was #2 join\(inner on \(\(window = clickWindow\) and \(adId = clickAdId\)\);.*, now #2 join\(inner on \(window = clickWindow\);/,
    ],
    [
      'the same join of deduplications',
      () => deduplicatedThenJoined('20 minutes', 'adId', 'impressionTime'),
      () => deduplicatedThenJoined('20 minutes', 'adId', 'impressionTime'),
    ],
    [
      'the time bound of a join of deduplications',
      () => deduplicatedThenJoined('20 minutes', 'adId', 'impressionTime'),
      () => deduplicatedThenJoined('30 minutes', 'adId', 'impressionTime'),
      /was #2 join\(left on .*INTERVAL '20 minutes'.*, now #2 join\(left on .*INTERVAL '30 minutes'/,
    ],
    [
      'the dedup keys beneath a join',
      () => deduplicatedThenJoined('20 minutes', 'adId', 'impressionTime'),
      () => deduplicatedThenJoined('20 minutes', 'impressionTime'),
      /was #0 dedupe\(keys: adId: integer, impressionTime: timestamp\), now #0 dedupe\(keys: impressionTime: timestamp\)/,
    ],
  ];
  for (const [change, before, after, named] of cases) {
    it(`${named ? 'refuses' : 'accepts'} a restart with ${change}`, () => {
      const error = restart(before(), after());
      if (!named) {
        expect(error).toBeUndefined();
        return;
      }
      expect(error).toBeInstanceOf(CheckpointError);
      expect(error?.message).toMatch(named);
    });
  }
});
