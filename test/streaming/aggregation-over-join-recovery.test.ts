/**
 * An aggregation over a stream-stream join (inner, outer or left semi) through crashes and restarts:
 * killed after any protocol step and restarted cold on the same checkpoint, the chain (the join's two stores and the
 * aggregation's) emits exactly the batch query's windows, each once; and both operators report
 * their own state in progress.
 */
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  col,
  count,
  type DataFrame,
  interval,
  MemorySink,
  type RowObject,
  SluiceSession,
  window,
} from '../../core/index.js';
import {
  addData,
  checkAnswer,
  crashAfter,
  processAllAvailable,
  startStream,
  testStream,
} from '../../core/testing/index.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];
const IMPRESSIONS = 'adId INT, impressionTime TIMESTAMP';
const CLICKS = 'clickAdId INT, clickTime TIMESTAMP';

const impression = (adId: number, time: string) => ({ adId, impressionTime: at(time) });
const click = (clickAdId: number, time: string) => ({ clickAdId, clickTime: at(time) });

/** Every join type that an aggregation may sit over, as Spark 3.5 allows. */
const JOINS = ['inner', 'left', 'right', 'full', 'left_semi'] as const;
type How = (typeof JOINS)[number];

/**
 * Clicks within an hour of their impression, joined `how`, counted per 30-minute window of the
 * impression (an outer join's unmatched rows count too, once the watermark has passed them).
 */
function clicksPerWindow(impressions: DataFrame, clicks: DataFrame, how: How): DataFrame {
  return impressions
    .join(
      clicks,
      col('clickAdId')
        .eq(col('adId'))
        .and(
          col('clickTime').between(
            col('impressionTime'),
            col('impressionTime').plus(interval('1 hour')),
          ),
        ),
      how,
    )
    .groupBy(window(col('impressionTime'), '30 minutes'), col('adId'))
    .agg(count().alias('clicks'));
}

function streams(session: SluiceSession, how: How = 'inner') {
  const impressionEvents = session.memoryStream(IMPRESSIONS);
  const clickEvents = session.memoryStream(CLICKS);
  const query = clicksPerWindow(
    session.readStream.memory(impressionEvents).withWatermark('impressionTime', '10 minutes'),
    session.readStream.memory(clickEvents).withWatermark('clickTime', '10 minutes'),
    how,
  );
  return { impressionEvents, clickEvents, query };
}

const impressions1 = [impression(1, '10:00:00'), impression(2, '10:05:00')];
const clicks1 = [click(1, '10:20:00'), click(1, '10:25:00')];
const impressions2 = [impression(3, '10:30:00'), impression(1, '10:40:00')];
const clicks2 = [click(3, '10:35:00'), click(1, '10:50:00'), click(2, '11:00:00')];
const far = [impression(99, '15:00:00')];
const farClick = [click(98, '15:00:00')];

async function expected(how: How = 'inner'): Promise<RowObject[]> {
  const session = new SluiceSession();
  return clicksPerWindow(
    session.createDataFrame([...impressions1, ...impressions2], IMPRESSIONS),
    session.createDataFrame([...clicks1, ...clicks2], CLICKS),
    how,
  ).collect();
}

describe('an aggregation over a stream-stream join through a crash after every protocol step', () => {
  const cases = JOINS.flatMap((how) => STEPS.map((step) => ({ how, step })));
  it.each(cases)(
    '$how join, a crash after $step, restarted cold, gives the batch windows',
    async ({ how, step }) => {
      const { impressionEvents, clickEvents, query } = streams(new SluiceSession(), how);
      const answer = await expected(how);
      expect(answer.length).toBeGreaterThan(2);
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
        checkAnswer(answer),
      );
    },
  );
});

describe('the progress of an aggregation over a stream-stream join', () => {
  it('reports the join and the aggregation as two operators, and the windows once closed', async () => {
    const { impressionEvents, clickEvents, query } = streams(new SluiceSession());
    const sink = new MemorySink(query.schema);
    const running = await query.writeStream
      .sink(sink)
      .outputMode('append')
      .option('checkpointLocation', tempDir())
      .start();
    impressionEvents.addData([...impressions1, ...impressions2]);
    clickEvents.addData([...clicks1, ...clicks2]);
    await running.processAllAvailable();
    expect(sink.rows()).toEqual([]); // no window has closed yet
    const operators = running.lastProgress!.stateOperators;
    expect(operators).toHaveLength(2);
    expect(operators.every((o) => o.numRowsTotal > 0)).toBe(true);
    impressionEvents.addData(far);
    clickEvents.addData(farClick);
    await running.processAllAvailable();
    await running.stop();
    const key = (r: RowObject) => JSON.stringify(r);
    expect(sink.rows().map(key).sort()).toEqual((await expected()).map(key).sort());
  });
});
