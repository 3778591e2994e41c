import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  DeltaLog,
  DeltaSink,
  DeltaSnapshot,
  type RowObject,
  SluiceSession,
  type TransactionAction,
  UnsupportedOperationError,
} from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';
import {
  batchResult,
  canonical,
  clickBatches,
  clickStream,
  FLUSH,
  startStream,
  streamAll,
} from './window-counts.js';

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

class Crash extends Error {}

/** The table's rows through `read.delta`, as comparable strings. */
async function readBack(table: string): Promise<string[]> {
  return canonical(await (await new SluiceSession().read.delta(table)).collect());
}

/** The txn action of each log version. */
async function transactions(table: string): Promise<TransactionAction[]> {
  const log = DeltaLog.at(table);
  const txns: TransactionAction[] = [];
  for (const version of await log.versions()) {
    for (const action of await log.readCommit(version)) {
      if ('txn' in action) txns.push(action.txn);
    }
  }
  return txns;
}

describe('the canonical windowed count streamed into a Delta table on the local filesystem', () => {
  it('reads back with read.delta as the batch query computes it, one version per batch with rows, with its txn', async () => {
    const table = tempDir('sluice-delta-');
    const chunks = clickBatches();
    const queryId = await streamAll(new DeltaSink(table), chunks);

    expect(await readBack(table)).toEqual(await batchResult(chunks.flat()));
    const txns = await transactions(table);
    expect(txns.every((txn) => txn.appId === queryId)).toBe(true);
    // batch ids, in order; the batches whose append output was empty (windows still open) wrote none
    const batchIds = txns.map((t) => t.version);
    expect(batchIds).toEqual([...new Set(batchIds)].sort((a, b) => a - b));
    expect(batchIds.length).toBeLessThan(batchIds.at(-1)! + 1);
  });

  it('writes Hive-style partition directories with partitionBy and reads the same rows back', async () => {
    const table = tempDir('sluice-delta-');
    const chunks = clickBatches();
    await streamAll(new DeltaSink(table, { partitionBy: ['category'] }), chunks);

    expect(await readBack(table)).toEqual(await batchResult(chunks.flat()));
    expect(readdirSync(table).sort()).toEqual([
      '_delta_log',
      'category=__HIVE_DEFAULT_PARTITION__',
      'category=a%3Db%2Fc%25d%3Ae',
      'category=books',
      'category=games',
      'category=music & film',
    ]);
    const snapshot = (await DeltaLog.at(table).snapshot())!;
    expect(snapshot.partitionColumns).toEqual(['category']);
    const special = [...snapshot.files.values()].find(
      (add) => add.partitionValues.category === 'a=b/c%d:e',
    )!;
    // the log holds the URI form of the escaped directory
    expect(special.path).toMatch(
      /^category=a%253Db%252Fc%2525d%253Ae\/part-\d{5}-.*\.snappy\.parquet$/,
    );
    const nulls = [...snapshot.files.values()].filter(
      (add) => add.partitionValues.category === null,
    );
    expect(nulls.length).toBeGreaterThan(0);
  });

  it('splits a batch into files of about the target size', async () => {
    const table = tempDir('sluice-delta-');
    const chunks = clickBatches(2, 200);
    await streamAll(new DeltaSink(table, { targetFileSize: 600 }), chunks);

    expect(await readBack(table)).toEqual(await batchResult(chunks.flat()));
    const snapshot = (await DeltaLog.at(table).snapshot())!;
    const stats = [...snapshot.files.values()].map(
      (add) => JSON.parse(add.stats!) as { numRecords: number },
    );
    expect(stats.length).toBeGreaterThan(chunks.length * 2);
    expect(stats.every((s) => s.numRecords < 30)).toBe(true);
  });

  it('in complete mode replaces the content in one version per batch: the table is the result so far', async () => {
    const table = tempDir('sluice-delta-');
    const chunks = clickBatches(3);
    const events = clickStream();
    const query = await startStream({
      sink: new DeltaSink(table),
      checkpoint: tempDir(),
      events,
      outputMode: 'complete',
    });
    const seen: RowObject[] = [];
    for (const chunk of chunks) {
      events.addData(chunk);
      seen.push(...chunk);
      await query.processAllAvailable();
      expect(await readBack(table)).toEqual(await batchResult(seen));
    }
    await query.stop();

    // one version per batch (batches without data that only advance the watermark rewrite it too)
    const log = DeltaLog.at(table);
    const versions = await log.versions();
    expect(versions.length).toBe(query.recentProgress.length);
    const latest = versions[versions.length - 1];
    const last = await log.readCommit(latest);
    const removed = last.flatMap((a) => ('remove' in a ? [a.remove.path] : []));
    const commits = await Promise.all(
      versions.slice(0, -1).map(async (version) => ({
        version,
        actions: await log.readCommit(version),
      })),
    );
    const before = [...DeltaSnapshot.replay(table, undefined, commits).files.keys()];
    expect(removed.sort()).toEqual(before.sort());
    expect(last.some((a) => 'add' in a)).toBe(true);
    // removed files stay on disk for readers of older versions, but the table no longer lists them
    const current = (await log.snapshot())!;
    expect(before.some((key) => current.files.has(key))).toBe(false);
    expect(before.every((key) => existsSync(path.join(table, key)))).toBe(true);
  });

  it('refuses update mode when the query starts', async () => {
    await expect(
      startStream({
        sink: new DeltaSink(tempDir('sluice-delta-')),
        checkpoint: tempDir(),
        events: clickStream(),
        outputMode: 'update',
      }),
    ).rejects.toThrow(UnsupportedOperationError);
  });
});

describe('a query writing to a Delta table, killed at any step of a batch and restarted', () => {
  for (const step of STEPS) {
    it(`writes each batch once when killed right after '${step}'`, async () => {
      const table = tempDir('sluice-delta-');
      const checkpoint = tempDir();
      const chunks = clickBatches(4);
      const events = clickStream();
      let armed = false;
      let crashed = -1;
      const first = await startStream({
        sink: new DeltaSink(table),
        checkpoint,
        events,
        afterStep: (s, batchId) => {
          if (armed && s === step) {
            armed = false;
            crashed = batchId;
            throw new Crash(`crash after ${s} of batch ${batchId}`);
          }
        },
      });
      events.addData(chunks[0]);
      await first.processAllAvailable();
      armed = true;
      events.addData(chunks[1]);
      await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);

      // a new process: new sink, same checkpoint and table
      const second = await startStream({ sink: new DeltaSink(table), checkpoint, events });
      for (const chunk of [...chunks.slice(2), [FLUSH]]) {
        events.addData(chunk);
        await second.processAllAvailable();
      }
      await second.stop();
      expect(second.id).toBe(first.id);

      expect(await readBack(table)).toEqual(await batchResult(chunks.flat()));
      const versions = (await transactions(table)).map((t) => t.version);
      // every batch with rows once, in order: the re-run of the crashed batch added no second version
      expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
      const firstRerun = second.recentProgress[0].batchId;
      expect(firstRerun).toBe(step === 'commit' ? crashed + 1 : crashed);
    });
  }

  it('skips the re-run batch in the sink: the table already has its txn version', async () => {
    const table = tempDir('sluice-delta-');
    const checkpoint = tempDir();
    const events = clickStream();
    const first = await startStream({
      sink: new DeltaSink(table),
      checkpoint,
      events,
      afterStep: (s) => {
        if (s === 'sink') throw new Crash('after sink');
      },
    });
    events.addData(clickBatches(1)[0]);
    await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);
    const log = DeltaLog.at(table);
    expect(await log.versions()).toEqual([0]);
    const files = (await log.snapshot())!.files.size;
    const parquetFiles = () =>
      readdirSync(table, { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length;
    const before = parquetFiles();

    const second = await startStream({ sink: new DeltaSink(table), checkpoint, events });
    await second.processAllAvailable();
    await second.stop();
    expect(second.recentProgress[0].batchId).toBe(0);
    // batch 0 is still version 0 and the only version with its txn; later versions are later batches
    expect((await transactions(table)).map((t) => t.version)).toEqual(
      (await log.versions()).map((_, i) => i),
    );
    const later = (await log.versions()).slice(1);
    const addedLater = (await Promise.all(later.map((v) => log.readCommit(v))))
      .flat()
      .filter((a) => 'add' in a).length;
    expect(parquetFiles()).toBe(before + addedLater);
    expect((await log.snapshot())!.files.size).toBe(files + addedLater);
  });
});
