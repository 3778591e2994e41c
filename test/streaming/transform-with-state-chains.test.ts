/**
 * transformWithState chained with other stateful operators, as Spark's
 * TransformWithStateChainingSuite specifies: a processor's `eventTimeColumnName` carries event time
 * on, so a windowed count, a deduplication or another processor can run above it in append mode; a
 * row older than the watermark in that column fails the batch; without the column the operators
 * above have no watermark and are refused where they need one.
 */
import { describe, expect, it } from 'vitest';
import {
  col,
  type RowObject,
  SluiceSession,
  type StatefulProcessor,
  window,
} from '../../core/index.js';
import { AnalysisError, ExecutionError, UnsupportedOperationError } from '../../core/errors.js';
import {
  addData,
  checkAnswer,
  execute,
  expectFailure,
  processAllAvailable,
  type StreamAction,
  testStream,
} from '../../core/testing/index.js';

/** Per key and batch: the earliest event time of the key's rows and how many there were. */
class EarliestAndCount implements StatefulProcessor {
  init(): void {}

  handleInputRows(key: RowObject, rows: readonly RowObject[]): RowObject[] {
    const times = rows.map((r) => (r.eventTime as Date).getTime());
    return [{ key: key.key, outputEventTime: new Date(Math.min(...times)), count: rows.length }];
  }
}

/** Emits every row at 1 ms after the epoch: older than any watermark after the first batch. */
class EmitsAtTheEpoch implements StatefulProcessor {
  init(): void {}

  handleInputRows(key: RowObject, rows: readonly RowObject[]): RowObject[] {
    return [{ key: key.key, outputEventTime: new Date(1), count: rows.length }];
  }
}

/** Per key and batch: how many rows it got. */
class InputCount implements StatefulProcessor {
  init(): void {}

  handleInputRows(_key: RowObject, rows: readonly RowObject[]): RowObject[] {
    return [{ n: rows.length }];
  }
}

const OUTPUT = 'key STRING, outputEventTime TIMESTAMP, count INT';

function inputEvents(session: SluiceSession) {
  return session.memoryStream('key STRING, eventTime TIMESTAMP, event STRING', 'events');
}

/** The events with a one-minute watermark, through `processor` with the output's event time. */
function throughProcessor(
  session: SluiceSession,
  processor: StatefulProcessor = new EarliestAndCount(),
  eventTimeColumnName: string | null = 'outputEventTime',
) {
  const events = inputEvents(session);
  const out = session.readStream
    .memory(events)
    .withWatermark('eventTime', '1 minute')
    .groupBy('key')
    .transformWithState(processor, {
      timeMode: eventTimeColumnName === null ? 'none' : 'eventTime',
      outputMode: 'append',
      schema: OUTPUT,
      ...(eventTimeColumnName === null ? {} : { eventTimeColumnName }),
    });
  return { events, out };
}

const at = (iso: string) => new Date(`${iso}Z`);
const event = (iso: string): RowObject => ({ key: 'k1', eventTime: at(iso), event: 'e1' });

function watermarkIs(iso: string): StreamAction {
  return execute(`the watermark is ${iso}`, (s) => {
    const watermark = s.lastProgress?.eventTime.watermark;
    return watermark === at(iso).toISOString() ? undefined : `it is ${String(watermark)}`;
  });
}

describe('transformWithState chained with other stateful operators', () => {
  it('carries the watermark on to a windowed count above it through eventTimeColumnName', async () => {
    const { events, out } = throughProcessor(new SluiceSession());
    const counts = out.groupBy(window(col('outputEventTime'), '1 minute')).count();
    const windowOf = (start: string, end: string) => ({
      window: { start: at(start), end: at(end) },
      count: 1,
    });
    await testStream(counts, 'append')(
      addData(events, [event('2024-01-01 00:00:00')]),
      checkAnswer([]),
      watermarkIs('2023-12-31 23:59:00'),
      addData(events, [event('2024-02-01 00:00:00')]),
      checkAnswer([windowOf('2024-01-01 00:00:00', '2024-01-01 00:01:00')]),
      watermarkIs('2024-01-31 23:59:00'),
      addData(events, [event('2024-02-02 00:00:00')]),
      checkAnswer([
        windowOf('2024-01-01 00:00:00', '2024-01-01 00:01:00'),
        windowOf('2024-02-01 00:00:00', '2024-02-01 00:01:00'),
      ]),
    );
  });

  it('chains two processors, the second without event time', async () => {
    const { events, out } = throughProcessor(new SluiceSession());
    const counted = out.groupBy('key').transformWithState(new InputCount(), {
      timeMode: 'none',
      outputMode: 'append',
      schema: 'n INT',
    });
    // no batch runs without data between these: neither processor has a timer that the moved
    // watermark would fire, so each progress shows the watermark the previous batch set
    await testStream(counted, 'append')(
      addData(events, [event('2024-01-01 00:00:00')]),
      checkAnswer([{ n: 1 }]),
      addData(events, [event('2024-02-01 00:00:00')]),
      checkAnswer([{ n: 1 }, { n: 1 }]),
      watermarkIs('2023-12-31 23:59:00'),
      addData(events, [event('2024-02-02 00:00:00')]),
      checkAnswer([{ n: 1 }, { n: 1 }, { n: 1 }]),
      watermarkIs('2024-01-31 23:59:00'),
    );
  });

  it('runs dropDuplicatesWithinWatermark above it on the carried event time', async () => {
    const { events, out } = throughProcessor(new SluiceSession());
    await testStream(out.dropDuplicatesWithinWatermark(), 'append')(
      addData(events, [event('2024-02-01 00:00:00'), event('2024-02-01 00:00:00')]),
      checkAnswer([{ key: 'k1', outputEventTime: at('2024-02-01 00:00:00'), count: 2 }]),
      watermarkIs('2024-01-31 23:59:00'),
    );
  });

  it('fails the batch in which the processor returns a row older than the watermark', async () => {
    const { events, out } = throughProcessor(new SluiceSession(), new EmitsAtTheEpoch());
    await testStream(out, 'append')(
      addData(events, [event('2024-02-01 00:00:00')]),
      checkAnswer([{ key: 'k1', outputEventTime: new Date(1), count: 1 }]),
      addData(events, [event('2024-02-02 00:00:00')]),
      expectFailure(
        (e) =>
          e instanceof ExecutionError &&
          e.message.includes(
            'outputEventTime (1970-01-01T00:00:00.001Z) is older than the watermark (2024-01-31T23:59:00.000Z)',
          ),
      ),
    );
  });

  it('gives the operators above no watermark without eventTimeColumnName', async () => {
    const { out } = throughProcessor(new SluiceSession(), new EarliestAndCount(), null);
    const counts = out.groupBy(window(col('outputEventTime'), '1 minute')).count();
    await testStream(
      counts,
      'append',
    )(expectFailure((e) => e instanceof UnsupportedOperationError && /watermark/.test(e.message)));
    await testStream(
      out.dropDuplicatesWithinWatermark(),
      'append',
    )(expectFailure((e) => e instanceof UnsupportedOperationError && /watermark/.test(e.message)));
  });

  it('runs above a windowed count in append mode, on the windows it emits', async () => {
    const session = new SluiceSession();
    const events = inputEvents(session);
    const perWindow = session.readStream
      .memory(events)
      .withWatermark('eventTime', '1 minute')
      .groupBy(window(col('eventTime'), '1 minute'), col('key'))
      .count()
      .groupBy('key')
      .transformWithState(new InputCount(), {
        timeMode: 'none',
        outputMode: 'append',
        schema: 'n INT',
      });
    await testStream(perWindow, 'append')(
      addData(events, [event('2024-01-01 00:00:00'), event('2024-01-01 00:00:30')]),
      checkAnswer([]),
      // the watermark passes the first window's end: the count emits it, the processor gets one row
      addData(events, [event('2024-01-01 00:05:00')]),
      checkAnswer([{ n: 1 }]),
    );
  });

  it('refuses a stateful operator above a processor in update mode', async () => {
    const session = new SluiceSession();
    const events = inputEvents(session);
    const updating = session.readStream
      .memory(events)
      .withWatermark('eventTime', '1 minute')
      .groupBy('key')
      .transformWithState(new EarliestAndCount(), {
        timeMode: 'eventTime',
        outputMode: 'update',
        schema: OUTPUT,
        eventTimeColumnName: 'outputEventTime',
      });
    await testStream(
      updating.dropDuplicatesWithinWatermark(),
      'append',
    )(
      expectFailure(
        (e) =>
          e instanceof UnsupportedOperationError &&
          e.message.includes('over transformWithState(EarliestAndCount)'),
      ),
    );
    // alone it runs in update mode
    await testStream(updating, 'update')(
      addData(events, [event('2024-02-01 00:00:00')]),
      processAllAvailable(),
      checkAnswer([{ key: 'k1', outputEventTime: at('2024-02-01 00:00:00'), count: 1 }]),
    );
  });

  it('refuses an eventTimeColumnName without a watermark, outside event-time mode, or not among the output columns', () => {
    const session = new SluiceSession();
    const events = session.readStream.memory(inputEvents(session));
    const build = (options: {
      watermark: boolean;
      timeMode: 'eventTime' | 'none';
      column: string;
    }) =>
      (options.watermark ? events.withWatermark('eventTime', '1 minute') : events)
        .groupBy('key')
        .transformWithState(new EarliestAndCount(), {
          timeMode: options.timeMode,
          outputMode: 'append',
          schema: OUTPUT,
          eventTimeColumnName: options.column,
        });
    const ok = { watermark: true, timeMode: 'eventTime', column: 'outputEventTime' } as const;
    expect(() => build(ok)).not.toThrow();
    expect(() => build({ ...ok, watermark: false })).toThrow(AnalysisError);
    expect(() => build({ ...ok, watermark: false })).toThrow(/needs a watermark on its input/);
    expect(() => build({ ...ok, timeMode: 'none' })).toThrow(/set timeMode 'eventTime'/);
    expect(() => build({ ...ok, column: 'missing' })).toThrow(
      /has no such column; it has key, outputEventTime, count/,
    );
    expect(() => build({ ...ok, column: 'key' })).toThrow(/the column is string/);
  });
});
