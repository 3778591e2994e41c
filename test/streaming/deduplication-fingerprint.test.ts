/**
 * A streaming deduplication's keys and kind shape its state, so the plan fingerprint records them:
 * restarting a checkpoint with other keys is refused, naming the old and the new ones.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointError, MemorySink, SluiceSession, type DataFrame } from '../../core/index.js';
import { planPhysical } from '../../core/exec/physical-planner.js';
import { checkPlanFingerprint, planFingerprint } from '../../core/streaming/plan-fingerprint.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const session = new SluiceSession();
const clicks = () => session.readStream.memory(session.memoryStream(clickSchema));

/** The error of restarting a checkpoint of `before` with `after`, or undefined when it is accepted. */
function restart(before: DataFrame, after: DataFrame): Error | undefined {
  try {
    const physical = planPhysical(after.plan, true, { batchTimestampMicros: 0 });
    checkPlanFingerprint(planFingerprint(before.plan, 4), after.plan, physical, 4, '/cp');
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

describe('the fingerprint of a deduplication', () => {
  it('refuses a restarted query whose dedup keys changed, naming both', async () => {
    const checkpoint = tempDir();
    const events = session.memoryStream(clickSchema);
    const run = (...keys: string[]) =>
      session.readStream
        .memory(events)
        .dropDuplicates(...keys)
        .writeStream.sink(new MemorySink(clickSchema))
        .option('checkpointLocation', checkpoint)
        .start();
    const first = await run('user');
    events.addData([{ ts: at('10:00:00'), category: 'books', user: 'u1' }]);
    await first.processAllAvailable();
    await first.stop();
    const restarted = run('user', 'category');
    await expect(restarted).rejects.toThrow(CheckpointError);
    await expect(restarted).rejects.toThrow(
      'was #0 dedupe(keys: user: string), now #0 dedupe(keys: user: string, category: string)',
    );
  });

  const cases: ReadonlyArray<readonly [string, () => DataFrame, () => DataFrame, string?]> = [
    ['the same keys', () => clicks().dropDuplicates('user'), () => clicks().dropDuplicates('user')],
    [
      'keys named in another case',
      () => clicks().dropDuplicates('user'),
      () => clicks().dropDuplicates('USER'),
    ],
    [
      'keys in another order',
      () => clicks().dropDuplicates('user', 'category'),
      () => clicks().dropDuplicates('category', 'user'),
      'was #0 dedupe(keys: user: string, category: string), now #0 dedupe(keys: category: string, user: string)',
    ],
    [
      'within the watermark instead',
      () => clicks().withWatermark('ts', '1 minute').dropDuplicates('user'),
      () => clicks().withWatermark('ts', '1 minute').dropDuplicatesWithinWatermark('user'),
      'was #0 dedupe(keys: user: string), now #0 dedupeWithinWatermark(keys: user: string)',
    ],
    [
      'a dedup added beneath an aggregation',
      () => clicks().groupBy('user').count(),
      () => clicks().dropDuplicates().groupBy('user').count(),
      'was #0 aggregate(',
    ],
    [
      'another watermark delay',
      () => clicks().withWatermark('ts', '1 minute').dropDuplicatesWithinWatermark('user'),
      () => clicks().withWatermark('ts', '5 minutes').dropDuplicatesWithinWatermark('user'),
    ],
  ];
  for (const [change, before, after, named] of cases) {
    it(`${named ? 'refuses' : 'accepts'} a restart with ${change}`, () => {
      const error = restart(before(), after());
      if (!named) {
        expect(error).toBeUndefined();
        return;
      }
      expect(error).toBeInstanceOf(CheckpointError);
      expect(error?.message).toContain(named);
    });
  }
});
