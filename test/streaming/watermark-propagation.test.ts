/**
 * Per-operator watermarks, propagated through the physical plan's structure as Spark does: a
 * stateful operator's watermark is the minimum over the watermark nodes and the stateful operators
 * beneath it; a stream-stream join's output carries the lower of its sides' state watermarks. The
 * plans here are planned, not started (a chain with a stream-stream join is still refused when a
 * query starts). Rows from an operator beneath are late only below its previous watermark.
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
import {
  lateRowWatermarks,
  operatorWatermarks,
} from '../../core/streaming/watermark-propagation.js';
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
  const now = atMicros('10:20:00');
  const before = atMicros('10:10:00');
  const viaNode: WatermarkInput = { kind: 'watermark', watermarkId: 0 };
  const viaOperator: WatermarkInput = { kind: 'stateful', operatorId: 0 };
  const cases: ReadonlyArray<{
    readonly feeds: string;
    readonly inputs: readonly (readonly WatermarkInput[])[];
    readonly previous: readonly (number | undefined)[];
    readonly late: readonly (number | undefined)[];
  }> = [
    {
      feeds: 'a watermark node: the one in force',
      inputs: [[viaNode]],
      previous: [before],
      late: [now],
    },
    {
      feeds: 'an operator beneath: what that one ran under in the previous batch',
      inputs: [[viaNode], [viaOperator]],
      previous: [before, before],
      late: [now, before],
    },
    {
      feeds: 'an operator beneath that had no watermark before: nothing is late',
      inputs: [[viaNode], [viaOperator]],
      previous: [undefined, undefined],
      late: [now, undefined],
    },
    {
      feeds: 'both: the minimum',
      inputs: [[viaNode], [viaOperator, viaNode]],
      previous: [before, before],
      late: [now, before],
    },
  ];
  it.each(cases)('of an operator fed by $feeds', ({ inputs, previous, late }) => {
    const current = operatorWatermarks(inputs, () => now);
    expect(lateRowWatermarks(inputs, () => now, current, previous)).toEqual(late);
  });
});
