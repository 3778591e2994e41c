/**
 * The canonical job split into two stages and run as 4 shards each, the way the Lambda function runs
 * them (docs/scale-out.md, docs/repartition-stage.md): clicks as JSON on a topic keyed by user,
 * counted per category in 10-minute windows with a 15-minute watermark, so the counts need the
 * repartition stage. Every (stage, shard) is the function's bundle in a Lambda-like container of its
 * own (a separate process), invoked with `{"stage": s, "shard": i}` against DynamoDB Local, s3rver
 * and the Kafka mock cluster. Containers are killed with SIGKILL at protocol steps (protocol-kills.ts)
 * and replaced by cold ones, and some invocations run twice at once in two containers.
 *
 * Clicks arrive in rounds (click-rounds.ts): mostly in order, some out of order within the
 * watermark, some 45 minutes late, windows open across rounds. Each round is run until every shard
 * of both stages is idle, and a last round a day later, one click in every partition but all of one
 * category, moves the watermark past every earlier window. The Delta table the stage-2 shards append
 * to must then equal the batch query over the clicks that the watermark rule counts: every window
 * once, none short, none double.
 *
 * The last round has one category only so that the stage-2 shards whose categories get no click a
 * day later must close their windows on stage 1's markers (repartition-source.ts, eventTimeReached);
 * with their own rows alone their last windows stayed open and the table missed them. It is in
 * every partition because a stage-1 shard without a batch holds stage 2 back until the idle timeout
 * (5 minutes of marker time, docs/repartition-stage.md): the unsplit query would not wait for it.
 *
 * Why the expected set is known whatever the shards did: a stage-2 shard's watermark comes from its
 * own rows and from the least event time the stage-1 shards' markers announce, and stage 2 admits no
 * row above that least time; so it never passes the unsharded query's watermark and trails it by at
 * most the gap between the latest click and the latest click of the slowest partition (seconds
 * here). `fates` with a two-minute skew checks that no click is near enough to the line for that to
 * matter. No stage-1 shard is idle (every partition gets clicks in every round, and the test runs
 * far shorter than the 5-minute idle timeout), so the idleness rule never drops a row as late.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoDbCheckpointStore } from '../../../core/aws/index.js';
import { type RowObject, SluiceSession, type StreamingQueryProgress } from '../../../core/index.js';
import { clickstreamQuery } from '../../../examples/clickstream-query.js';
import { bundleFunction, FUNCTION_ENTRIES } from '../../../functions/build.js';
import { ENV } from '../../../functions/microbatch/configuration.js';
import type { MicroBatchResult } from '../../../functions/microbatch/handler.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../../support/aws-clients.js';
import { produce } from '../../support/kafka-producer.js';
import { LambdaContainer } from '../../support/lambda-container.js';
import { deltaTableRows } from '../../support/delta-table-rows.js';
import { localLambdaEnvironment } from '../../support/local-lambda-environment.js';
import { type ArmedKill, ProtocolKills } from '../../support/protocol-kills.js';
import { tempDir } from '../../support/temp-dir.js';
import { uniqueName } from '../../support/unique-name.js';
import { type Click, clickRounds, fates } from './click-rounds.js';

const SHARDS = 4;
const ROUNDS = 8;
const CLICKS_PER_ROUND = 500;
/** How far a stage-2 shard's watermark may trail the unsharded query's (module doc). */
const SHARD_SKEW_MS = 2 * 60_000;
const WINDOW_MS = 10 * 60_000;
/** Short, so that the lease of a killed container soon expires. */
const LEASE_MS = 2_000;
const TIMEOUT_MS = 60_000;
/** Passes of all eight invocations a round may take before the test gives up. */
const MAX_PASSES = 40;

/**
 * The kills, armed one stage-1 and one stage-2 kill per round; each fires at its step's next request
 * from a shard of its stage. Stage 1's sink is the Kafka topic, so its kills around the commit leave
 * its rows written and its batch uncommitted (the copies stage 2 must drop); stage 2's around the
 * Delta files and log leave the table ahead of the checkpoint.
 */
const KILLS: readonly (readonly ArmedKill[])[] = [
  [{ stage: 1, step: 'commit', side: 'before' }],
  [
    { stage: 1, step: 'intent', side: 'after' },
    { stage: 2, step: 'delta-log', side: 'after' },
  ],
  [
    { stage: 1, step: 'commit', side: 'after' },
    { stage: 2, step: 'delta-data', side: 'before' },
  ],
  [
    { stage: 1, step: 'lease', side: 'after' },
    { stage: 2, step: 'commit', side: 'before' },
  ],
  [
    { stage: 1, step: 'commit', side: 'before' },
    { stage: 2, step: 'intent', side: 'after' },
  ],
  [
    { stage: 1, step: 'commit', side: 'before' },
    { stage: 2, step: 'delta-log', side: 'after' },
  ],
  [
    { stage: 1, step: 'intent', side: 'after' },
    { stage: 2, step: 'commit', side: 'after' },
  ],
  [
    { stage: 1, step: 'commit', side: 'before' },
    { stage: 2, step: 'delta-log', side: 'before' },
  ],
];

let bundle: string;
let lakeBucket: string;
let env: Record<string, string>;
let kills: ProtocolKills;
let topic: string;
const containers: LambdaContainer[] = [];

beforeAll(async () => {
  let checkpointTable: string;
  let stateBucket: string;
  [{ file: bundle }, checkpointTable, lakeBucket, stateBucket] = await Promise.all([
    bundleFunction(FUNCTION_ENTRIES.clickstream, tempDir('sluice-bundle-')),
    createCheckpointTable(uniqueName('checkpoint')),
    createBucket(uniqueName('lake')),
    createBucket(uniqueName('state')),
  ]);
  kills = await ProtocolKills.start({
    dynamoDb: inject('dynamoDbEndpoint'),
    s3: inject('s3Endpoint'),
    lakeBucket,
  });
  topic = uniqueName('clicks-by-user');
  env = {
    [ENV.queryId]: uniqueName('clicks'),
    [ENV.checkpointTable]: checkpointTable,
    [ENV.stateBucket]: stateBucket,
    [ENV.source]: JSON.stringify({
      kind: 'kafka',
      bootstrapServers: inject('kafkaBootstrapServers').split(','),
      topic,
      startingOffsets: 'earliest',
      // a stage-1 shard's 125 clicks of a round in several batches
      maxOffsetsPerTrigger: 50,
    }),
    [ENV.sink]: JSON.stringify({ kind: 'delta', bucket: lakeBucket, path: 'tables/clicks' }),
    [ENV.parallelism]: String(SHARDS),
    [ENV.leaseDurationMs]: String(LEASE_MS),
    ...localLambdaEnvironment(kills.endpoints),
  };
}, 120_000);

afterAll(async () => {
  await Promise.all(containers.map((c) => c.stop()));
  await kills?.stop();
});

/** The topic's partition of a user's clicks: the producer keys them by user. */
function userPartition(user: string): number {
  return Number(user.slice(1)) % SHARDS;
}

/** A click at `ts` in `category` by a user of `partition`, shaped as click-rounds.ts makes them. */
function closingClick(ts: number, category: string, partition: number): Click {
  const user = `u${partition}`;
  const event = { ts: new Date(ts).toISOString(), category, user, page: `/${category}/${user}` };
  return { ts, value: JSON.stringify(event), user };
}

/**
 * The rounds: ROUNDS of clicks, then one click a day later from every partition, all in the first
 * category, so that every stage-1 shard's markers move past every window (module doc).
 */
function splitJobRounds(): Click[][] {
  const rounds = clickRounds(ROUNDS, CLICKS_PER_ROUND, 17).slice(0, -1);
  const clicks = rounds.flat();
  const category = (JSON.parse(clicks[0].value) as Event).category;
  const closing = Math.max(...clicks.map((c) => c.ts)) + 24 * 60 * 60_000;
  rounds.push(Array.from({ length: SHARDS }, (_, p) => closingClick(closing, category, p)));
  return rounds;
}

interface Event {
  readonly category: string;
}

/** One slot of the split query: a stage and shard, and the container serving it now. */
interface Slot {
  readonly stage: number;
  readonly shard: number;
  container?: LambdaContainer;
}

async function startContainer(stage: number, shard: number): Promise<LambdaContainer> {
  const named = { ...env, ...kills.containerEnv() };
  const container = await LambdaContainer.start({ bundle, env: named });
  kills.register(named, container, stage, shard);
  containers.push(container);
  return container;
}

/** What one invocation did; `killed` when the kill switch ended its container. */
type Invocation =
  { readonly kind: 'result'; readonly result: MicroBatchResult } | { readonly kind: 'killed' };

async function invoke(
  container: LambdaContainer,
  stage: number,
  shard: number,
): Promise<Invocation> {
  try {
    const outcome = await container.invoke({ stage, shard }, { remainingMs: TIMEOUT_MS });
    if (outcome.kind === 'result')
      return { kind: 'result', result: outcome.value as MicroBatchResult };
    throw new Error(
      `stage ${stage} shard ${shard}: the invocation ended with ${JSON.stringify(outcome)}:\n${container.output.slice(-20).join('\n')}`,
    );
  } catch (error) {
    if (kills.wasKilled(container)) return { kind: 'killed' };
    throw error;
  }
}

/** The progress of every batch stage-2 shard `shard` committed, from its checkpoint. */
async function stage2Commits(shard: number): Promise<StreamingQueryProgress[]> {
  const checkpoint = new DynamoDbCheckpointStore({
    client: dynamoClient(),
    tableName: env[ENV.checkpointTable],
    queryId: env[ENV.queryId],
    shard: { stage: 2, shard, shards: SHARDS },
  });
  const latest = await checkpoint.latestCommit();
  const progress: StreamingQueryProgress[] = [];
  for (let batchId = 0; latest && batchId <= latest.batchId; batchId++) {
    const commit = await checkpoint.getCommit(batchId);
    if (!commit) throw new Error(`Stage-2 shard ${shard} has no commit of batch ${batchId}.`);
    progress.push(commit.progress as unknown as StreamingQueryProgress);
  }
  return progress;
}

/** `window-start window-end category count`, sorted, from rows of the canonical query. */
function countLines(rows: readonly RowObject[]): string[] {
  return rows
    .map((r) => {
      const w = r.window as { start: Date; end: Date };
      return `${new Date(w.start).toISOString()} ${new Date(w.end).toISOString()} ${String(r.category)} ${String(r.count)}`;
    })
    .sort();
}

describe('the canonical job split at the repartition stage, 4 shards a stage, in killed and duplicated containers', () => {
  it(
    "appends to the Delta table exactly the batch query's windows over the clicks its watermark counts",
    { timeout: 180_000 },
    async () => {
      const started = performance.now();
      const rounds = splitJobRounds();
      const fate = fates(rounds, SHARD_SKEW_MS);
      const slots: Slot[] = [1, 2].flatMap((stage) =>
        Array.from({ length: SHARDS }, (_, shard) => ({ stage, shard })),
      );
      let duplicates = 0;
      let invocations = 0;
      const passes: number[] = [];

      /**
       * Invokes the slot until an invocation gets the query: a killed container is replaced by a
       * cold one, whose invocations find the lease held until the killed one's expires.
       */
      const drainSlot = async (slot: Slot): Promise<Invocation> => {
        for (let attempt = 0; attempt < 40; attempt++) {
          slot.container ??= await startContainer(slot.stage, slot.shard);
          const container = slot.container;
          invocations++;
          const outcome = await invoke(container, slot.stage, slot.shard);
          if (outcome.kind === 'killed') {
            slot.container = undefined;
          } else if (outcome.result.stoppedBecause === 'lease-held') {
            await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 4));
          } else {
            return outcome;
          }
        }
        throw new Error(
          `Stage ${slot.stage} shard ${slot.shard} stayed leased for 40 invocations.`,
        );
      };

      for (let k = 0; k < rounds.length; k++) {
        for (const kill of KILLS[k] ?? []) kills.arm(kill);
        await produce(
          topic,
          rounds[k].map((c) => ({ partition: userPartition(c.user), key: c.user, value: c.value })),
        );
        let quiet = false;
        for (let pass = 0; !quiet; pass++) {
          if (pass === MAX_PASSES) {
            throw new Error(
              `Round ${k} did not settle in ${MAX_PASSES} passes; kills left: ${JSON.stringify(kills.pending)}`,
            );
          }
          // one slot per pass, in turn, is invoked twice at once in its warm container and a cold one
          const doubled = pass < 2 ? slots[(2 * k + pass) % slots.length] : undefined;
          const killsBefore = kills.fired.length;
          const outcomes = await Promise.all(
            slots.map(async (slot) => {
              const runs = [drainSlot(slot)];
              if (slot === doubled) {
                duplicates++;
                const cold = await startContainer(slot.stage, slot.shard);
                invocations++;
                runs.push(invoke(cold, slot.stage, slot.shard).finally(() => cold.stop()));
              }
              return Promise.all(runs);
            }),
          );
          quiet =
            kills.fired.length === killsBefore &&
            outcomes
              .flat()
              .every(
                (o) =>
                  o.kind === 'result' &&
                  o.result.batchesCommitted === 0 &&
                  o.result.stoppedBecause === 'idle',
              );
          if (quiet) passes.push(pass + 1);
        }
      }
      const seconds = (performance.now() - started) / 1000;

      expect(kills.pending).toEqual([]);
      expect(kills.fired).toHaveLength(KILLS.flat().length);
      const clicks = rounds.flat();
      const counted = clicks.filter((_, i) => fate.flat()[i] === 'counted');
      const dropped = clicks.length - counted.length;
      expect(dropped).toBeGreaterThan(0);

      // what the stage-2 shards' commits say: every batch once, however often it was attempted
      const commits = (
        await Promise.all(Array.from({ length: SHARDS }, (_, j) => stage2Commits(j)))
      ).flat();
      const lateDropped = commits.reduce((n, p) => n + p.lateRowsDropped, 0);
      // the copies of the stage-1 batches killed after their rows were written
      const copies = commits.reduce((n, p) => n + (p.sources[0].metrics?.duplicateRecords ?? 0), 0);

      const written = countLines(await deltaTableRows(s3Client(), lakeBucket, 'tables/clicks'));
      const session = new SluiceSession();
      // the batch query over the counted clicks; the closing clicks' window is still open
      const closingWindow = Math.floor(clicks[clicks.length - 1].ts / WINDOW_MS) * WINDOW_MS;
      const input = session.createDataFrame(
        counted.filter((c) => c.ts < closingWindow).map((c) => ({ value: c.value })),
        'value STRING',
      );
      const expected = countLines(await clickstreamQuery.query(input, session).collect());
      console.log(
        `split-query chaos: ${clicks.length} clicks in ${rounds.length} rounds, ${invocations} invocations (${duplicates} doubled) in ${passes.join('+')} passes, ${kills.fired.length} kills (${kills.fired.map((f) => `${f.stage}/${f.shard} ${f.step} ${f.side}`).join(', ')}), ${copies} copies dropped, ${lateDropped} late rows dropped, ${expected.length} windows, ${seconds.toFixed(1)} s`,
      );
      expect(expected.length).toBeGreaterThan(30);
      const windows = written.map((line) => line.split(' ').slice(0, 3).join(' '));
      expect(new Set(windows).size).toBe(windows.length);
      expect(written).toEqual(expected);
      expect(copies).toBeGreaterThan(0);
      // stage 2 drops partial rows, each of one or more of the clicks the unsharded query drops
      expect(lateDropped).toBeGreaterThan(0);
      expect(lateDropped).toBeLessThanOrEqual(dropped);
    },
  );
});
