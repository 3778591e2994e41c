/**
 * Per-operator watermarks, propagated through the physical plan's structure as Spark does: a
 * stateful operator's watermark is the minimum over the watermark nodes and the stateful operators
 * beneath it; a stream-stream join's output carries the lower of its sides' state watermarks. The
 * plans here are planned, not started (a chain with a stream-stream join is still refused when a
 * query starts). An operator's rows are late at or below its input watermark of the previous batch.
 */
import { describe, expect, it } from 'vitest';
import {
  col,
  type Column,
  count,
  type DataFrame,
  interval,
  SluiceSession,
  window,
} from '../../core/index.js';
import { outputWatermarkOf } from '../../core/exec/stateful-operator.js';
import { planPhysical, type WatermarkInput } from '../../core/exec/physical-planner.js';
import { operatorWatermarks } from '../../core/streaming/watermark-propagation.js';
import { atMicros, clickSchema } from '../support/events.js';

const session = new SluiceSession();
const MINUTE = 60_000_000;
const HOUR = 60 * MINUTE;

function clicks(delay: string): DataFrame {
  return session.readStream.memory(session.memoryStream(clickSchema)).withWatermark('ts', delay);
}

function windowedCount(df: DataFrame): DataFrame {
  return df.groupBy(window(col('ts'), '10 minutes'), col('category')).agg(count().alias('n'));
}

/** The watermark each node emits in these tests: distinct, so that the minimum shows. */
const emitted = [atMicros('10:20:00'), atMicros('10:05:00')];

describe('watermark propagation', () => {
  const cases: ReadonlyArray<{
    readonly plan: string;
    readonly query: () => DataFrame;
    readonly inputs: readonly (readonly WatermarkInput[])[];
    readonly watermarks: readonly (number | undefined)[];
  }> = [
    {
      plan: 'an aggregation over one watermarked stream',
      query: () => windowedCount(clicks('10 minutes')),
      inputs: [[{ kind: 'watermark', watermarkId: 0 }]],
      watermarks: [emitted[0]],
    },
    {
      plan: 'an aggregation over a union of two watermarked streams',
      query: () => windowedCount(clicks('10 minutes').union(clicks('5 minutes'))),
      inputs: [
        [
          { kind: 'watermark', watermarkId: 0 },
          { kind: 'watermark', watermarkId: 1 },
        ],
      ],
      watermarks: [emitted[1]],
    },
    {
      plan: 'an aggregation over a join of two watermarked streams',
      query: () => {
        const left = clicks('10 minutes');
        const right = clicks('5 minutes').select(
          col('ts').alias('seen'),
          col('category').alias('c'),
          col('user').alias('u'),
        );
        return windowedCount(left.join(right, col('category').eq(col('c'))));
      },
      // the join of two streams is a stateful operator of its own, beneath the aggregation
      inputs: [
        [
          { kind: 'watermark', watermarkId: 0 },
          { kind: 'watermark', watermarkId: 1 },
        ],
        [{ kind: 'stateful', operatorId: 0 }],
      ],
      watermarks: [emitted[1], emitted[1]],
    },
    {
      plan: 'a chain of two aggregations over a union: the second sees what the first emits under',
      query: () =>
        windowedCount(clicks('10 minutes').union(clicks('5 minutes')))
          .groupBy(col('window'))
          .agg(count().alias('categories')),
      inputs: [
        [
          { kind: 'watermark', watermarkId: 0 },
          { kind: 'watermark', watermarkId: 1 },
        ],
        [{ kind: 'stateful', operatorId: 0 }],
      ],
      watermarks: [emitted[1], emitted[1]],
    },
    {
      plan: 'an aggregation over a stream without a watermark',
      query: () =>
        session.readStream
          .memory(session.memoryStream(clickSchema))
          .groupBy(col('category'))
          .agg(count().alias('n')),
      inputs: [[]],
      watermarks: [undefined],
    },
  ];

  it.each(cases)('for $plan', ({ query, inputs, watermarks }) => {
    const physical = planPhysical(query().plan, true, { batchTimestampMicros: 0 });
    expect(physical.watermarkInputs).toEqual(inputs);
    expect(operatorWatermarks(physical.watermarkInputs, (id) => emitted[id])).toEqual(watermarks);
  });

  describe("a stream-stream join's output watermark, for the operators above it", () => {
    const left = () => clicks('10 minutes');
    const right = () =>
      clicks('5 minutes').select(
        col('ts').alias('seen'),
        col('category').alias('c'),
        col('user').alias('u'),
      );
    const sameCategory = col('category').eq(col('c'));
    const joinCases: ReadonlyArray<{
      readonly condition: string;
      readonly on: () => Column;
      readonly output: number;
    }> = [
      {
        // ts >= seen - 1 hour: the left side evicts at W - 1 hour; ts <= seen + 10 minutes: the right at W - 10 minutes
        condition: 'a range on both sides: the lower of the two state watermarks',
        on: () =>
          sameCategory.and(
            col('ts').between(
              col('seen').minus(interval('1 hour')),
              col('seen').plus(interval('10 minutes')),
            ),
          ),
        output: emitted[1] - HOUR,
      },
      {
        condition: 'a range bounding the right side only: its state watermark',
        on: () => sameCategory.and(col('ts').leq(col('seen').plus(interval('10 minutes')))),
        output: emitted[1] - 10 * MINUTE,
      },
      {
        condition: 'keys alone: the input watermark',
        on: () => sameCategory,
        output: emitted[1],
      },
    ];

    it.each(joinCases)('with $condition', ({ on, output }) => {
      const query = windowedCount(left().join(right(), on()));
      const physical = planPhysical(query.plan, true, { batchTimestampMicros: 0 });
      const operators = physical.statefulOperators;
      expect(operators.map((o) => o.operatorName)).toEqual(['symmetricHashJoin', 'stateStoreSave']);
      const watermarks = operatorWatermarks(
        physical.watermarkInputs,
        (id) => emitted[id],
        (id, input) => outputWatermarkOf(operators[id], input),
      );
      expect(watermarks).toEqual([emitted[1], output]);
    });
  });

  it("gives today's single stateful operator the query's watermark when every node emits it", () => {
    const physical = planPhysical(
      windowedCount(clicks('10 minutes').union(clicks('5 minutes'))).plan,
      true,
      { batchTimestampMicros: 0 },
    );
    expect(operatorWatermarks(physical.watermarkInputs, () => atMicros('10:00:00'))).toEqual([
      atMicros('10:00:00'),
    ]);
  });

  it('is an internal error when an operator is fed by one that is not beneath it', () => {
    expect(() =>
      operatorWatermarks([[{ kind: 'stateful', operatorId: 0 }]], () => undefined),
    ).toThrow(/^Internal error: stateful operator 0 is fed by operator 0/);
  });
});

describe('the late-rows watermark', () => {
  // Spark's watermark for late events: the input watermark of the previous batch, propagated from
  // the previous batch's watermark in force exactly as the one for eviction is from the current one
  const now = atMicros('10:20:00');
  const before = atMicros('10:10:00');
  const rangeJoin = () => {
    const right = clicks('5 minutes').select(
      col('ts').alias('seen'),
      col('category').alias('c'),
      col('user').alias('u'),
    );
    const within = col('ts').between(
      col('seen').minus(interval('1 hour')),
      col('seen').plus(interval('10 minutes')),
    );
    return windowedCount(
      clicks('10 minutes').join(right, col('category').eq(col('c')).and(within), 'left'),
    );
  };
  const cases: ReadonlyArray<{
    readonly plan: string;
    readonly query: () => DataFrame;
    readonly late: readonly (number | undefined)[];
  }> = [
    {
      plan: 'an aggregation over a stream: the previous watermark in force',
      query: () => windowedCount(clicks('10 minutes')),
      late: [before],
    },
    {
      plan: 'a chain of two aggregations: the previous watermark the first one emitted',
      query: () =>
        windowedCount(clicks('10 minutes')).groupBy(col('window')).agg(count().alias('categories')),
      late: [before, before],
    },
    {
      // the join's output lags its input by the range's reach (an hour), so the unmatched rows it
      // emits at eviction are not late for the aggregation above it
      plan: "an aggregation over an outer join with a range: the join's previous output watermark",
      query: rangeJoin,
      late: [before, before - HOUR],
    },
  ];
  it.each(cases)('for $plan', ({ query, late }) => {
    const physical = planPhysical(query().plan, true, { batchTimestampMicros: 0 });
    const operators = physical.statefulOperators;
    const propagate = (watermark: number | undefined) =>
      operatorWatermarks(
        physical.watermarkInputs,
        () => watermark,
        (id, input) => outputWatermarkOf(operators[id], input),
      );
    expect(propagate(before)).toEqual(late);
    // the eviction watermark of the same batch comes from the current one, and is higher
    propagate(now).forEach((w, id) => expect(w).toBeGreaterThan(late[id]!));
  });

  it('is undefined for every operator before any batch had a watermark: no row is late', () => {
    const physical = planPhysical(rangeJoin().plan, true, { batchTimestampMicros: 0 });
    expect(operatorWatermarks(physical.watermarkInputs, () => undefined)).toEqual([
      undefined,
      undefined,
    ]);
  });
});
