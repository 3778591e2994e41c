import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  current_timestamp,
  SluiceSession,
  sum,
  UnsupportedOperationError,
  window,
} from '../../core/index.js';
import type { BatchStep } from '../../core/streaming/micro-batch-execution.js';
import {
  addData,
  advanceClock,
  assertNumStateRows,
  checkAnswer,
  checkLastBatch,
  crashAfter,
  execute,
  expectFailure,
  processAllAvailable,
  startStream,
  stopStream,
  StreamTestFailure,
  testStream,
} from '../../core/testing/index.js';
import { at } from '../support/events.js';

/** The canonical windowed count over a memory stream, with a 10-minute watermark. */
function windowedCounts() {
  const session = new SluiceSession();
  const events = session.memoryStream('ts TIMESTAMP, category STRING', 'events');
  const counts = session.readStream
    .memory(events)
    .withWatermark('ts', '10 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
  return { events, counts };
}

/** A running count per category. */
function categoryCounts() {
  const session = new SluiceSession();
  const events = session.memoryStream('category STRING', 'categories');
  const counts = session.readStream.memory(events).groupBy('category').agg(count().alias('n'));
  return { events, counts };
}

/** The output row of window [hh:mm, hh:mm + 10 minutes) of `category`. */
function windowRow(start: string, category: string, n: number) {
  return { window: { start: at(`${start}:00`), end: at(`${start}:00`, 600_000_000) }, category, n };
}

/** The StreamTestFailure a test rejects with. */
async function failureOf(run: Promise<void>): Promise<StreamTestFailure> {
  try {
    await run;
  } catch (e) {
    if (e instanceof StreamTestFailure) return e;
    throw e;
  }
  throw new Error('The stream test passed where it should have failed.');
}

describe('testStream checks a query as a script of actions', () => {
  it('a windowed count in append mode emits each window once the watermark passes its end', async () => {
    const { events, counts } = windowedCounts();
    await testStream(counts, 'append')(
      addData(events, [
        { ts: at('10:01:00'), category: 'a' },
        { ts: at('10:04:00'), category: 'a' },
      ]),
      checkAnswer([]),
      addData(events, [{ ts: at('10:25:00'), category: 'b' }]),
      checkLastBatch([windowRow('10:00', 'a', 2)]),
      assertNumStateRows(1),
      addData(events, [{ ts: at('10:45:00'), category: 'a' }]),
      checkAnswer([windowRow('10:00', 'a', 2), windowRow('10:20', 'b', 1)]),
    );
  });

  it('the stream starts before the first action that needs it, and batches run only when an action asks', async () => {
    const { events, counts } = categoryCounts();
    await testStream(counts, 'update')(
      addData(events, [{ category: 'a' }]),
      addData(events, [{ category: 'a' }, { category: 'b' }]),
      processAllAvailable(),
      checkLastBatch([
        { category: 'a', n: 2 },
        { category: 'b', n: 1 },
      ]),
      execute('one batch ran, with every row added before it', (s) =>
        s.progress.map((p) => p.numInputRows).join() === '3'
          ? undefined
          : 'not one batch of 3 rows',
      ),
    );
  });

  it('stopStream and startStream continue on the same checkpoint with the state of the first run', async () => {
    const { events, counts } = categoryCounts();
    await testStream(counts, 'update')(
      addData(events, [{ category: 'a' }, { category: 'b' }]),
      checkLastBatch([
        { category: 'a', n: 1 },
        { category: 'b', n: 1 },
      ]),
      stopStream(),
      addData(events, [{ category: 'a' }]),
      startStream(),
      checkLastBatch([{ category: 'a', n: 2 }]),
      assertNumStateRows(2, 3),
      checkAnswer([
        { category: 'a', n: 1 },
        { category: 'b', n: 1 },
        { category: 'a', n: 2 },
      ]),
    );
  });

  it('advanceClock sets the processing time of the batches planned after it', async () => {
    const session = new SluiceSession();
    const values = session.memoryStream('v INT');
    const stamped = session.readStream
      .memory(values)
      .select(col('v'), current_timestamp().alias('t'));
    await testStream(stamped, 'append', { startTimeMs: 1_000 })(
      addData(values, [{ v: 1 }]),
      checkLastBatch([{ v: 1, t: new Date(1_000) }]),
      advanceClock(5_000),
      addData(values, [{ v: 2 }]),
      checkLastBatch([{ v: 2, t: new Date(6_000) }]),
    );
  });

  it('a batch re-run after a crash keeps the processing time its intent fixed, whatever the clock says', async () => {
    const session = new SluiceSession();
    const values = session.memoryStream('v INT');
    const stamped = session.readStream
      .memory(values)
      .select(col('v'), current_timestamp().alias('t'));
    await testStream(stamped, 'append', { startTimeMs: 1_000 })(
      addData(values, [{ v: 1 }]),
      crashAfter('plan'), // the intent of batch 0 is written, at 1 s
      advanceClock(60_000),
      startStream(),
      checkLastBatch([{ v: 1, t: new Date(1_000) }]),
      addData(values, [{ v: 2 }]),
      checkLastBatch([{ v: 2, t: new Date(61_000) }]),
    );
  });
});

describe('crashAfter aborts the next batch at a protocol step, and startStream recovers it', () => {
  const steps: readonly { step: BatchStep; batchIds: number[] }[] = [
    // before the commit the batch is not real: the restart runs batch 0 again from its intent
    { step: 'lease', batchIds: [0] },
    { step: 'plan', batchIds: [0] },
    { step: 'load', batchIds: [0] },
    { step: 'run', batchIds: [0] },
    { step: 'persist', batchIds: [0] },
    { step: 'sink', batchIds: [0] },
    // after it the batch exists (its progress was never reported) and the restart has nothing to redo
    { step: 'commit', batchIds: [] },
  ];

  it.each(steps)(
    'a crash after $step loses no row and counts none twice',
    async ({ step, batchIds }) => {
      const { events, counts } = categoryCounts();
      await testStream(counts, 'update')(
        startStream(),
        addData(events, [{ category: 'a' }, { category: 'a' }]),
        crashAfter(step),
        execute('the crash stopped the stream', (s) =>
          s.isRunning ? 'the stream is still running' : undefined,
        ),
        startStream(),
        execute(`the restart committed batches ${batchIds.join(', ') || 'none'}`, (s) => {
          const committed = s.progress.map((p) => p.batchId).join(', ');
          return committed === batchIds.join(', ') ? undefined : `it committed ${committed}`;
        }),
        checkAnswer([{ category: 'a', n: 2 }]),
        addData(events, [{ category: 'a' }]),
        checkLastBatch([{ category: 'a', n: 3 }]),
      );
    },
  );

  it('fails when no batch attempt reaches the step', async () => {
    const { counts } = categoryCounts();
    const failure = await failureOf(testStream(counts, 'update')(crashAfter('run')));
    expect(failure.message).toContain(
      "crashAfter('run'):\nno batch attempt completed its run step, so nothing crashed",
    );
  });

  it('the crash is an InjectedCrash naming the step and the batch, and stops the stream', async () => {
    const { events, counts } = categoryCounts();
    const crashed =
      "failed: InjectedCrash: Crash injected by crashAfter('persist') into batch 1, right after its persist step; startStream() recovers.";
    await testStream(counts, 'update')(
      addData(events, [{ category: 'a' }]),
      processAllAvailable(),
      addData(events, [{ category: 'b' }]),
      crashAfter('persist'),
      execute('the stream failed with the crash', (s) =>
        s.describeState() === crashed ? undefined : s.describeState(),
      ),
    );
  });
});

describe('expectFailure', () => {
  it('takes the error a refused start raised', async () => {
    const session = new SluiceSession();
    const values = session.memoryStream('v INT');
    const projected = session.readStream.memory(values).select(col('v'));
    await testStream(projected, 'complete')(
      startStream(),
      expectFailure(UnsupportedOperationError),
    );
  });

  it('processes what is available and takes the error the batch failed with', async () => {
    const session = new SluiceSession();
    const values = session.memoryStream('x BIGINT');
    const total = session.readStream.memory(values).groupBy().agg(sum('x').alias('total'));
    await testStream(total, 'complete')(
      addData(values, [{ x: Number.MAX_SAFE_INTEGER }, { x: Number.MAX_SAFE_INTEGER }]),
      expectFailure(/sum\(x\) overflowed the long range/),
      execute('the failed batch stopped the stream', (s) =>
        s.isRunning ? 'still running' : undefined,
      ),
    );
  });

  it('fails the test when the stream does not fail, or fails otherwise', async () => {
    const { events, counts } = categoryCounts();
    const none = await failureOf(
      testStream(counts, 'update')(addData(events, [{ category: 'a' }]), expectFailure(Error)),
    );
    expect(none.message).toContain('expectFailure(Error):\nthe stream did not fail.');

    const session = new SluiceSession();
    const values = session.memoryStream('v INT');
    const projected = session.readStream.memory(values).select(col('v'));
    const other = await failureOf(
      testStream(projected, 'complete')(startStream(), expectFailure(/a message it lacks/)),
    );
    expect(other.message).toMatch(
      /expectFailure\(\/a message it lacks\/\):\nthe stream failed with UnsupportedOperationError: .*, which does not match \/a message it lacks\//,
    );
  });

  it('an error no expectFailure takes fails the test at the action that met it', async () => {
    const session = new SluiceSession();
    const values = session.memoryStream('v INT');
    const projected = session.readStream.memory(values).select(col('v'));
    const failure = await failureOf(testStream(projected, 'complete')(checkAnswer([])));
    expect(failure.message).toMatch(
      /^Stream test failed at action 1 of 2, startStream\(\):\nthe stream failed: UnsupportedOperationError: /,
    );
    expect(failure.cause).toBeInstanceOf(UnsupportedOperationError);
  });
});

describe('a failed check reports what the stream did', () => {
  it('a wrong checkAnswer prints the actions with the failing one marked, the last progress, the sink and the plan', async () => {
    const { events, counts } = categoryCounts();
    const failure = await failureOf(
      testStream(counts, 'update')(
        addData(events, [{ category: 'a' }, { category: 'b' }]),
        checkAnswer([
          { category: 'a', n: 1 },
          { category: 'b', n: 2 },
        ]),
        stopStream(),
      ),
    );
    const lines = failure.message.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Stream test failed at action 3 of 4, checkAnswer({category: "a", n: 1}, {category: "b", n: 2}):',
      'the sink holds 2 rows where 2 were expected.',
      'missing:',
      '  {category: "b", n: 2}',
      'unexpected:',
      '  {category: "b", n: 1}',
    ]);
    const section = (title: string) => lines.slice(lines.indexOf(title) + 1);
    expect(section('== Actions ==').slice(0, 4)).toEqual([
      '   startStream()',
      '   addData(MemoryStream[categories], {category: "a"}, {category: "b"})',
      '=> checkAnswer({category: "a", n: 1}, {category: "b", n: 2})',
      '   stopStream()',
    ]);
    expect(section('== Stream ==').slice(0, 2)).toEqual(['output mode: update', 'state: running']);
    expect(failure.message).toContain('"batchId": 0');
    expect(failure.message).toContain('"numInputRows": 2');
    expect(section('== Sink ==').slice(0, 3)).toEqual([
      'batch 0: 2 rows',
      '  {category: "a", n: 1}',
      '  {category: "b", n: 1}',
    ]);
    expect(section('== Plan ==')).toEqual([
      'Aggregate keys category values count(1) AS n [category, n]',
      '  StreamingRelation MemoryStream[categories] [category]',
    ]);
  });

  it('a wrong checkLastBatch and a wrong assertNumStateRows name what they found', async () => {
    const first = categoryCounts();
    const lastBatch = await failureOf(
      testStream(first.counts, 'update')(
        addData(first.events, [{ category: 'a' }]),
        checkLastBatch([{ category: 'a', n: 2 }]),
      ),
    );
    expect(lastBatch.message).toContain(
      'batch 0 holds 1 rows where 1 were expected.\nmissing:\n  {category: "a", n: 2}\nunexpected:\n  {category: "a", n: 1}',
    );
    const second = categoryCounts();
    const stateRows = await failureOf(
      testStream(second.counts, 'update')(
        addData(second.events, [{ category: 'a' }, { category: 'b' }]),
        assertNumStateRows(3, 1),
      ),
    );
    expect(stateRows.message).toContain(
      'the state store after batch 0 has rows total [2], expected [3]; rows updated over the last 1 batches [2], expected [1].',
    );
  });

  it('refuses actions that do not fit the stream: a second start, a stop of a stopped stream', async () => {
    const { counts } = categoryCounts();
    const twice = await failureOf(testStream(counts, 'update')(startStream(), startStream()));
    expect(twice.message).toContain(
      'startStream():\nthe stream is already running; stopStream() first.',
    );
    const stopped = await failureOf(testStream(counts, 'update')(stopStream(), stopStream()));
    expect(stopped.message).toContain('stopStream():\nthe stream is not running.');
  });
});

describe('the stream-test DSL is part of the product', () => {
  it('imports no test framework, so any runner (or none) can use it', () => {
    const dir = fileURLToPath(new URL('../../core/testing/', import.meta.url));
    const imports = readdirSync(dir).flatMap((file) =>
      [...readFileSync(`${dir}${file}`, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]),
    );
    expect(imports).toContain('./stream-actions.js');
    expect(imports.filter((i) => !i.startsWith('.') && !i.startsWith('node:'))).toEqual([]);
  });
});
