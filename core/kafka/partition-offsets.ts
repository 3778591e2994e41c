/**
 * Topic-partitions and offsets per topic-partition in Spark's JSON form,
 * `{"clicks":{"0":42,"1":17}}`: the form a Kafka source's offsets take in the checkpoint's intents,
 * in progress reports and in the `startingOffsets`/`endingOffsets` options.
 *
 * Invariant: every PartitionOffsets built here lists topics in code-point order (partitions, being
 * integer keys, are always in numeric order), so two equal positions have the same JSON text; the
 * engine compares offsets by their JSON (sources/source.ts).
 */
import { CheckpointError, InvalidOptionError } from '../errors.js';

/** One partition of one topic. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** An offset (or timestamp) per topic-partition: topic to partition id (as a string key) to value. */
export type PartitionOffsets = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** Kafka's name for a topic-partition in messages and logs: `clicks-0`. */
export function partitionName(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** Orders topic-partitions by topic, then partition: the order batches read them in. */
export function compareTopicPartitions(a: TopicPartition, b: TopicPartition): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}

/** The value for one topic-partition, or undefined when it is not listed. */
export function offsetOf(offsets: PartitionOffsets, tp: TopicPartition): number | undefined {
  return Object.hasOwn(offsets, tp.topic) ? offsets[tp.topic][String(tp.partition)] : undefined;
}

/** The listed topic-partitions with their values, in topic-partition order. */
export function offsetEntries(offsets: PartitionOffsets): [TopicPartition, number][] {
  const entries: [TopicPartition, number][] = [];
  for (const topic of Object.keys(offsets).sort()) {
    for (const [partition, offset] of Object.entries(offsets[topic])) {
      entries.push([{ topic, partition: Number(partition) }, offset]);
    }
  }
  return entries;
}

/** Builds the canonical PartitionOffsets (topics sorted) from values per topic-partition. */
export function offsetsFrom(
  entries: Iterable<readonly [TopicPartition, number]>,
): PartitionOffsets {
  const byTopic = new Map<string, Record<string, number>>();
  for (const [tp, offset] of entries) {
    let partitions = byTopic.get(tp.topic);
    if (!partitions) byTopic.set(tp.topic, (partitions = {}));
    partitions[String(tp.partition)] = offset;
  }
  const result: Record<string, Record<string, number>> = {};
  for (const topic of [...byTopic.keys()].sort()) result[topic] = byTopic.get(topic)!;
  return result;
}

/**
 * Parses a user's JSON option such as `startingOffsets` (`{"clicks":{"0":23,"1":-2}}`): every value
 * must be an integer; `allowed` checks each one and returns a reason when it is not acceptable.
 */
export function parseOffsetsOption(
  option: string,
  text: string,
  allowed: (value: number) => string | undefined,
): PartitionOffsets {
  const invalid = (why: string) =>
    new InvalidOptionError(
      `Invalid option ${option}='${text}': ${why}. Use JSON such as {"clicks":{"0":23,"1":-2}}.`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('not JSON');
  }
  const entries = partitionEntries(parsed);
  if (typeof entries === 'string') throw invalid(entries);
  for (const [tp, value] of entries) {
    const reason = allowed(value);
    if (reason) throw invalid(`${partitionName(tp)}: ${reason}`);
  }
  return offsetsFrom(entries);
}

/**
 * Reads offsets that come back from a checkpoint (an intent's start or end). Anything else than
 * Spark's form means the checkpoint was written by another source or damaged: continuing could read
 * the wrong records, so it is refused.
 */
export function checkpointedOffsets(offset: unknown, source: string): PartitionOffsets {
  const entries = partitionEntries(offset);
  if (typeof entries === 'string' || entries.some(([, o]) => o < 0)) {
    throw new CheckpointError(
      `${source}: the checkpoint holds offsets ${JSON.stringify(offset)}, which are not Kafka offsets per topic-partition. Start the query on a new checkpointLocation.`,
    );
  }
  return offsetsFrom(entries);
}

/** The entries of `{topic: {partition: integer}}`, or why the value does not have that shape. */
function partitionEntries(value: unknown): [TopicPartition, number][] | string {
  if (!isObject(value)) return 'expected an object of topics';
  const entries: [TopicPartition, number][] = [];
  for (const [topic, partitions] of Object.entries(value)) {
    if (!isObject(partitions)) return `topic '${topic}' needs an object of partitions`;
    for (const [partition, offset] of Object.entries(partitions)) {
      if (!/^(0|[1-9]\d{0,9})$/.test(partition) || Number(partition) > 2 ** 31 - 1) {
        return `'${partition}' of topic '${topic}' is not a partition number`;
      }
      if (!Number.isSafeInteger(offset)) {
        return `the value for ${topic}-${partition} is not an integer`;
      }
      entries.push([{ topic, partition: Number(partition) }, offset as number]);
    }
  }
  return entries;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
