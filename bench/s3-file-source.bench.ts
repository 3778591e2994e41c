/**
 * S3 file source benchmark (`npm run bench:s3-file-source`): what planning one batch costs when one
 * new object arrives under a prefix that already holds N objects, with the default full listing and
 * with `incrementalListing` (ListObjectsV2 with StartAfter), on s3rver, which it starts itself (in a
 * child process, as the tests do) and stops at the end. It prints figures and asserts no timings.
 *
 * For each N, both modes run side by side on the same prefix: a first planning admits the N objects
 * that are there; then, BATCHES times, one new object arrives and the next batch is planned and read.
 * Every request the S3 client sends is counted by a middleware. Reported per warm planning: LIST
 * requests, keys listed, and the median time; and for a cold start (a new source on the same
 * checkpoint, as a new Lambda container): GET and PUT requests of its first planning.
 *
 * The request and key counts are what S3 would bill and send. The times are s3rver's, which reads
 * its directory tree for every listing, also one with StartAfter (it filters the keys after reading
 * them), so its incremental listing still grows with N; on S3 it grows with the new keys only.
 *
 * The last line of output is one JSON object with, per N, the warm planning's LIST requests and
 * median ms in both modes and the ratio of the medians (full / incremental).
 */
import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { S3ObjectStore } from '../core/aws/s3-object-store.js';
import { FileStreamSource } from '../core/sources/file-stream-source.js';
import { ObjectStoreListing } from '../core/sources/object-store-listing.js';
import type { Offset } from '../core/sources/source.js';
import { parseSchema } from '../core/types/type-names.js';
import { launchAwsServices } from '../test/support/aws-services-launcher.js';
import { createLocalBucket, localS3Client } from '../test/support/local-aws-clients.js';

const SIZES = [200, 2_000];
const BATCHES = 10;
const PUT_CONCURRENCY = 16;
const schema = parseSchema('id INT');

/** Counts the commands an S3 client sends, by name. */
function countRequests(client: S3Client): () => Map<string, number> {
  let counts = new Map<string, number>();
  client.middlewareStack.add(
    (next, context: { commandName?: string }) => (args) => {
      const name = context.commandName?.replace(/Command$/, '') ?? 'unknown';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchRequestCounter' },
  );
  return () => {
    const taken = counts;
    counts = new Map();
    return taken;
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Objects `from`..`to`-1 under `store`, with keys that grow with time as dated prefixes do. */
async function putObjects(store: S3ObjectStore, from: number, to: number): Promise<void> {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  for (let i = 0; i < ids.length; i += PUT_CONCURRENCY) {
    await Promise.all(
      ids
        .slice(i, i + PUT_CONCURRENCY)
        .map((id) => store.put(key(id), Buffer.from(`{"id":${id}}\n`))),
    );
  }
}

function key(id: number): string {
  return `2026/05/01/part-${String(id).padStart(8, '0')}.json`;
}

interface ModeFigures {
  readonly listsPerPlanning: number;
  readonly keysListedPerPlanning: number;
  readonly medianPlanningMs: number;
  readonly coldGets: number;
  readonly coldPuts: number;
}

async function runMode(
  endpoint: string,
  bucket: string,
  incrementalListing: boolean,
  data: S3ObjectStore,
  /** The id of the first object this run adds; the prefix holds every smaller one. */
  firstNewId: number,
): Promise<ModeFigures> {
  const client = localS3Client(endpoint);
  const take = countRequests(client);
  const files = new S3ObjectStore({ client, bucket, prefix: 'landing' });
  const metadataStore = new S3ObjectStore({
    client,
    bucket,
    prefix: `checkpoints/${randomUUID()}/sources/0`,
  });
  let listed = 0;
  const listing = new ObjectStoreListing(files);
  const counting = {
    location: listing.location,
    nameOf: (p: string) => listing.nameOf(p),
    read: (p: string) => listing.read(p),
    list: async (startAfter?: string) => {
      const result = await listing.list(startAfter);
      listed += result.length;
      return result;
    },
  };
  const source = () =>
    new FileStreamSource(
      { files: counting, format: 'json', read: { schema }, incrementalListing },
      { metadataStore },
    );
  const warm = source();
  let end: Offset | undefined = await warm.latestOffset(undefined);
  await warm.latestOffset(end); // records the first admission
  const times: number[] = [];
  let lists = 0;
  let keys = 0;
  for (let i = 0; i < BATCHES; i++) {
    await putObjects(data, firstNewId + i, firstNewId + i + 1);
    take();
    listed = 0;
    const t0 = performance.now();
    const next: Offset | undefined = await warm.latestOffset(end);
    times.push(performance.now() - t0);
    lists += take().get('ListObjectsV2') ?? 0;
    keys += listed;
    await warm.getBatch(end, next!);
    end = next;
  }
  take();
  await source().latestOffset(end);
  const cold = take();
  client.destroy();
  return {
    listsPerPlanning: lists / BATCHES,
    keysListedPerPlanning: keys / BATCHES,
    medianPlanningMs: Math.round(median(times) * 10) / 10,
    coldGets: cold.get('GetObject') ?? 0,
    coldPuts: cold.get('PutObject') ?? 0,
  };
}

async function main(): Promise<void> {
  const services = await launchAwsServices();
  const summary: Record<string, number> = {};
  try {
    console.log(
      'mode          N  LIST/planning  keys listed/planning  median planning ms  cold GETs  cold PUTs',
    );
    for (const n of SIZES) {
      const bucket = await createLocalBucket(
        services.s3Endpoint,
        `bench-files-${randomUUID().slice(0, 8)}`,
      );
      const client = localS3Client(services.s3Endpoint);
      const data = new S3ObjectStore({ client, bucket, prefix: 'landing' });
      await putObjects(data, 0, n);
      const full = await runMode(services.s3Endpoint, bucket, false, data, n);
      const incremental = await runMode(services.s3Endpoint, bucket, true, data, n + BATCHES);
      client.destroy();
      for (const [mode, f] of [
        ['full', full],
        ['incremental', incremental],
      ] as const) {
        console.log(
          `${mode.padEnd(11)} ${String(n).padStart(5)}  ${String(f.listsPerPlanning).padStart(13)}  ${String(f.keysListedPerPlanning).padStart(20)}  ${String(f.medianPlanningMs).padStart(18)}  ${String(f.coldGets).padStart(9)}  ${String(f.coldPuts).padStart(9)}`,
        );
      }
      summary[`full_lists_${n}`] = full.listsPerPlanning;
      summary[`incremental_lists_${n}`] = incremental.listsPerPlanning;
      summary[`full_ms_${n}`] = full.medianPlanningMs;
      summary[`incremental_ms_${n}`] = incremental.medianPlanningMs;
      summary[`full_vs_incremental_${n}`] =
        Math.round((full.medianPlanningMs / incremental.medianPlanningMs) * 10) / 10;
    }
  } finally {
    await services.stop();
  }
  console.log(JSON.stringify(summary));
}

await main();
