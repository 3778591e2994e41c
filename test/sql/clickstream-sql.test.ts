/**
 * The canonical job written in SQL (examples/clickstream.sql.ts) is the DataFrame job
 * (examples/clickstream-query.ts): the same windows and counts, as a stream cut into micro-batches
 * and as a batch query over the same clicks.
 */
import { describe, expect, it } from 'vitest';
import { type DataFrame, type RowObject, SluiceSession } from '../../core/index.js';
import { clickstreamFiles } from '../../examples/clickstream-events.js';
import { clickCounts } from '../../examples/clickstream-query.js';
import { clickCountsSql } from '../../examples/clickstream.sql.js';
import { tempDir } from '../support/temp-dir.js';

const files = clickstreamFiles({ files: 6, eventsPerFile: 150, seed: 7 });
/** A click far past every window, so the watermark closes them all. */
const flush = JSON.stringify({
  ts: '2026-01-02T00:00:00Z',
  category: 'flush',
  user: 'u',
  page: 'p',
});

function sorted(rows: RowObject[]): string[] {
  return rows.map((r) => JSON.stringify(r)).sort();
}

async function streamed(query: (input: DataFrame) => DataFrame): Promise<RowObject[]> {
  const session = new SluiceSession();
  const clicks = session.memoryStream('value STRING');
  const rows: RowObject[] = [];
  const running = await query(session.readStream.memory(clicks))
    .writeStream.outputMode('append')
    .foreachBatch(async (batch) => {
      rows.push(...(await batch.collect()));
    })
    .option('checkpointLocation', tempDir())
    .start();
  for (const lines of [...files, [flush]]) {
    clicks.addData(lines.map((value) => ({ value })));
    await running.processAllAvailable();
  }
  await running.stop();
  return rows;
}

async function batch(query: (input: DataFrame) => DataFrame): Promise<RowObject[]> {
  const session = new SluiceSession();
  const lines = files.flat().map((value) => ({ value }));
  return query(session.createDataFrame(lines, 'value STRING')).collect();
}

describe('the canonical job in SQL', () => {
  it('emits exactly the windows and counts of the DataFrame job in a stream', async () => {
    const fromSql = await streamed(clickCountsSql);
    expect(fromSql.length).toBeGreaterThan(10);
    expect(sorted(fromSql)).toEqual(sorted(await streamed(clickCounts)));
  });

  it('gives exactly the DataFrame job result as a batch query', async () => {
    const fromSql = await batch(clickCountsSql);
    expect(fromSql.length).toBeGreaterThan(10);
    expect(sorted(fromSql)).toEqual(sorted(await batch(clickCounts)));
  });

  it('has the DataFrame job schema: window, category, count', () => {
    const session = new SluiceSession();
    const input = session.createDataFrame([], 'value STRING');
    expect(clickCountsSql(input).schema).toEqual(clickCounts(input).schema);
  });
});
