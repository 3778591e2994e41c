/**
 * Delta checkpoint benchmark (`npm run bench:delta-checkpoint`): what a checkpoint saves a reader
 * that loads a table it has not seen (a new Lambda container, a batch `read.format('delta')`).
 *
 * Two tables get the same 300 versions (one small append each, as a streaming sink writes them): one
 * with Delta's default checkpoint every 10 versions, one that never checkpoints
 * (`delta.checkpointInterval` beyond the log's length). Each is loaded cold (a new DeltaLog)
 * several times, on the local filesystem and behind a store that adds 5 ms to every request, as S3
 * roughly does; the figures are the median load time, the requests a load makes, and the ratios. It
 * prints figures and asserts no timings; it exits with status 1 only when the two tables' snapshots
 * differ (then the figures would mean nothing).
 *
 * The last line of output is one JSON object: {"versions", "requests_with", "requests_without",
 * "local_ms_with", "local_ms_without", "latency_ms_with", "latency_ms_without",
 * "latency_speedup"}.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DeltaLog,
  DeltaSink,
  LocalDirectoryStore,
  type ObjectStore,
  type DeltaSnapshot,
} from '../core/index.js';
import { parseSchema } from '../core/types/type-names.js';

const VERSIONS = 300;
const LOADS = 7;
const LATENCY_MS = 5;
const SCHEMA = parseSchema('id LONG, category STRING');

/** A store that counts requests and waits `latencyMs` before each, as a remote store would. */
class SlowStore implements ObjectStore {
  requests = 0;

  constructor(
    private readonly inner: ObjectStore,
    private readonly latencyMs: number,
  ) {}

  get location(): string {
    return this.inner.location;
  }

  private async wait(): Promise<void> {
    this.requests++;
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.wait();
    return this.inner.put(key, bytes);
  }

  async putIfAbsent(key: string, bytes: Uint8Array) {
    await this.wait();
    return this.inner.putIfAbsent(key, bytes);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    await this.wait();
    return this.inner.get(key);
  }

  async list(prefix: string): Promise<string[]> {
    await this.wait();
    return this.inner.list(prefix);
  }

  async delete(key: string): Promise<void> {
    await this.wait();
    return this.inner.delete(key);
  }
}

class BenchmarkBroken extends Error {}

async function writeTable(directory: string, checkpointInterval: number): Promise<void> {
  const sink = new DeltaSink(directory, {
    appId: 'bench',
    configuration: { 'delta.checkpointInterval': String(checkpointInterval) },
  });
  for (let b = 0; b < VERSIONS; b++) {
    const rows = Array.from({ length: 10 }, (_, i) => [b * 10 + i, i % 2 ? 'odd' : 'even']);
    await sink.addBatch(b, rows, SCHEMA, 'append');
  }
}

/** Median milliseconds of a cold load, and the requests one load makes. */
async function measure(
  directory: string,
  latencyMs: number,
): Promise<{ ms: number; requests: number; snapshot: DeltaSnapshot }> {
  const times: number[] = [];
  let requests = 0;
  let snapshot: DeltaSnapshot | undefined;
  for (let i = 0; i < LOADS; i++) {
    const store = new SlowStore(new LocalDirectoryStore(directory), latencyMs);
    const t0 = performance.now();
    snapshot = await DeltaLog.at(store).snapshot();
    times.push(performance.now() - t0);
    requests = store.requests;
  }
  times.sort((a, b) => a - b);
  return {
    ms: Math.round(times[Math.floor(times.length / 2)] * 10) / 10,
    requests,
    snapshot: snapshot!,
  };
}

/** The snapshot's content, comparable across the two tables (ids and file names differ). */
function fingerprint(snapshot: DeltaSnapshot): string {
  const records = [...snapshot.files.values()].reduce(
    (n, add) => n + (JSON.parse(add.stats ?? '{}') as { numRecords: number }).numRecords,
    0,
  );
  return JSON.stringify([
    snapshot.version,
    snapshot.files.size,
    records,
    snapshot.transactionVersion('bench'),
  ]);
}

async function main(): Promise<number> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-delta-bench-'));
  try {
    const withCheckpoints = path.join(root, 'with');
    const without = path.join(root, 'without');
    const t0 = performance.now();
    await writeTable(withCheckpoints, 10);
    await writeTable(without, VERSIONS * 10);
    console.log(
      `Wrote two tables of ${VERSIONS} versions in ${Math.round(performance.now() - t0)} ms.`,
    );

    const local = [await measure(withCheckpoints, 0), await measure(without, 0)];
    const slow = [await measure(withCheckpoints, LATENCY_MS), await measure(without, LATENCY_MS)];
    if (fingerprint(local[0].snapshot) !== fingerprint(local[1].snapshot)) {
      throw new BenchmarkBroken('the two tables load to different snapshots');
    }
    const figures = {
      versions: VERSIONS,
      requests_with: local[0].requests,
      requests_without: local[1].requests,
      local_ms_with: local[0].ms,
      local_ms_without: local[1].ms,
      latency_ms_with: slow[0].ms,
      latency_ms_without: slow[1].ms,
      latency_speedup: Math.round((slow[1].ms / Math.max(slow[0].ms, 0.1)) * 10) / 10,
    };
    console.log(
      `Cold load of version ${VERSIONS - 1}, median of ${LOADS}:\n` +
        `  local filesystem:    ${figures.local_ms_with} ms with checkpoints, ${figures.local_ms_without} ms without\n` +
        `  +${LATENCY_MS} ms per request: ${figures.latency_ms_with} ms with checkpoints, ${figures.latency_ms_without} ms without (${figures.latency_speedup}x)\n` +
        `  requests per load:   ${figures.requests_with} with checkpoints, ${figures.requests_without} without`,
    );
    console.log(JSON.stringify(figures));
    return 0;
  } catch (e) {
    if (!(e instanceof BenchmarkBroken)) throw e;
    console.error(`The benchmark is broken: ${e.message}`);
    return 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

process.exitCode = await main();
