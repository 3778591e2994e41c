/**
 * RepartitionSink: the sink of stage 1 of a split query (core/plan/stage-split.ts). It writes each
 * batch's rows to the repartition topic in pages, many rows to a record, for stage 2 to read
 * (repartition-source.ts).
 *
 * For a batch it takes these steps, in order:
 *   1. find each row's partition: hash(its key columns in the row binary codec) mod partitions;
 *   2. append the row to its partition's page (core/io/row-binary-codec.ts), in the batch's order;
 *      a page that reaches `pageBytes` is closed and the next row starts another;
 *   3. send the pages, numbered 0 .. m-1 as they close and stamped (repartition-records.ts) with
 *      this shard's stage and shard, the batch and seq = the page's number, each with the least and
 *      largest event time of its rows, and wait for the brokers' acknowledgement;
 *   4. only then send one watermark marker to every partition p, with seq m + p, whose value is the
 *      largest event time of the batch's rows (decimal microseconds), or none.
 * Every row of one key thus lands in one partition, and so reaches the one stage-2 shard that reads
 * it (partition mod stage 2's shards). A marker follows all of its batch's rows in its partition, so
 * the event time it announces covers every row stage 2 has read from that shard before it.
 *
 * Idempotence: a re-run of a batch (a crash between the sink and the commit) computes the same rows
 * in the same order from its intent, so it cuts the same pages, its records carry the same stamps
 * as the first attempt's, and stage 2 drops them by the dedup rule. Nothing here depends on what an
 * earlier attempt wrote.
 */
import type { ShardIdentity } from '../checkpoint/shard-identity.js';
import { InvalidOptionError } from '../errors.js';
import { type EventTimeColumn, eventTimeColumn, eventTimeOf } from '../exec/event-time-column.js';
import { ReusedRowEncoder, RowPageEncoder } from '../io/row-binary-codec.js';
import { openedSink, type OutputMode, type Sink, type SinkContext } from '../sinks/sink.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { KafkaRecordWriter, OutgoingRecord } from './kafka-record-writer.js';
import { type EventTimeRange, eventTimesHeader, stampHeaders } from './repartition-records.js';

/**
 * How large a page grows before it is closed: well under the brokers' default message.max.bytes
 * (1 MB), which a record batch must fit, and large enough that a batch of ten thousand clicks is a
 * page or two per partition.
 */
export const DEFAULT_PAGE_BYTES = 256 * 1024;

/** Where and as whom stage 1 writes. */
export interface RepartitionSinkOptions {
  /** The repartition topic: one the query owns, that nothing else writes to. */
  readonly topic: string;
  /**
   * How many partitions the topic has; every one of them gets the batch's markers. A multiple of
   * stage 2's shards spreads the keys evenly over them.
   */
  readonly partitions: number;
  /** The columns of stage 1's rows that key the records (the split's `keyColumns`). */
  readonly keyColumns: readonly string[];
  /** The stage-1 shard this sink writes for. */
  readonly shard: ShardIdentity;
  /**
   * The size at which a page is closed (a row larger than it is a page alone).
   * @default DEFAULT_PAGE_BYTES
   */
  readonly pageBytes?: number;
}

/** A page being filled: its rows' encoding and event-time range. */
interface OpenPage {
  readonly partition: number;
  readonly encoder: RowPageEncoder;
  range: EventTimeRange | null;
}

/** What `open` prepares for every batch. */
interface Opened {
  readonly queryId: string;
  readonly schema: StructType;
  readonly keySchema: StructType;
  readonly keyIndexes: readonly number[];
  readonly eventTime: EventTimeColumn | undefined;
}

/** Stage 1's sink: rows to the repartition topic, keyed by the grouping key, stamped for dedup. */
export class RepartitionSink implements Sink {
  readonly description: string;
  private opened: Opened | undefined;

  constructor(
    private readonly options: RepartitionSinkOptions,
    private readonly writer: KafkaRecordWriter,
  ) {
    this.description = `RepartitionSink[${options.topic}]`;
    if (!Number.isSafeInteger(options.partitions) || options.partitions < 1) {
      throw new InvalidOptionError(
        `${this.description}: partitions is ${options.partitions}; give the repartition topic's partition count, a whole number of at least 1 (a multiple of stage 2's shards).`,
      );
    }
    if (options.keyColumns.length === 0) {
      throw new InvalidOptionError(
        `${this.description}: no key columns; give the stage split's keyColumns, which decide the stage-2 shard of each row.`,
      );
    }
  }

  /** Finds the key columns in the rows' schema; learns the query's id. */
  async open(context: SinkContext): Promise<void> {
    const fields = context.schema.fields;
    const keyIndexes = this.options.keyColumns.map((name) => {
      const i = fields.findIndex((f) => f.name === name);
      if (i < 0) {
        throw new InvalidOptionError(
          `${this.description}: key column '${name}' is not among stage 1's columns (${fields.map((f) => f.name).join(', ')}); give the keyColumns of the stage split that made stage 1's plan.`,
        );
      }
      return i;
    });
    this.opened = {
      queryId: context.queryId,
      schema: context.schema,
      keySchema: { kind: 'struct', fields: keyIndexes.map((i) => fields[i]) },
      keyIndexes,
      eventTime: eventTimeColumn(context.schema),
    };
  }

  /** Sends the batch's pages, then, once they are acknowledged, its markers (module doc). */
  async addBatch(
    batchId: number,
    rows: readonly Row[],
    _schema: StructType,
    _outputMode: OutputMode,
  ): Promise<void> {
    const opened = openedSink(this.opened, { sink: this.description, batchId });
    const { topic, partitions } = this.options;
    const stamp = (seq: number, marker: boolean) =>
      stampHeaders({ ...this.options.shard, queryId: opened.queryId, batchId, seq, marker });
    const pages = this.pages(rows, opened);
    const records = pages.map((page, seq): OutgoingRecord => ({
      topic,
      partition: page.partition,
      key: null,
      value: page.encoder.finish(),
      headers: [...stamp(seq, false), ...(page.range ? [eventTimesHeader(page.range)] : [])],
    }));
    if (records.length > 0) await this.writer.send(records);
    let largest: number | undefined;
    for (const { range } of pages)
      if (range) largest = Math.max(largest ?? -Infinity, range.largest);
    const markers = Array.from({ length: partitions }, (_, partition): OutgoingRecord => ({
      topic,
      partition,
      key: null,
      value: largest === undefined ? null : String(largest),
      headers: stamp(pages.length + partition, true),
    }));
    await this.writer.send(markers);
  }

  /** The batch's rows in pages, in the order they close (steps 1 and 2 of the module doc). */
  private pages(rows: readonly Row[], opened: Opened): OpenPage[] {
    const pageBytes = this.options.pageBytes ?? DEFAULT_PAGE_BYTES;
    const filling = new Map<number, OpenPage>();
    const closed: OpenPage[] = [];
    const keys = new ReusedRowEncoder(opened.keySchema);
    const key: unknown[] = new Array(opened.keyIndexes.length);
    for (const row of rows) {
      for (let k = 0; k < key.length; k++) key[k] = row[opened.keyIndexes[k]];
      const partition = keyPartition(keys.encode(key), this.options.partitions);
      let page = filling.get(partition);
      if (!page) {
        page = { partition, encoder: new RowPageEncoder(opened.schema), range: null };
        filling.set(partition, page);
      }
      page.encoder.add(row);
      const t = opened.eventTime && eventTimeOf(row, opened.eventTime);
      if (t !== undefined) page.range = widened(page.range, t);
      if (page.encoder.byteLength >= pageBytes) {
        closed.push(page);
        filling.delete(partition);
      }
    }
    const rest = [...filling.values()].sort((a, b) => a.partition - b.partition);
    return [...closed, ...rest];
  }

  /** Disconnects the writer; a later batch connects again. */
  async close(): Promise<void> {
    await this.writer.close();
  }
}

/**
 * The partition of an encoded key: FNV-1a (32 bits) of its bytes, finished with MurmurHash3's
 * 32-bit mixer, mod `partitions`. FNV-1a's low bits depend only on the low bits of each byte, so
 * mod a power of two, without the mixer, short keys crowd into a few partitions (five category names
 * into two of four). Any fixed hash does otherwise, as long as every stage-1 shard and version uses
 * the same one: stage 2 only needs each key in one partition.
 */
export function keyPartition(key: Uint8Array, partitions: number): number {
  let h = 0x811c9dc5;
  for (const b of key) h = Math.imul(h ^ b, 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % partitions;
}

/** `range` widened to hold `t`. */
function widened(range: EventTimeRange | null, t: number): EventTimeRange {
  if (!range) return { least: t, largest: t };
  if (t >= range.least && t <= range.largest) return range;
  return { least: Math.min(range.least, t), largest: Math.max(range.largest, t) };
}
