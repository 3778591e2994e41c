import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CreateResult,
  DeltaConflictError,
  DeltaLog,
  DeltaSink,
  LocalDirectoryStore,
  type ObjectStore,
  SluiceSession,
} from '../../core/index.js';
import { encodeCommit } from '../../core/delta/delta-actions.js';
import { commitKey } from '../../core/delta/delta-log.js';
import type { Row } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';
import { tempDir } from '../support/temp-dir.js';

const SCHEMA = parseSchema('id LONG, writer STRING');
const rows = (writer: string, ...ids: number[]): Row[] => ids.map((id) => [id, writer]);

/** Resolves every arrival once `parties` have arrived. */
class Barrier {
  private waiting: (() => void)[] = [];

  constructor(private readonly parties: number) {}

  arrive(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length === this.parties) for (const go of this.waiting.splice(0)) go();
    });
  }
}

/**
 * A writer's view of a table on the local filesystem that holds its first log commit until every
 * writer has reached theirs, so all of them race for the same version; it records what each
 * commit attempt got, and the keys it read.
 */
class RacingStore implements ObjectStore {
  readonly commits: CreateResult[] = [];
  readonly reads: string[] = [];
  readonly location: string;
  private readonly inner: LocalDirectoryStore;
  private raced = false;

  constructor(
    table: string,
    private readonly barrier: Barrier,
    /** How long this writer waits after the barrier: lets the other one win. */
    private readonly delayMs = 0,
  ) {
    this.inner = new LocalDirectoryStore(table);
    this.location = this.inner.location;
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
    if (key.startsWith('_delta_log/') && !this.raced) {
      this.raced = true;
      await this.barrier.arrive();
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    }
    const result = await this.inner.putIfAbsent(key, bytes);
    this.commits.push(result);
    return result;
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    return this.inner.put(key, bytes);
  }

  get(key: string): Promise<Uint8Array | undefined> {
    this.reads.push(key);
    return this.inner.get(key);
  }

  list(prefix: string): Promise<string[]> {
    return this.inner.list(prefix);
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
}

/** The table's rows through read.delta, as sorted `writer:id` strings. */
async function tableRows(table: string): Promise<string[]> {
  const df = await new SluiceSession().read.delta(table);
  return (await df.collect()).map((r) => `${String(r.writer)}:${String(r.id)}`).sort();
}

describe('two writers racing for a version of a Delta table on the local filesystem', () => {
  it('both commit: one gets the version, the other re-reads the log and takes the next one', async () => {
    const table = tempDir('sluice-delta-');
    const barrier = new Barrier(2);
    const a = new RacingStore(table, barrier);
    const b = new RacingStore(table, barrier);
    await Promise.all([
      new DeltaSink(a, { appId: 'query-a' }).addBatch(0, rows('a', 1, 2), SCHEMA, 'append'),
      new DeltaSink(b, { appId: 'query-b' }).addBatch(0, rows('b', 3), SCHEMA, 'append'),
    ]);

    const outcomes = [a.commits, b.commits].map((c) => c.join(',')).sort();
    expect(outcomes).toEqual(['created', 'exists,created']);
    // the loser read the version it lost once, when it read it back, not again to catch up
    const loser = a.commits.length === 2 ? a : b;
    expect(loser.reads.filter((key) => key === commitKey(0))).toHaveLength(1);
    const log = DeltaLog.at(table);
    expect(await log.versions()).toEqual([0, 1]);
    // only the winner created the table; the loser committed on top of it without metaData
    expect((await log.readCommit(1)).some((action) => 'metaData' in action)).toBe(false);
    const snapshot = (await log.snapshot())!;
    expect(snapshot.transactionVersion('query-a')).toBe(0);
    expect(snapshot.transactionVersion('query-b')).toBe(0);
    expect(await tableRows(table)).toEqual(['a:1', 'a:2', 'b:3']);
  });

  it("the loser of a race to create the table writes its files again in the winner's partitioning", async () => {
    const table = tempDir('sluice-delta-');
    const barrier = new Barrier(2);
    const partitioned = new RacingStore(table, barrier);
    const unpartitioned = new RacingStore(table, barrier, 50);
    await Promise.all([
      new DeltaSink(partitioned, { appId: 'query-a', partitionBy: ['writer'] }).addBatch(
        0,
        rows('a', 1),
        SCHEMA,
        'append',
      ),
      new DeltaSink(unpartitioned, { appId: 'query-b' }).addBatch(
        0,
        rows('b', 2),
        SCHEMA,
        'append',
      ),
    ]);

    expect(unpartitioned.commits).toEqual(['exists', 'created']);
    const adds = (await DeltaLog.at(table).readCommit(1)).flatMap((a) =>
      'add' in a ? [a.add] : [],
    );
    expect(adds.map((add) => [add.path.split('/')[0], add.partitionValues])).toEqual([
      ['writer=b', { writer: 'b' }],
    ]);
    expect(await tableRows(table)).toEqual(['a:1', 'b:2']);
  });

  it('two attempts at the same batch of one query: the loser finds the batch in the log and writes nothing more', async () => {
    const table = tempDir('sluice-delta-');
    const barrier = new Barrier(2);
    const a = new RacingStore(table, barrier);
    const b = new RacingStore(table, barrier);
    await Promise.all([
      new DeltaSink(a, { appId: 'query' }).addBatch(0, rows('q', 1, 2), SCHEMA, 'append'),
      new DeltaSink(b, { appId: 'query' }).addBatch(0, rows('q', 1, 2), SCHEMA, 'append'),
    ]);

    expect([a.commits, b.commits].map((c) => c.join(',')).sort()).toEqual(['created', 'exists']);
    const log = DeltaLog.at(table);
    expect(await log.versions()).toEqual([0]);
    expect(await tableRows(table)).toEqual(['q:1', 'q:2']);
    // the loser's data file is on disk, unreferenced: garbage no reader sees
    const parquet = (await new LocalDirectoryStore(table).list('')).filter((k) =>
      k.endsWith('.parquet'),
    );
    expect(parquet).toHaveLength(2);
    expect((await log.snapshot())!.files.size).toBe(1);
  });

  it('in complete mode the loser rebuilds its commit: it removes the files the winner added', async () => {
    const table = tempDir('sluice-delta-');
    await new DeltaSink(table, { appId: 'setup' }).addBatch(0, rows('s', 0), SCHEMA, 'complete');
    const barrier = new Barrier(2);
    const a = new RacingStore(table, barrier);
    const b = new RacingStore(table, barrier);
    await Promise.all([
      new DeltaSink(a, { appId: 'query-a' }).addBatch(0, rows('a', 1), SCHEMA, 'complete'),
      new DeltaSink(b, { appId: 'query-b' }).addBatch(0, rows('b', 2), SCHEMA, 'complete'),
    ]);

    const loser = a.commits.length === 2 ? 'a' : 'b';
    expect(await tableRows(table)).toEqual([loser === 'a' ? 'a:1' : 'b:2']);
    const log = DeltaLog.at(table);
    const winnerAdds = (await log.readCommit(1)).flatMap((x) => ('add' in x ? [x.add.path] : []));
    const loserRemoves = (await log.readCommit(2)).flatMap((x) =>
      'remove' in x ? [x.remove.path] : [],
    );
    expect(loserRemoves).toEqual(winnerAdds);
    for (const file of winnerAdds) expect(existsSync(path.join(table, file))).toBe(true);
  });
});

/**
 * A table where, before each of this writer's commits, a rival commits the same version first:
 * while `rivalEnabled`, or for the next `rivalWins` commits. It counts the listings of the log.
 */
class OutracedStore extends LocalDirectoryStore {
  rivalEnabled = false;
  rivalWins = 0;
  logListings = 0;
  logCommits = 0;

  override async putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
    if (!key.startsWith('_delta_log/')) return super.putIfAbsent(key, bytes);
    if (this.rivalEnabled || this.rivalWins > 0) {
      this.rivalWins = Math.max(0, this.rivalWins - 1);
      await this.rivalCommit(key);
    }
    this.logCommits++;
    return super.putIfAbsent(key, bytes);
  }

  /** The rival's commit of the version `key` names. */
  async rivalCommit(key: string): Promise<void> {
    await super.putIfAbsent(key, encodeCommit([{ txn: { appId: 'rival', version: 0 } }]));
  }

  override list(prefix: string): Promise<string[]> {
    if (prefix.startsWith('_delta_log/')) this.logListings++;
    return super.list(prefix);
  }
}

/** A sink of query `query` that has written batch 0 to a new table with a rival. */
async function sinkAfterOneBatch() {
  const table = tempDir('sluice-delta-');
  const store = new OutracedStore(table);
  const sink = new DeltaSink(store, { appId: 'query' });
  await sink.addBatch(0, rows('q', 1), SCHEMA, 'append');
  return { table, store, sink };
}

describe('a writer that keeps losing the race', () => {
  it('reads the log before its next write once it has lost a race, and not while it is alone', async () => {
    const { table, store, sink } = await sinkAfterOneBatch();
    store.logListings = 0;
    await sink.addBatch(1, rows('q', 2), SCHEMA, 'append');
    expect(store.logListings).toBe(0);

    store.rivalWins = 1;
    await sink.addBatch(2, rows('q', 3), SCHEMA, 'append'); // lost version 2, took 3
    await store.rivalCommit(commitKey(4));
    store.logListings = 0;
    store.logCommits = 0;
    await sink.addBatch(3, rows('q', 4), SCHEMA, 'append');
    // read the rival's version 4 first, so its one attempt took version 5
    expect(store.logListings).toBe(1);
    expect(store.logCommits).toBe(1);
    expect(await DeltaLog.at(table).versions()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await tableRows(table)).toEqual(['q:1', 'q:2', 'q:3', 'q:4']);
  });

  it('lists the log once to catch up, then tries the version after each winner it read back', async () => {
    const { table, store, sink } = await sinkAfterOneBatch();
    store.rivalWins = 3;
    store.logListings = 0;

    await sink.addBatch(1, rows('q', 2), SCHEMA, 'append');
    // lost 1 on its last snapshot (listed to catch up), then 2 and 3 on snapshots just read
    expect(store.logListings).toBe(1);
    const log = DeltaLog.at(table);
    expect(await log.versions()).toEqual([0, 1, 2, 3, 4]);
    expect((await log.readCommit(4)).some((a) => 'txn' in a && a.txn.appId === 'query')).toBe(true);
    expect(await tableRows(table)).toEqual(['q:1', 'q:2']);
  });

  it('gives up after maxCommitAttempts with a retriable DeltaConflictError naming table and batch', async () => {
    const table = tempDir('sluice-delta-');
    const store = new OutracedStore(table);
    const sink = new DeltaSink(store, { appId: 'query', maxCommitAttempts: 3 });
    await sink.addBatch(0, rows('q', 1), SCHEMA, 'append');
    store.rivalEnabled = true;

    const failure = await sink.addBatch(1, rows('q', 2), SCHEMA, 'append').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeltaConflictError);
    expect((failure as DeltaConflictError).retriable).toBe(true);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `Delta table ${table}: batch 1 of query query lost the race for log versions 1 to 3 to other writers in 3 attempts; run the batch again`,
      ),
    );

    // running the batch again once the rival is gone commits it after the rival's versions
    store.rivalEnabled = false;
    await sink.addBatch(1, rows('q', 2), SCHEMA, 'append');
    expect(await DeltaLog.at(table).versions()).toEqual([0, 1, 2, 3, 4]);
    expect(await tableRows(table)).toEqual(['q:1', 'q:2']);
  });
});
