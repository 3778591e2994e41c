/**
 * The query's test, with Node's own test runner: the same query as a batch over a table and as a
 * stream driven by Sluice's stream-test DSL.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SluiceSession } from 'sluice';
import { addData, checkAnswer, testStream } from 'sluice/testing';
import { clickCounts } from '../src/query.js';

const clicks = [
  { ts: '2026-12-01T10:01:00Z', category: 'books', user: 'u1' },
  { ts: '2026-12-01T10:05:00Z', category: 'books', user: 'u2' },
  { ts: '2026-12-01T10:07:00Z', category: 'games', user: 'u3' },
];
/** A click whose watermark (10:25) closes the 10:00 window. */
const later = { ts: '2026-12-01T10:40:00Z', category: 'books', user: 'u4' };

const lines = (rows: object[]) => rows.map((r) => ({ value: JSON.stringify(r) }));

test('the batch query counts the clicks of each window and category', async () => {
  const session = new SluiceSession();
  const table = session.createDataFrame(lines([...clicks, later]), 'value STRING');
  const counts = await clickCounts(table).orderBy('window', 'category').collect();
  assert.deepEqual(
    counts.map((r) => [r.category, r.count]),
    [
      ['books', 2],
      ['games', 1],
      ['books', 1],
    ],
  );
});

test('the stream appends a window once the watermark has passed it', async () => {
  const session = new SluiceSession();
  const events = session.memoryStream('value STRING');
  const counts = clickCounts(session.readStream.memory(events));
  const window = { start: new Date('2026-12-01T10:00:00Z'), end: new Date('2026-12-01T10:10:00Z') };
  await testStream(counts, 'append')(
    addData(events, lines(clicks)),
    checkAnswer([]),
    addData(events, lines([later])),
    checkAnswer([
      { window, category: 'books', count: 2 },
      { window, category: 'games', count: 1 },
    ]),
  );
});
