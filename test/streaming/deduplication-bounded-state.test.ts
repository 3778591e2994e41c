/**
 * A deduplication whose keys the watermark lets it forget keeps bounded state: over ten times the
 * watermark's span of events, each with a new key, the rows it holds level off, in the progress it
 * reports and in the state store the checkpoint holds.
 */
import { describe, expect, it } from 'vitest';
import { type DataFrame, DEFAULT_SNAPSHOT_INTERVAL, SluiceSession } from '../../core/index.js';
import { FileCheckpointStore } from '../../core/checkpoint/file-checkpoint-store.js';
import { LocalDirectoryStore } from '../../core/checkpoint/local-directory-store.js';
import { StateRepository, stateVersionRefOf } from '../../core/state/state-repository.js';
import { manifestEntry, stateStoreId } from '../../core/state/state-store-id.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const SECOND = 1_000_000;
/** The watermark's span: events of ten times this long stream through. */
const SPAN_SECONDS = 60;
const EVENTS_PER_BATCH = 10;
const PARTITIONS = 4;

/** The rows held in the checkpoint's state store of operator 0 at its last commit. */
async function rowsInStateStore(checkpoint: string): Promise<number> {
  const objects = new LocalDirectoryStore(checkpoint);
  const head = await new FileCheckpointStore(objects).latestCommit();
  const id = stateStoreId(0);
  const repository = new StateRepository(objects, PARTITIONS, DEFAULT_SNAPSHOT_INTERVAL);
  const { stores } = await repository.load(stateVersionRefOf(head!), [id]);
  return stores.get(manifestEntry(id))!.size;
}

/** Streams 10 spans of one event a second, each of a new user; the rows held after each batch. */
async function stateRowsOver(query: (df: DataFrame) => DataFrame) {
  const checkpoint = tempDir();
  const session = new SluiceSession();
  const input = session.memoryStream('ts TIMESTAMP, user STRING');
  const running = await query(
    session.readStream.memory(input).withWatermark('ts', `${SPAN_SECONDS} seconds`),
  )
    .writeStream.format('memory')
    .queryName(`bounded_${Math.random().toString(36).slice(2)}`)
    .option('checkpointLocation', checkpoint)
    .option('numStatePartitions', PARTITIONS)
    .start();
  const totalSeconds = 10 * SPAN_SECONDS;
  for (let start = 0; start < totalSeconds; start += EVENTS_PER_BATCH) {
    const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
      ts: at('10:00:00', (start + i) * SECOND),
      user: `u${start + i}`,
    }));
    input.addData(events);
    await running.processAllAvailable();
  }
  const held = running.recentProgress.map((p) => p.stateOperators[0].numRowsTotal);
  await running.stop();
  return { held, keysSeen: totalSeconds, inStore: await rowsInStateStore(checkpoint) };
}

describe('deduplication state under a watermark', () => {
  const cases: ReadonlyArray<readonly [string, (df: DataFrame) => DataFrame, number]> = [
    // a key leaves once the watermark (max time - span) passes its time
    [
      'dropDuplicates with the event time among the keys',
      (df) => df.dropDuplicates('user', 'ts'),
      1,
    ],
    // a key leaves once the watermark passes its time + the delay: twice the span behind
    ['dropDuplicatesWithinWatermark', (df) => df.dropDuplicatesWithinWatermark('user'), 2],
  ];
  for (const [name, query, spans] of cases) {
    it(`${name} holds about ${spans} span(s) of keys, not every key seen`, async () => {
      const { held, keysSeen, inStore } = await stateRowsOver(query);
      const bound = spans * SPAN_SECONDS + 2 * EVENTS_PER_BATCH;
      expect(Math.max(...held)).toBeLessThanOrEqual(bound);
      // levelled off: the second half of the run holds no more than the first half did
      const half = Math.floor(held.length / 2);
      expect(Math.max(...held.slice(half))).toBeLessThanOrEqual(Math.max(...held.slice(0, half)));
      expect(held[held.length - 1]).toBeGreaterThanOrEqual(spans * SPAN_SECONDS);
      expect(inStore).toBe(held[held.length - 1]);
      expect(inStore).toBeLessThan(keysSeen / 4);
    });
  }
});
