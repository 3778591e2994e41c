/**
 * The commit protocol on DynamoDB Local and s3rver: crashes at every step, concurrent invocations,
 * lease takeover, and damaged state objects.
 */
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  type BatchStep,
  CheckpointError,
  col,
  count,
  type DataFrame,
  MemorySink,
  type MemoryStream,
  type RowObject,
  type Sink,
  SluiceSession,
  window,
} from '../../core/index.js';
import { runInvocation } from '../../core/streaming/invocation.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import { at, clickSchema } from '../support/events.js';
import { dynamoClient } from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';
import { awsBackend, stalledAwsBackend } from './aws-backend.js';

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

function windowedCounts(session: SluiceSession, input: MemoryStream): DataFrame {
  return session.readStream
    .memory(input)
    .withWatermark('ts', '10 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
}

/** Events over two hours, a few out of order, fed in chunks; plus a flush event that closes every window. */
function eventChunks(chunks: number): RowObject[][] {
  return Array.from({ length: chunks }, (_, c) =>
    Array.from({ length: 20 }, (_, i) => ({
      ts: at('10:00:00', (c * 20 + i) * 15_000_000 - (i % 4 === 0 ? 300_000_000 : 0)),
      category: ['a', 'b', 'c'][(c + i) % 3],
      user: `u${i}`,
    })),
  );
}

const FLUSH: RowObject = { ts: at('23:00:00'), category: 'flush', user: 'z' };

async function batchResult(events: RowObject[]): Promise<string[]> {
  const session = new SluiceSession();
  const rows = await session
    .createDataFrame(events, clickSchema)
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'))
    .collect();
  return canonical(rows);
}

function canonical(rows: RowObject[]): string[] {
  return rows
    .map((r) => `${(r.window as { start: Date }).start.toISOString()}|${r.category}=${r.n}`)
    .sort();
}

/** A fresh invocation: new clients, new execution, cold state cache. */
async function invocation(
  queryId: string,
  df: DataFrame,
  sink: Sink,
  {
    stalled = false,
    ...options
  }: {
    afterStep?: (step: BatchStep, batchId: number) => void;
    leaseDurationMs?: number;
    /** Its lease renewals never get through (stalledAwsBackend). */
    stalled?: boolean;
    inlineStateMaxBytes?: number;
  } = {},
) {
  return MicroBatchExecution.start({
    ...(await (stalled ? stalledAwsBackend : awsBackend)(queryId)),
    plan: df.plan,
    outputMode: 'append',
    sink,
    numStatePartitions: 4,
    snapshotInterval: 3,
    ...options,
  });
}

/** A sink that holds each batch at its start until `resume` is called, then writes it to `sink`. */
function pausedSink(sink: MemorySink) {
  let reachedSink: () => void = () => {};
  const reached = new Promise<void>((r) => (reachedSink = r));
  let resume: () => void = () => {};
  const resumed = new Promise<void>((r) => (resume = r));
  const paused: Sink = {
    description: 'paused',
    addBatch: async (...args: Parameters<MemorySink['addBatch']>) => {
      reachedSink();
      await resumed;
      await sink.addBatch(...args);
    },
  };
  return { sink: paused, reached, resume };
}

const budget = () => ({ remainingMs: () => 60_000, safetyMarginMs: 100 });

/**
 * A windowed count on the AWS backend whose first batch has committed, the input of its second
 * batch already added, and the state objects to damage before `nextInvocation` runs it.
 */
async function committedFirstBatch(queryId: string, inlineStateMaxBytes?: number) {
  const session = new SluiceSession();
  const input = session.memoryStream(clickSchema);
  const df = windowedCounts(session, input);
  const sink = new MemorySink(df.schema);
  const options = inlineStateMaxBytes === undefined ? {} : { inlineStateMaxBytes };
  input.addData(eventChunks(1)[0]);
  await runInvocation(await invocation(queryId, df, sink, options), budget());
  input.addData(eventChunks(2)[1]);
  const { stateObjects } = await awsBackend(queryId);
  return {
    stateObjects,
    nextInvocation: async () =>
      runInvocation(await invocation(queryId, df, sink, options), budget()),
  };
}

describe('the commit protocol on DynamoDB and S3', () => {
  for (const crashStep of STEPS) {
    it(`gives the batch result after an invocation dies right after '${crashStep}'`, async () => {
      const queryId = uniqueName('crash');
      const session = new SluiceSession();
      const input = session.memoryStream(clickSchema);
      const df = windowedCounts(session, input);
      const sink = new MemorySink(df.schema);
      const chunks = eventChunks(4);
      input.addData(chunks[0]);
      await runInvocation(await invocation(queryId, df, sink), budget());
      input.addData(chunks[1]);
      const crashing = await invocation(queryId, df, sink, {
        leaseDurationMs: 100,
        afterStep: (step) => {
          if (step === crashStep) throw new Error(`died after ${step}`);
        },
      });
      // a process that dies does not give its lease back: the next invocation waits for it to expire
      crashing.releaseLease = async () => {};
      await expect(runInvocation(crashing, budget())).rejects.toThrow(`died after ${crashStep}`);
      await new Promise((r) => setTimeout(r, 150));
      for (const chunk of [chunks[2], chunks[3], [FLUSH]]) {
        input.addData(chunk);
        const result = await runInvocation(await invocation(queryId, df, sink), budget());
        expect(result.stoppedBecause).toBe('idle');
        expect(result.batches[0]?.stateLoad ?? 'cold').toBe('cold');
      }
      expect(canonical(sink.rows())).toEqual(
        await batchResult(chunks.flat().filter((e) => e.category !== 'flush')),
      );
    });
  }

  for (const concurrency of [2, 8]) {
    it(`commits each batch exactly once with ${concurrency} concurrent invocations, and every re-run delivers the same rows`, async () => {
      const queryId = uniqueName('concurrent');
      const session = new SluiceSession();
      const input = session.memoryStream(clickSchema);
      const df = windowedCounts(session, input);
      const sink = new MemorySink(df.schema);
      const deliveries = new Map<number, string[]>();
      const recording = {
        description: 'recording',
        addBatch: async (...args: Parameters<MemorySink['addBatch']>) => {
          const [batchId, rows] = args;
          const text = JSON.stringify(rows);
          const seen = deliveries.get(batchId) ?? [];
          deliveries.set(batchId, [...seen, text]);
          await sink.addBatch(...args);
        },
      };
      const chunks = eventChunks(6);
      const committed: number[] = [];
      for (const chunk of [...chunks, [FLUSH]]) {
        input.addData(chunk);
        // short leases, so invocations also take over from each other mid-batch
        const results = await Promise.all(
          Array.from({ length: concurrency }, async () => {
            const execution = await MicroBatchExecution.start({
              ...(await awsBackend(queryId)),
              plan: df.plan,
              outputMode: 'append',
              sink: recording,
              numStatePartitions: 4,
              snapshotInterval: 3,
              leaseDurationMs: 30,
            });
            return runInvocation(execution, budget());
          }),
        );
        committed.push(...results.flatMap((r) => r.batches.map((b) => b.batchId)));
      }
      expect([...committed].sort((a, b) => a - b)).toEqual(
        [...new Set(committed)].sort((a, b) => a - b),
      );
      for (const [batchId, texts] of deliveries)
        expect(new Set(texts).size, `batch ${batchId}`).toBe(1);
      expect(canonical(sink.rows())).toEqual(await batchResult(chunks.flat()));
    });
  }

  it('writes no S3 object for a batch that changed no state, and after a crash in the next batch a cold invocation resumes from the version it kept', async () => {
    const queryId = uniqueName('unchanged');
    const session = new SluiceSession();
    const input = session.memoryStream(clickSchema);
    const df = windowedCounts(session, input);
    const sink = new MemorySink(df.schema);
    const chunks = eventChunks(3);
    const { stateObjects, checkpoint } = await awsBackend(queryId);
    input.addData(chunks[0]);
    await runInvocation(await invocation(queryId, df, sink), budget());
    const before = await stateObjects.list('state/');
    // later than the watermark: dropped, so the aggregation's state stays as it was
    input.addData([{ ts: at('09:00:00'), category: 'a', user: 'late' }]);
    const late = await runInvocation(await invocation(queryId, df, sink), budget());
    expect(
      late.batches.map((p) => [p.numInputRows, p.lateRowsDropped, p.stateBytesWritten]),
    ).toEqual([[1, 1, 0]]);
    expect(await stateObjects.list('state/')).toEqual(before);
    const head = (await checkpoint.latestCommit())!;
    const kept = (await checkpoint.getCommit(head.stateVersion!))!;
    expect(head.stateManifest).toBe(kept.stateManifest);

    input.addData(chunks[1]);
    const crashing = await invocation(queryId, df, sink, {
      afterStep: (step) => {
        if (step === 'persist') throw new Error('died after persist');
      },
    });
    await expect(runInvocation(crashing, budget())).rejects.toThrow('died after persist');
    for (const chunk of [chunks[2], [FLUSH]]) {
      input.addData(chunk);
      const result = await runInvocation(await invocation(queryId, df, sink), budget());
      expect(result.batches[0].stateLoad).toBe('cold');
    }
    expect(canonical(sink.rows())).toEqual(
      await batchResult([...chunks[0], ...chunks[1], ...chunks[2]]),
    );
  });

  it('stops an invocation whose renewals did not get through once another took over its expired lease', async () => {
    const queryId = uniqueName('slow');
    const session = new SluiceSession();
    const input = session.memoryStream(clickSchema);
    const df = windowedCounts(session, input);
    const sink = new MemorySink(df.schema);
    input.addData(eventChunks(1)[0]);
    const paused = pausedSink(sink);
    const slow = await invocation(queryId, df, paused.sink, {
      leaseDurationMs: 100,
      stalled: true,
    });
    const slowRun = slow.runNextBatch();
    await paused.reached;
    await new Promise((r) => setTimeout(r, 150)); // the slow invocation's lease expires
    const fast = await runInvocation(await invocation(queryId, df, sink), budget());
    expect(fast.batches[0].batchId).toBe(0);
    paused.resume();
    // batch 0 is already committed by the invocation that took over, so the slow one is refused
    expect(await slowRun).toEqual({ kind: 'conflict', batchId: 0 });
  });

  it('fences an invocation whose lease another took before it committed: lease-lost, nothing committed', async () => {
    const queryId = uniqueName('fenced');
    const session = new SluiceSession();
    const input = session.memoryStream(clickSchema);
    const df = windowedCounts(session, input);
    const sink = new MemorySink(df.schema);
    input.addData(eventChunks(1)[0]);
    const { checkpoint } = await awsBackend(queryId);
    const paused = pausedSink(sink);
    const slow = await invocation(queryId, df, paused.sink, {
      leaseDurationMs: 50,
      stalled: true,
    });
    const run = slow.runNextBatch();
    await paused.reached;
    await new Promise((r) => setTimeout(r, 80)); // the slow invocation's lease expires
    expect((await checkpoint.acquireLease('other', 60_000)).kind).toBe('acquired');
    paused.resume();
    expect(await run).toEqual({ kind: 'lease-lost', batchId: 0 });
    expect(await checkpoint.getCommit(0)).toBeUndefined();
    expect(await checkpoint.latestCommit()).toBeUndefined();
  });

  it('keeps its short lease through a sink write three times as long: no other invocation runs the query meanwhile', async () => {
    const queryId = uniqueName('renewed');
    const session = new SluiceSession();
    const input = session.memoryStream(clickSchema);
    const df = windowedCounts(session, input);
    const sink = new MemorySink(df.schema);
    input.addData(eventChunks(1)[0]);
    const slowSink: Sink = {
      description: 'slow',
      addBatch: async (...args: Parameters<MemorySink['addBatch']>) => {
        await new Promise((r) => setTimeout(r, 600));
        await sink.addBatch(...args);
      },
    };
    const rival = await invocation(queryId, df, sink, { leaseDurationMs: 200 });
    const holder = await invocation(queryId, df, slowSink, { leaseDurationMs: 200 });
    const slowRun = holder.runNextBatch();
    for (const wait of [250, 250]) {
      await new Promise((r) => setTimeout(r, wait)); // past the lease as first taken
      expect((await rival.runNextBatch()).kind).toBe('lease-held');
    }
    expect((await slowRun).kind).toBe('committed');
    expect(sink.latestBatchId).toBe(0);
  });

  it('frees the query of a crashed invocation once its short lease expires: the next waits, then takes over', async () => {
    const queryId = uniqueName('takeover');
    const session = new SluiceSession();
    const input = session.memoryStream(clickSchema);
    const df = windowedCounts(session, input);
    const sink = new MemorySink(df.schema);
    const chunks = eventChunks(2);
    input.addData(chunks[0]);
    const crashing = await invocation(queryId, df, sink, {
      leaseDurationMs: 300,
      afterStep: (step) => {
        if (step === 'persist') throw new Error('killed after persist');
      },
    });
    await expect(crashing.runNextBatch()).rejects.toThrow('killed after persist');
    const next = await invocation(queryId, df, sink);
    expect((await next.runNextBatch()).kind).toBe('lease-held');
    await new Promise((r) => setTimeout(r, 350));
    const taken = await next.runNextBatch();
    expect(taken.kind === 'committed' && taken.progress.batchId).toBe(0);
    input.addData([...chunks[1], FLUSH]);
    await runInvocation(next, budget());
    expect(canonical(sink.rows())).toEqual(await batchResult(chunks.flat()));
  });

  it('stops before its commit an invocation whose renewal finds that another took the lease', async () => {
    const queryId = uniqueName('renewal-lost');
    const session = new SluiceSession();
    const input = session.memoryStream(clickSchema);
    const df = windowedCounts(session, input);
    const sink = new MemorySink(df.schema);
    input.addData(eventChunks(1)[0]);
    const { checkpoint } = await awsBackend(queryId);
    const paused = pausedSink(sink);
    const holder = await invocation(queryId, df, paused.sink, { leaseDurationMs: 300 });
    const run = holder.runNextBatch();
    await paused.reached;
    // a rival whose clock runs ahead by more than the lease sees it expired and takes it
    const ahead = await awsBackend(queryId, () => Date.now() + 120_000);
    expect((await ahead.checkpoint.acquireLease('rival', 60_000)).kind).toBe('acquired');
    await new Promise((r) => setTimeout(r, 150)); // the holder's next renewal is refused
    paused.resume();
    expect(await run).toEqual({ kind: 'lease-lost', batchId: 0 });
    expect(await checkpoint.getCommit(0)).toBeUndefined();
  });

  it('refuses a state manifest on S3 whose file list had a digit edited, naming the manifest', async () => {
    const { stateObjects, nextInvocation } = await committedFirstBatch(uniqueName('manifest'), 0);
    // the last manifest is the head's, the one the next batch loads
    const manifest = (await stateObjects.list('state/manifests/')).at(-1)!;
    const text = Buffer.from((await stateObjects.get(manifest))!).toString('utf8');
    const edited = text.replace(
      /state\/0\/(\d)\//,
      (_, p: string) => `state/0/${(Number(p) + 1) % 4}/`,
    );
    expect(edited).not.toBe(text);
    await stateObjects.put(manifest, Buffer.from(edited));
    await expect(nextInvocation()).rejects.toThrow(`${manifest} is corrupt (checksum mismatch)`);
  });

  it('names the key of a corrupted or missing state object instead of starting from empty state', async () => {
    const { stateObjects, nextInvocation } = await committedFirstBatch(uniqueName('damaged'), 0);
    const [delta] = (await stateObjects.list('state/')).filter((k) => k.endsWith('.delta'));
    const bytes = Buffer.from((await stateObjects.get(delta))!);
    bytes[bytes.length - 2] ^= 1;
    await stateObjects.put(delta, bytes);
    await expect(nextInvocation()).rejects.toThrow(
      new RegExp(`${delta}.*corrupt \\(checksum mismatch\\)`),
    );
    await stateObjects.delete(delta);
    await expect(nextInvocation()).rejects.toThrow(new RegExp(`${delta} is missing`));
  });

  it("carries a small batch's state in the commit, and refuses a head whose carried state was edited", async () => {
    const queryId = uniqueName('inline');
    const { stateObjects, nextInvocation } = await committedFirstBatch(queryId);
    // no manifest and no delta object; at most the one snapshot whose turn batch 0 was
    const objects = await stateObjects.list('state/');
    expect(objects.length).toBeLessThanOrEqual(1);
    expect(objects.every((k) => k.endsWith('.snapshot'))).toBe(true);
    const { checkpoint, tableName: table } = await awsBackend(queryId);
    const head = (await checkpoint.latestCommit())!;
    expect(head.inlineState).toBeDefined();
    const db = DynamoDBDocumentClient.from(dynamoClient());
    const key = { pk: `query#${queryId}`, sk: 'head' };
    const item = (await db.send(new GetCommand({ TableName: table, Key: key }))).Item!;
    const record = String(item.record);
    const at = record.indexOf(head.inlineState!) + 10;
    const edited = record.slice(0, at) + (record[at] === 'A' ? 'B' : 'A') + record.slice(at + 1);
    await db.send(new PutCommand({ TableName: table, Item: { ...item, record: edited } }));
    const refused = await nextInvocation().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CheckpointError);
    expect((refused as Error).message).toContain('item head is corrupt (checksum mismatch)');
  });
});
