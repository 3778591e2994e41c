/**
 * The options of the Kafka source, as Spark names them, checked when the DataFrame is created: every
 * mistake fails there, with the option's name, rather than in the first batch.
 *
 * A stream (`readStream`) starts at `latest` unless told otherwise and has no end; a bounded read
 * (`read`) reads [startingOffsets, endingOffsets), by default everything from earliest to latest.
 */
import { InvalidOptionError } from '../errors.js';
import { parseDuration } from '../types/duration.js';
import type { IsolationLevel } from './kafka-partition-reader.js';
import {
  EARLIEST_OFFSET,
  LATEST_OFFSET,
  type NoOffsetForTimestamp,
  type OffsetSpec,
} from './kafka-offset-spec.js';
import { kafkaSecurity, type KafkaSecurity, SECURITY_OPTION_NAMES } from './kafka-security.js';
import type { Subscription } from './kafka-subscription.js';
import { offsetEntries, parseOffsetsOption, type TopicPartition } from './partition-offsets.js';

/** A raw option value as users pass it. */
type RawOption = string | number | boolean;

/** Whether the source is read as a stream or as a bounded table. */
export type KafkaReadMode = 'stream' | 'batch';

/** The checked options of a Kafka source. */
export interface KafkaSourceOptions {
  /** `kafka.bootstrap.servers`, split at commas. */
  readonly bootstrapServers: readonly string[];
  /** TLS and SASL (kafka-security.ts). @default PLAINTEXT */
  readonly security: KafkaSecurity;
  readonly subscription: Subscription;
  /** @default latest for a stream, earliest for a bounded read */
  readonly startingOffsets: OffsetSpec;
  /** Bounded reads only. @default latest */
  readonly endingOffsets: OffsetSpec;
  /** @default 'error' */
  readonly startingOffsetsByTimestampStrategy: NoOffsetForTimestamp;
  /** Streams only: the most offsets one batch reads, over all partitions. @default no limit */
  readonly maxOffsetsPerTrigger?: number;
  /**
   * Streams only: a trigger with fewer new offsets (over all partitions) runs no batch, unless
   * `maxTriggerDelayMs` passed since the last batch. @default no minimum
   */
  readonly minOffsetsPerTrigger?: number;
  /** `maxTriggerDelay`: how long minOffsetsPerTrigger may hold batches back. @default 15 minutes */
  readonly maxTriggerDelayMs: number;
  /**
   * Streams only (`commitOffsetsToGroup`): whether each committed batch's end offsets are copied to a
   * consumer group, for tools that watch consumer lag. Reading never uses the group. @default true
   */
  readonly commitOffsetsToGroup: boolean;
  /** `kafka.group.id`: the group the offsets are copied to. @default `sluice-<queryId>` */
  readonly groupId?: string;
  /** @default true */
  readonly failOnDataLoss: boolean;
  /** @default false */
  readonly includeHeaders: boolean;
  /** `kafka.isolation.level`. @default 'read_committed' */
  readonly isolationLevel: IsolationLevel;
  /**
   * `kafka.default.api.timeout.ms`: how long one call to the cluster (finding the partitions, listing
   * offsets, one fetch) may take before it fails with a retriable SourceError naming the brokers, so
   * a broker that hangs cannot hold a batch up. @default 30 s (Kafka's consumer waits 60 s)
   */
  readonly apiTimeoutMs: number;
}

/** The options of the Kafka source, spelt as Spark spells them. */
export const KAFKA_SOURCE_OPTIONS: readonly string[] = [
  'kafka.bootstrap.servers',
  'subscribe',
  'subscribePattern',
  'assign',
  'startingOffsets',
  'startingTimestamp',
  'startingOffsetsByTimestamp',
  'startingOffsetsByTimestampStrategy',
  'endingOffsets',
  'endingTimestamp',
  'endingOffsetsByTimestamp',
  'maxOffsetsPerTrigger',
  'minOffsetsPerTrigger',
  'maxTriggerDelay',
  'failOnDataLoss',
  'includeHeaders',
  'kafka.isolation.level',
  'kafka.default.api.timeout.ms',
  'kafka.group.id',
  'commitOffsetsToGroup',
  ...SECURITY_OPTION_NAMES,
];
/** The default of kafka.default.api.timeout.ms: half the Java consumer's, as every call is a short one. */
const DEFAULT_API_TIMEOUT_MS = 30_000;
/** Spark's default maxTriggerDelay. */
const DEFAULT_MAX_TRIGGER_DELAY_MS = 15 * 60_000;
const SPELLING = new Map(KAFKA_SOURCE_OPTIONS.map((n) => [n.toLowerCase(), n]));

/** Checks raw options (keyed by lower-cased name, as the readers keep them) for `mode`. */
export function kafkaOptions(
  raw: ReadonlyMap<string, RawOption>,
  mode: KafkaReadMode,
): KafkaSourceOptions {
  const unknown = [...raw.keys()].filter((k) => !SPELLING.has(k));
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `Unknown Kafka source option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}; the Kafka source supports ${KAFKA_SOURCE_OPTIONS.join(', ')}.`,
    );
  }
  const text = (name: string): string | undefined => {
    const value = raw.get(name.toLowerCase());
    return value === undefined ? undefined : String(value).trim();
  };
  const servers = text('kafka.bootstrap.servers');
  if (!servers) {
    throw new InvalidOptionError(
      "The Kafka source needs option('kafka.bootstrap.servers', 'host:port,...').",
    );
  }
  const bounded = ['endingOffsets', 'endingTimestamp', 'endingOffsetsByTimestamp'].filter(
    (n) => text(n) !== undefined,
  );
  if (mode === 'stream' && bounded.length > 0) {
    throw new InvalidOptionError(
      `Option ${bounded[0]} is for bounded reads (session.read); a stream (session.readStream) has no end.`,
    );
  }
  const streamOnly = [
    'maxOffsetsPerTrigger',
    'minOffsetsPerTrigger',
    'maxTriggerDelay',
    'kafka.group.id',
    'commitOffsetsToGroup',
  ].filter((n) => text(n) !== undefined);
  if (mode === 'batch' && streamOnly.length > 0) {
    throw new InvalidOptionError(
      `Option ${streamOnly[0]} is for the batches of a stream (session.readStream); a bounded read (session.read) reads [startingOffsets, endingOffsets) at once.`,
    );
  }
  const given = (name: string): string | undefined => {
    const value = raw.get(name.toLowerCase());
    return value === undefined ? undefined : String(value);
  };
  return {
    bootstrapServers: servers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    // credentials and PEM text as given: a password may well end in a space
    security: kafkaSecurity(given),
    ...triggerLimits(text),
    ...groupCommit(text, mode),
    subscription: subscription(text),
    startingOffsets: offsetSpec('starting', mode, text),
    endingOffsets: offsetSpec('ending', mode, text),
    startingOffsetsByTimestampStrategy:
      oneOf(
        'startingOffsetsByTimestampStrategy',
        text('startingOffsetsByTimestampStrategy')?.toLowerCase(),
        ['error', 'latest'] as const,
      ) ?? 'error',
    failOnDataLoss:
      oneOf('failOnDataLoss', text('failOnDataLoss')?.toLowerCase(), ['true', 'false'] as const) !==
      'false',
    includeHeaders:
      oneOf('includeHeaders', text('includeHeaders')?.toLowerCase(), ['true', 'false'] as const) ===
      'true',
    isolationLevel:
      oneOf('kafka.isolation.level', text('kafka.isolation.level')?.toLowerCase(), [
        'read_committed',
        'read_uncommitted',
      ] as const) ?? 'read_committed',
    apiTimeoutMs:
      positiveInteger('kafka.default.api.timeout.ms', text('kafka.default.api.timeout.ms')) ??
      DEFAULT_API_TIMEOUT_MS,
  };
}

/**
 * maxOffsetsPerTrigger, minOffsetsPerTrigger and maxTriggerDelay (Spark 3.3's names and default);
 * maxTriggerDelay is a duration such as '15m' or '30 seconds', or milliseconds.
 */
function triggerLimits(text: (name: string) => string | undefined) {
  const maxOffsetsPerTrigger = positiveInteger(
    'maxOffsetsPerTrigger',
    text('maxOffsetsPerTrigger'),
  );
  const minOffsetsPerTrigger = positiveInteger(
    'minOffsetsPerTrigger',
    text('minOffsetsPerTrigger'),
  );
  const delay = text('maxTriggerDelay');
  if (delay !== undefined && minOffsetsPerTrigger === undefined) {
    throw new InvalidOptionError(
      'Option maxTriggerDelay bounds how long minOffsetsPerTrigger holds batches back; set minOffsetsPerTrigger too, or remove maxTriggerDelay.',
    );
  }
  if (
    minOffsetsPerTrigger !== undefined &&
    maxOffsetsPerTrigger !== undefined &&
    minOffsetsPerTrigger > maxOffsetsPerTrigger
  ) {
    throw new InvalidOptionError(
      `Option minOffsetsPerTrigger (${minOffsetsPerTrigger}) is more than maxOffsetsPerTrigger (${maxOffsetsPerTrigger}): batches would wait for more offsets than one may read. Lower minOffsetsPerTrigger or raise maxOffsetsPerTrigger.`,
    );
  }
  const maxTriggerDelayMs =
    delay === undefined
      ? DEFAULT_MAX_TRIGGER_DELAY_MS
      : /^\d+$/.test(delay)
        ? Number(delay)
        : parseDuration(delay, 'option maxTriggerDelay', true) / 1000;
  return { maxOffsetsPerTrigger, minOffsetsPerTrigger, maxTriggerDelayMs };
}

/** `commitOffsetsToGroup` (true for streams unless 'false') and `kafka.group.id`. */
function groupCommit(
  text: (name: string) => string | undefined,
  mode: KafkaReadMode,
): Pick<KafkaSourceOptions, 'commitOffsetsToGroup' | 'groupId'> {
  const groupId = text('kafka.group.id');
  const commit = oneOf('commitOffsetsToGroup', text('commitOffsetsToGroup')?.toLowerCase(), [
    'true',
    'false',
  ] as const);
  if (groupId === '') {
    throw new InvalidOptionError('Invalid option kafka.group.id: name a consumer group.');
  }
  return { commitOffsetsToGroup: mode === 'stream' && commit !== 'false', groupId };
}

function subscription(text: (name: string) => string | undefined): Subscription {
  const given = ['subscribe', 'subscribePattern', 'assign'].filter((n) => text(n) !== undefined);
  if (given.length !== 1) {
    throw new InvalidOptionError(
      given.length === 0
        ? 'The Kafka source needs one of the options subscribe (topics), subscribePattern (a regular expression) or assign (JSON {"topic":[partitions]}).'
        : `The Kafka source takes only one of the options subscribe, subscribePattern and assign; got ${given.join(' and ')}.`,
    );
  }
  const value = text(given[0])!;
  if (given[0] === 'subscribe') {
    const topics = [...new Set(value.split(',').map((t) => t.trim()))].filter(Boolean);
    if (topics.length === 0) {
      throw new InvalidOptionError(
        `Invalid option subscribe='${value}': name one or more topics, separated by commas.`,
      );
    }
    return { kind: 'subscribe', topics };
  }
  if (given[0] === 'subscribePattern') {
    try {
      return { kind: 'subscribePattern', pattern: value, matcher: new RegExp(`^(?:${value})$`) };
    } catch (e) {
      throw new InvalidOptionError(
        `Invalid option subscribePattern='${value}': not a regular expression (${(e as Error).message}).`,
      );
    }
  }
  return { kind: 'assign', partitions: assignedPartitions(value) };
}

/** Parses `assign`, Spark's `{"clicks":[0,1],"views":[2]}`. */
function assignedPartitions(value: string): TopicPartition[] {
  const invalid = () =>
    new InvalidOptionError(
      `Invalid option assign='${value}': use JSON such as {"clicks":[0,1],"views":[2]}.`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  const partitions: TopicPartition[] = [];
  for (const [topic, list] of Object.entries(parsed)) {
    if (!Array.isArray(list)) throw invalid();
    for (const p of list) {
      if (!Number.isInteger(p) || (p as number) < 0) throw invalid();
      partitions.push({ topic, partition: p as number });
    }
  }
  if (partitions.length === 0) throw invalid();
  return partitions;
}

/**
 * The starting or ending position. Spark's precedence: a timestamp for all partitions, then
 * timestamps per partition, then offsets. A bounded read cannot start at latest nor end at earliest.
 */
function offsetSpec(
  role: 'starting' | 'ending',
  mode: KafkaReadMode,
  text: (name: string) => string | undefined,
): OffsetSpec {
  const timestampOption = `${role}Timestamp`;
  const timestamp = text(timestampOption);
  if (timestamp !== undefined) {
    const timestampMs = Number(timestamp);
    if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
      throw new InvalidOptionError(
        `Invalid option ${timestampOption}='${timestamp}': use milliseconds since the epoch.`,
      );
    }
    return { kind: 'timestamp', option: timestampOption, timestampMs };
  }
  const byTimestampOption = `${role}OffsetsByTimestamp`;
  const byTimestamp = text(byTimestampOption);
  if (byTimestamp !== undefined) {
    const timestamps = parseOffsetsOption(byTimestampOption, byTimestamp, (t) =>
      t < 0 ? 'a timestamp is milliseconds since the epoch' : undefined,
    );
    return { kind: 'timestamps', option: byTimestampOption, timestamps };
  }
  const option = `${role}Offsets`;
  const forbidden = role === 'starting' ? 'latest' : 'earliest';
  const forbiddenValue = role === 'starting' ? LATEST_OFFSET : EARLIEST_OFFSET;
  const value =
    text(option) ??
    (role === 'starting' && mode === 'stream'
      ? 'latest'
      : role === 'starting'
        ? 'earliest'
        : 'latest');
  const word = value.toLowerCase();
  const notInBatch = () =>
    new InvalidOptionError(
      `Invalid option ${option}='${value}': a bounded read (session.read) cannot ${role === 'starting' ? 'start at latest' : 'end at earliest'}.`,
    );
  if (word === 'earliest' || word === 'latest') {
    if (mode === 'batch' && word === forbidden) throw notInBatch();
    return { kind: word };
  }
  const offsets = parseOffsetsOption(option, value, (o) =>
    o < EARLIEST_OFFSET
      ? 'an offset is -2 (earliest), -1 (latest) or a non-negative number'
      : undefined,
  );
  if (mode === 'batch' && offsetEntries(offsets).some(([, o]) => o === forbiddenValue)) {
    throw notInBatch();
  }
  return { kind: 'offsets', option, offsets };
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidOptionError(`Invalid option ${name}='${value}'; use a positive integer.`);
  }
  return n;
}

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidOptionError(`Invalid option ${name}='${value}'; use ${allowed.join(' or ')}.`);
}
