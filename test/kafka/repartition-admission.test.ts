/**
 * What stage 2 admits from the repartition topic: the header dedup rule (per partition and stage-1
 * shard, only records above the highest (batch, seq) admitted) and the watermark rule (no row above
 * the slowest stage-1 shard's markers).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admit,
  admittedRows,
  eventTimeCeiling,
  type PartitionRead,
  type RepartitionPosition,
  type StampedRecord,
} from '../../core/kafka/repartition-admission.js';
import {
  isNewRecord,
  readStamp,
  type RecordStamp,
  stampHeaders,
} from '../../core/kafka/repartition-records.js';

const START: RepartitionPosition = { offsets: {}, admitted: {}, eventTime: {}, shards: 0 };

function stamp(shard: number, batchId: number, seq: number, marker = false): RecordStamp {
  return { queryId: `stage1-${shard}`, stage: 1, shard, shards: 2, batchId, seq, marker };
}

/** A page of one row, [label, event time]. */
function row(offset: number, s: RecordStamp, label: string, eventTime: number): StampedRecord {
  return page(offset, s, [[label, eventTime]]);
}

/** A page of rows [label, event time], with their event-time range as its header gives it. */
function page(offset: number, s: RecordStamp, rows: [string, number][]): StampedRecord {
  const times = rows.map(([, t]) => t);
  return {
    offset,
    stamp: s,
    rows: () => rows,
    eventTime: Math.max(...times),
    leastEventTime: Math.min(...times),
  };
}

function marker(offset: number, s: RecordStamp, eventTime: number | null): StampedRecord {
  return { offset, stamp: { ...s, marker: true }, eventTime };
}

function partition(records: StampedRecord[], p = 0): PartitionRead {
  return { partition: p, records, end: (records.at(-1)?.offset ?? -1) + 1 };
}

describe('the dedup rule of the repartition source', () => {
  it('admits a record only above the highest (batch, seq) admitted from its shard', () => {
    expect(isNewRecord(stamp(0, 3, 5), undefined)).toBe(true);
    expect(isNewRecord(stamp(0, 3, 5), [3, 4])).toBe(true);
    expect(isNewRecord(stamp(0, 4, 0), [3, 9])).toBe(true);
    expect(isNewRecord(stamp(0, 3, 5), [3, 5])).toBe(false);
    expect(isNewRecord(stamp(0, 2, 9), [3, 0])).toBe(false);
  });

  it("drops the re-run batch's copies, even of a write cut short, and keeps shards apart", () => {
    const records = [
      row(0, stamp(0, 1, 0), 'a', 1),
      row(1, stamp(0, 1, 1), 'b', 1), // attempt 1 of batch 1 died here
      row(2, stamp(1, 7, 0), 'x', 1), // another shard: its own numbering
      row(3, stamp(0, 1, 0), 'a', 1), // attempt 2 writes batch 1 again
      row(4, stamp(0, 1, 1), 'b', 1),
      row(5, stamp(0, 1, 2), 'c', 1),
      row(6, stamp(1, 7, 0), 'x', 1), // shard 1 re-ran too
      row(7, stamp(0, 2, 0), 'd', 1),
    ];
    const result = admit(START, [partition(records)], Infinity);
    expect(admittedRows(result).map((r) => r[0])).toEqual(['a', 'b', 'x', 'c', 'd']);
    expect(result.duplicates).toBe(3);
    expect(result.position.admitted).toEqual({ 0: { 0: [2, 0], 1: [7, 0] } });
    expect(result.position.offsets).toEqual({ 0: 8 });
  });

  it('drops what a zombie attempt of an older batch writes late', () => {
    const first = admit(START, [partition([row(0, stamp(0, 5, 0), 'new', 1)])], Infinity);
    const late = admit(first.position, [partition([row(1, stamp(0, 4, 3), 'old', 1)])], Infinity);
    expect(admittedRows(late)).toEqual([]);
    expect(late.duplicates).toBe(1);
  });

  it('gives every cut of the topic into batches the rows of one pass over it', () => {
    // any interleaving of first attempts and re-runs: copies re-send a prefix of a batch already sent
    const writes = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 4 }), fc.boolean()),
      {
        minLength: 1,
        maxLength: 12,
      },
    );
    fc.assert(
      fc.property(
        writes,
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1 }),
        (batches, cuts) => {
          const next = [0, 0];
          const records: StampedRecord[] = [];
          const expected: string[] = [];
          for (const [shard, size, rerun] of batches) {
            const batchId = next[shard]++;
            for (let attempt = 0; attempt < (rerun ? 2 : 1); attempt++) {
              const written = attempt === 0 && rerun ? Math.ceil(size / 2) : size;
              for (let seq = 0; seq < written; seq++) {
                records.push(
                  row(records.length, stamp(shard, batchId, seq), `${shard}/${batchId}/${seq}`, 1),
                );
              }
            }
            for (let seq = 0; seq < size; seq++) expected.push(`${shard}/${batchId}/${seq}`);
          }
          let position = START;
          const seen: string[] = [];
          let at = 0;
          for (let i = 0; at < records.length; i++) {
            const upto = Math.min(records.length, at + cuts[i % cuts.length]);
            const result = admit(
              position,
              [{ partition: 0, records: records.slice(at, upto), end: upto }],
              Infinity,
            );
            seen.push(...admittedRows(result).map((r) => r[0] as string));
            position = result.position;
            at = upto;
          }
          expect([...seen].sort()).toEqual([...expected].sort());
        },
      ),
    );
  });

  it('round-trips the stamp header of a record, a query id with | in it too', () => {
    const encoded = (s: RecordStamp) =>
      stampHeaders(s).map((h) => ({
        key: h.key,
        value: new TextEncoder().encode(String(h.value)),
      }));
    const s = stamp(1, 42, 7, true);
    expect(readStamp(encoded(s), 'record t-0@3')).toEqual(s);
    const piped = { ...stamp(0, 3, 2, false), queryId: 'clicks|eu' };
    expect(readStamp(encoded(piped), 'record t-0@3')).toEqual(piped);
    expect(() => readStamp([], 'record t-0@3')).toThrow(
      /record t-0@3 has no valid sluice-stamp header \(none;/,
    );
    const bad = (value: string) => () =>
      readStamp([{ key: 'sluice-stamp', value: new TextEncoder().encode(value) }], 'record t-0@3');
    for (const value of ['1|0|2|7', '1||2|7|3|0|q', '1|0|2|7|3|2|q', '1|0|-2|7|3|0|q']) {
      expect(bad(value)).toThrow(/has no valid sluice-stamp header/);
    }
  });
});

describe('the watermark rule of the repartition source', () => {
  it('knows no ceiling before every stage-1 shard has sent a marker', () => {
    const reads = [partition([row(0, stamp(0, 0, 0), 'a', 100), marker(1, stamp(0, 0, 1), 100)])];
    expect(eventTimeCeiling(START, reads, true)).toBe(-Infinity);
    expect(eventTimeCeiling(START, reads, false)).toBe(Infinity);
  });

  it("holds a partition back at the first row above the slowest shard's markers", () => {
    const reads = [
      partition([
        row(0, stamp(0, 0, 0), 'slow', 100),
        marker(1, stamp(0, 0, 1), 100),
        row(2, stamp(1, 0, 0), 'fast', 900),
        row(3, stamp(0, 1, 0), 'slow later', 150),
      ]),
      partition([marker(0, stamp(1, 0, 2), 900), marker(1, stamp(0, 0, 2), 100)], 1),
    ];
    const ceiling = eventTimeCeiling(START, reads, true);
    expect(ceiling).toBe(100);
    const result = admit(START, reads, ceiling);
    expect(admittedRows(result).map((r) => r[0])).toEqual(['slow']);
    expect(result.heldBack).toBe(2);
    expect(result.position.offsets).toEqual({ 0: 2, 1: 2 });
    expect(result.position.eventTime).toEqual({ 0: 100, 1: 900 });
    expect(result.position.shards).toBe(2);

    // the slow shard catches up: what was held is admitted, in order
    const more = [
      partition([
        row(2, stamp(1, 0, 0), 'fast', 900),
        row(3, stamp(0, 1, 0), 'slow later', 150),
        marker(4, stamp(0, 1, 1), 950),
      ]),
      partition([marker(2, stamp(0, 1, 2), 950)], 1),
    ];
    const next = admit(result.position, more, eventTimeCeiling(result.position, more, true));
    expect(admittedRows(next).map((r) => r[0])).toEqual(['fast', 'slow later']);
    expect(next.heldBack).toBe(0);
  });
});

describe('the rows the repartition source holds back', () => {
  it('keeps the least event time of the new rows behind the stop, older ones than those admitted too', () => {
    // shard 1's batch wrote one source partition's rows (up to 400), then another's from 120 on
    const reads = [
      partition([
        row(0, stamp(0, 0, 0), 'slow', 300),
        marker(1, stamp(0, 0, 9), 300),
        row(2, stamp(1, 0, 0), 'fast', 110),
        row(3, stamp(1, 0, 1), 'fast', 400),
        row(4, stamp(1, 0, 2), 'fast, older', 120),
        marker(5, stamp(1, 0, 9), 400),
      ]),
    ];
    const held = admit(START, reads, eventTimeCeiling(START, reads, true));
    expect(admittedRows(held).map((r) => r[1])).toEqual([300, 110]);
    expect(held.position.heldBackEventTime).toBe(120);

    // read again from the stop with the copy of an admitted row ahead: the copy holds nothing back
    const again = [
      partition([
        row(3, stamp(1, 0, 1), 'fast', 400),
        row(4, stamp(1, 0, 0), 'copy', 50),
        row(5, stamp(1, 0, 2), 'fast, older', 120),
      ]),
    ];
    const position = { ...held.position, offsets: { 0: 3 } };
    expect(admit(position, again, 300).position.heldBackEventTime).toBe(120);
    // nothing held back: nothing to keep
    expect(admit(position, again, 400).position.heldBackEventTime).toBeUndefined();
  });
});

describe('the idleness rule of the repartition source', () => {
  const MINUTE = 60_000;

  /** A marker with an event time, written by stage 1 at `atMs`. */
  function heardAt(offset: number, s: RecordStamp, eventTime: number | null, atMs: number) {
    return { ...marker(offset, s, eventTime), timestampMs: atMs };
  }

  it('leaves out a stage-1 shard never heard from once the others have written for longer than the idle timeout', () => {
    const early = [partition([heardAt(0, stamp(0, 0, 0), 100, 0)])];
    expect(eventTimeCeiling(START, early, true)).toBe(-Infinity);
    const late = [
      partition([heardAt(0, stamp(0, 0, 0), 100, 0), heardAt(1, stamp(0, 1, 0), 700, 6 * MINUTE)]),
    ];
    expect(eventTimeCeiling(START, late, true)).toBe(700);
    // the idle timeout is the source's to choose
    expect(eventTimeCeiling(START, late, true, 10 * MINUTE)).toBe(-Infinity);
  });

  it('leaves out a shard that went quiet, and counts it again when it writes', () => {
    const quiet = [
      partition([
        heardAt(0, stamp(1, 0, 0), 200, 0),
        heardAt(1, stamp(0, 0, 0), 300, 0),
        heardAt(2, stamp(0, 1, 0), 900, 4 * MINUTE),
      ]),
    ];
    expect(eventTimeCeiling(START, quiet, true)).toBe(200); // four minutes: not idle yet
    const after = admit(START, quiet, 200).position;
    const later = [partition([heardAt(3, stamp(0, 2, 0), 1000, 6 * MINUTE)])];
    later[0] = { ...later[0], end: 4 };
    expect(eventTimeCeiling(after, later, true)).toBe(1000);
    const back = [partition([heardAt(4, stamp(1, 1, 0), 400, 7 * MINUTE)])];
    expect(eventTimeCeiling(admit(after, later, 1000).position, back, true)).toBe(400);
  });

  it('keeps what it heard in the position, across batches', () => {
    const first = admit(START, [partition([heardAt(0, stamp(0, 0, 0), 100, 5)])], Infinity);
    expect(first.position.heardAtMs).toEqual({ 0: 5 });
    expect(first.position.firstHeardAtMs).toBe(5);
    const reads = [partition([heardAt(1, stamp(0, 1, 0), 200, 6 * MINUTE)])];
    reads[0] = { ...reads[0], end: 2 };
    // shard 1 was never heard from: measured from the first marker the position remembers
    expect(eventTimeCeiling(first.position, reads, true)).toBe(200);
  });

  it('does not count a marker without an event time as heard from', () => {
    const reads = [
      partition([
        heardAt(0, stamp(1, 0, 0), null, 0),
        heardAt(1, stamp(0, 0, 0), 100, 0),
        heardAt(2, stamp(1, 1, 0), null, 6 * MINUTE),
        heardAt(3, stamp(0, 1, 0), 700, 6 * MINUTE),
      ]),
    ];
    // shard 1 runs batches but has sent no event time for six minutes: it is idle
    expect(eventTimeCeiling(START, reads, true)).toBe(700);
  });

  it('applies no idleness to markers without a timestamp', () => {
    const reads = [partition([marker(0, stamp(0, 0, 0), 100), marker(1, stamp(0, 1, 0), 900)])];
    expect(eventTimeCeiling(START, reads, true)).toBe(-Infinity);
  });

  it('holds back a page whole when any of its rows is above the ceiling, and keeps its least time', () => {
    const reads = [
      partition([
        page(0, stamp(0, 0, 0), [
          ['a', 100],
          ['b', 250],
        ]),
        marker(1, stamp(0, 0, 9), 250),
        page(2, stamp(1, 0, 0), [
          ['old', 90],
          ['new', 400],
        ]),
        marker(3, stamp(1, 0, 9), 400),
      ]),
    ];
    const held = admit(START, reads, eventTimeCeiling(START, reads, true));
    expect(admittedRows(held)).toEqual([
      ['a', 100],
      ['b', 250],
    ]);
    expect(held.heldBack).toBe(2);
    expect(held.position.offsets).toEqual({ 0: 2 });
    // the held page's row at 90 is older than what was admitted: the watermark must wait below it
    expect(held.position.heldBackEventTime).toBe(90);
  });

  it('decodes no page while it plans, only the rows it returns', () => {
    let decoded = 0;
    const counted = (r: StampedRecord): StampedRecord => ({
      ...r,
      rows: () => {
        decoded++;
        return r.rows!();
      },
    });
    const reads = [
      partition([counted(row(0, stamp(0, 0, 0), 'a', 1)), counted(row(1, stamp(0, 0, 1), 'b', 2))]),
    ];
    const admission = admit(START, reads, Infinity);
    expect(decoded).toBe(0);
    expect(admittedRows(admission).map((r) => r[0])).toEqual(['a', 'b']);
    expect(decoded).toBe(2);
  });
});
