import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import { kafkaOptions, type KafkaReadMode } from '../../core/kafka/kafka-options.js';

/** The options with brokers and the given ones (names in any case, as the readers lower-case them). */
function options(given: Record<string, string | number | boolean>, mode: KafkaReadMode = 'stream') {
  const raw = new Map<string, string | number | boolean>([['kafka.bootstrap.servers', 'a:1, b:2']]);
  for (const [k, v] of Object.entries(given)) raw.set(k.toLowerCase(), v);
  return kafkaOptions(raw, mode);
}

const invalid = (
  given: Record<string, string | number | boolean>,
  message: string,
  mode?: KafkaReadMode,
) => {
  expect(() => options(given, mode)).toThrow(InvalidOptionError);
  expect(() => options(given, mode)).toThrow(message);
};

describe('Kafka source options', () => {
  it("have Spark's defaults: latest for a stream, earliest to latest for a bounded read", () => {
    const stream = options({ subscribe: 'clicks, views' });
    expect(stream).toMatchObject({
      bootstrapServers: ['a:1', 'b:2'],
      subscription: { kind: 'subscribe', topics: ['clicks', 'views'] },
      startingOffsets: { kind: 'latest' },
      failOnDataLoss: true,
      includeHeaders: false,
      isolationLevel: 'read_committed',
      startingOffsetsByTimestampStrategy: 'error',
    });
    expect(stream.maxOffsetsPerTrigger).toBeUndefined();
    const batch = options({ subscribe: 'clicks' }, 'batch');
    expect(batch.startingOffsets).toEqual({ kind: 'earliest' });
    expect(batch.endingOffsets).toEqual({ kind: 'latest' });
  });

  it('read every supported option', () => {
    const o = options({
      subscribePattern: 'clicks-.*',
      startingOffsets: '{"clicks-a":{"0":5,"1":-2}}',
      maxOffsetsPerTrigger: '1000',
      failOnDataLoss: 'FALSE',
      includeHeaders: true,
      'kafka.isolation.level': 'read_uncommitted',
    });
    expect(o.subscription.kind).toBe('subscribePattern');
    expect(o.startingOffsets).toEqual({
      kind: 'offsets',
      option: 'startingOffsets',
      offsets: { 'clicks-a': { 0: 5, 1: -2 } },
    });
    expect(o).toMatchObject({
      maxOffsetsPerTrigger: 1000,
      failOnDataLoss: false,
      includeHeaders: true,
      isolationLevel: 'read_uncommitted',
    });
    expect(options({ assign: '{"t":[0,2]}' }).subscription).toEqual({
      kind: 'assign',
      partitions: [
        { topic: 't', partition: 0 },
        { topic: 't', partition: 2 },
      ],
    });
  });

  it('match a subscribePattern against whole topic names', () => {
    const o = options({ subscribePattern: 'a|ab' });
    const matcher = (o.subscription as { matcher: RegExp }).matcher;
    expect(['a', 'ab', 'abc', 'xab'].filter((t) => matcher.test(t))).toEqual(['a', 'ab']);
  });

  it('take timestamps before offsets, as Spark does', () => {
    expect(
      options({ subscribe: 't', startingOffsets: 'earliest', startingTimestamp: 1_000 })
        .startingOffsets,
    ).toEqual({
      kind: 'timestamp',
      option: 'startingTimestamp',
      timestampMs: 1000,
    });
    expect(
      options({ subscribe: 't', endingOffsetsByTimestamp: '{"t":{"0":5}}' }, 'batch').endingOffsets,
    ).toEqual({
      kind: 'timestamps',
      option: 'endingOffsetsByTimestamp',
      timestamps: { t: { 0: 5 } },
    });
  });

  it('refuse mistakes, naming the option', () => {
    expect(() => kafkaOptions(new Map([['subscribe', 't']]), 'stream')).toThrow(
      "option('kafka.bootstrap.servers'",
    );
    invalid({}, 'needs one of the options subscribe');
    invalid({ subscribe: 't', assign: '{"t":[0]}' }, 'only one of the options');
    invalid({ subscribe: ' , ' }, "Invalid option subscribe=','");
    invalid({ subscribePattern: '(' }, 'not a regular expression');
    invalid({ assign: '{"t":[-1]}' }, 'Invalid option assign');
    invalid(
      { subscribe: 't', startingOffsets: 'newest' },
      "Invalid option startingOffsets='newest'",
    );
    invalid(
      { subscribe: 't', startingOffsets: '{"t":{"x":1}}' },
      "'x' of topic 't' is not a partition number",
    );
    invalid(
      { subscribe: 't', startingOffsets: '{"t":{"0":-3}}' },
      't-0: an offset is -2 (earliest), -1 (latest)',
    );
    invalid({ subscribe: 't', maxOffsetsPerTrigger: 0 }, 'use a positive integer');
    invalid({ subscribe: 't', failOnDataLoss: 'maybe' }, "Invalid option failOnDataLoss='maybe'");
    invalid({ subscribe: 't', startingTimestamp: 'noon' }, 'use milliseconds since the epoch');
    invalid({ subscribe: 't', 'kafka.sasl.jaas.config': 'x' }, 'the Kafka source supports');
  });

  it('keep bounds for bounded reads and limits for streams', () => {
    invalid(
      { subscribe: 't', endingOffsets: 'latest' },
      'Option endingOffsets is for bounded reads',
    );
    invalid(
      { subscribe: 't', maxOffsetsPerTrigger: 5 },
      'Option maxOffsetsPerTrigger is for the batches of a stream',
      'batch',
    );
    invalid({ subscribe: 't', startingOffsets: 'latest' }, 'cannot start at latest', 'batch');
    invalid(
      { subscribe: 't', startingOffsets: '{"t":{"0":-1}}' },
      'cannot start at latest',
      'batch',
    );
    invalid({ subscribe: 't', endingOffsets: 'earliest' }, 'cannot end at earliest', 'batch');
    invalid({ subscribe: 't', endingOffsets: '{"t":{"0":-2}}' }, 'cannot end at earliest', 'batch');
  });

  it("read minOffsetsPerTrigger with maxTriggerDelay (15 minutes unless given, in Spark's units)", () => {
    expect(options({ subscribe: 't' })).toMatchObject({ maxTriggerDelayMs: 900_000 });
    expect(options({ subscribe: 't' }).minOffsetsPerTrigger).toBeUndefined();
    expect(options({ subscribe: 't', minOffsetsPerTrigger: '500' })).toMatchObject({
      minOffsetsPerTrigger: 500,
      maxTriggerDelayMs: 900_000,
    });
    const delay = (maxTriggerDelay: string) =>
      options({ subscribe: 't', minOffsetsPerTrigger: 1, maxTriggerDelay }).maxTriggerDelayMs;
    expect(delay('30s')).toBe(30_000);
    expect(delay('2m')).toBe(120_000);
    expect(delay('1 hour')).toBe(3_600_000);
    expect(delay('2500')).toBe(2_500);
    expect(delay('0')).toBe(0);
  });

  it('refuse maxTriggerDelay without a minimum, a minimum above the maximum, and bad values', () => {
    invalid({ subscribe: 't', maxTriggerDelay: '5m' }, 'set minOffsetsPerTrigger too');
    invalid(
      { subscribe: 't', minOffsetsPerTrigger: 100, maxOffsetsPerTrigger: 50 },
      'Option minOffsetsPerTrigger (100) is more than maxOffsetsPerTrigger (50)',
    );
    invalid(
      { subscribe: 't', minOffsetsPerTrigger: -1 },
      "Invalid option minOffsetsPerTrigger='-1'",
    );
    invalid(
      { subscribe: 't', minOffsetsPerTrigger: 1, maxTriggerDelay: 'soon' },
      "Invalid option maxTriggerDelay 'soon'",
    );
    invalid(
      { subscribe: 't', minOffsetsPerTrigger: 10 },
      'Option minOffsetsPerTrigger is for the batches of a stream',
      'batch',
    );
  });

  it('commit offsets to a consumer group unless commitOffsetsToGroup=false', () => {
    expect(options({ subscribe: 't' })).toMatchObject({ commitOffsetsToGroup: true });
    expect(options({ subscribe: 't' }).groupId).toBeUndefined();
    expect(options({ subscribe: 't', 'kafka.group.id': 'clicks-etl' })).toMatchObject({
      commitOffsetsToGroup: true,
      groupId: 'clicks-etl',
    });
    expect(
      options({ subscribe: 't', 'kafka.group.id': 'clicks-etl', commitOffsetsToGroup: 'false' }),
    ).toMatchObject({ commitOffsetsToGroup: false });
    invalid({ subscribe: 't', commitOffsetsToGroup: 'maybe' }, 'commitOffsetsToGroup');
    invalid({ subscribe: 't', 'kafka.group.id': ' ' }, 'Invalid option kafka.group.id');
    invalid(
      { subscribe: 't', 'kafka.group.id': 'g' },
      'Option kafka.group.id is for the batches of a stream',
      'batch',
    );
  });

  it('bound each call to the cluster by kafka.default.api.timeout.ms, 30 s unless given', () => {
    expect(options({ subscribe: 't' }).apiTimeoutMs).toBe(30_000);
    expect(options({ subscribe: 't', 'kafka.default.api.timeout.ms': '1500' }).apiTimeoutMs).toBe(
      1500,
    );
    expect(
      options({ subscribe: 't', 'kafka.default.api.timeout.ms': 900 }, 'batch').apiTimeoutMs,
    ).toBe(900);
    invalid(
      { subscribe: 't', 'kafka.default.api.timeout.ms': '0' },
      "Invalid option kafka.default.api.timeout.ms='0'",
    );
  });
});
