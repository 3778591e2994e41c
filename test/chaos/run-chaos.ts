/**
 * `npm run chaos`: crashes seeded queries at every crash point (docs/chaos.md) and ends with one JSON
 * line {"crash_points", "seeds", "duplicates", "losses", "mismatches"}; all three counts must be 0.
 *
 *   npm run chaos                       # >= 100 seeds, >= 10,000 crash points, 2 worker processes
 *   npm run chaos -- --seeds 20 --workers 1
 *   npm run chaos -- --seed 7 --backend memory --sink delta --query windowed --crash-at 41 [--then 12]
 *
 * Most seeds run in memory (every point); every fifth on local directories (every second point, and
 * three points by SIGKILL of a child process); every tenth on DynamoDB Local + s3rver, its Kafka sink
 * on the Kafka mock cluster (every eighth point). The memory seeds that are 3 or 8 modulo 25 read
 * their input from a topic on the mock cluster, crashed at each source fetch too. The last form
 * replays one crash (and, with --then, a crash of its recovery) of one seed; `--source kafka` reads
 * its input from a topic.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type ChaosPlan,
  type ChaosScenario,
  type ChaosTally,
  chaosSeed,
  crashRun,
} from '../support/chaos-harness.js';
import { sigkillRun } from '../support/chaos-sigkill.js';
import type { ChaosAwsEndpoints, ChaosSinkKind, ChaosSourceKind } from '../support/chaos-world.js';
import { launchAwsServices } from '../support/aws-services-launcher.js';
import { startHttpRelay } from '../support/http-relay.js';
import { startKafkaMockCluster } from '../support/kafka-mock-cluster.js';
import { seededRandom } from '../../examples/seeded-random.js';

/** One seed's work: its scenario, which points to crash at, and how many by SIGKILL. */
interface ChaosJob {
  readonly scenario: ChaosScenario;
  readonly plan: ChaosPlan;
  readonly sigkills: number;
}

const MEMORY_SINKS: ChaosSinkKind[] = ['delta', 'files', 'kafka'];
const AWS_SINKS: ChaosSinkKind[] = ['delta', 'files', 'dynamodb', 'kafka'];
/** Seeds (modulo 25) on memory whose input is a topic on the Kafka mock cluster: both queries. */
const KAFKA_SOURCE_SEEDS = [3, 8];

/** Seed `seed`'s job: its backend, sink, query and plan, in the mix the module doc describes. */
function jobOf(seed: number): ChaosJob {
  const query = seed % 2 === 0 ? 'windowed' : 'stateless';
  // Seeds on local directories and AWS take turns at both queries (their seeds are all odd or even).
  const turn = Math.floor(seed / 10);
  const otherQuery = turn % 2 === 0 ? 'windowed' : 'stateless';
  if (seed % 10 === 9) {
    const sink = AWS_SINKS[Math.floor(turn / 2) % AWS_SINKS.length];
    return {
      scenario: { seed, backend: 'aws', sink, query: otherQuery },
      plan: { every: 8 },
      sigkills: 0,
    };
  }
  if (seed % 5 === 4) {
    const sink = Math.floor(turn / 2) % 2 === 0 ? 'delta' : 'files';
    return {
      scenario: { seed, backend: 'local', sink, query: otherQuery },
      plan: { every: 2 },
      sigkills: 3,
    };
  }
  const sink = MEMORY_SINKS[Math.floor(seed / 2) % MEMORY_SINKS.length];
  const source = KAFKA_SOURCE_SEEDS.includes(seed % 25) ? 'kafka' : 'files';
  return { scenario: { seed, backend: 'memory', sink, query, source }, plan: {}, sigkills: 0 };
}

/** Runs one job: its planned points, then its SIGKILL points. */
async function runJob(job: ChaosJob, aws: ChaosAwsEndpoints | undefined): Promise<ChaosTally> {
  const tally = await chaosSeed(job.scenario, job.plan, aws);
  const failures = [...tally.failures];
  const sum = { ...tally };
  const random = seededRandom(job.scenario.seed + 104_729);
  for (let i = 0; i < job.sigkills; i++) {
    const crashAt = Math.floor(random() * 100);
    const outcome = await sigkillRun(job.scenario, crashAt);
    sum.crashPoints += outcome.crashPoints;
    sum.duplicates += outcome.duplicates;
    sum.losses += outcome.losses;
    sum.mismatches += outcome.mismatches;
    if (outcome.duplicates + outcome.losses + outcome.mismatches > 0) {
      failures.push(
        `${JSON.stringify(job.scenario)} SIGKILL at ${crashAt}: ${JSON.stringify(outcome)}`,
      );
    }
  }
  return { ...sum, failures };
}

/** A worker process: runs the jobs its parent sends, one at a time, and answers each tally. */
function serveJobs(aws: ChaosAwsEndpoints | undefined): void {
  process.on('message', (job: ChaosJob) => {
    runJob(job, aws).then(
      (tally) => process.send!({ tally }),
      (error: unknown) => process.send!({ error: String((error as Error).stack ?? error) }),
    );
  });
  process.send!({ ready: true });
}

/** The parent: hands the seeds' jobs to `workers` forks of this script and adds their tallies. */
async function runAll(seeds: number, workers: number, aws: ChaosAwsEndpoints): Promise<void> {
  const jobs = Array.from({ length: seeds }, (_, seed) => jobOf(seed));
  const total = { crashPoints: 0, duplicates: 0, losses: 0, mismatches: 0 };
  const started = Date.now();
  let done = 0;
  const script = fileURLToPath(import.meta.url);
  await Promise.all(
    Array.from(
      { length: workers },
      () =>
        new Promise<void>((resolve, reject) => {
          const child = fork(script, ['--worker', JSON.stringify(aws)], {
            execArgv: ['--import', 'tsx'],
          });
          let current: ChaosJob | undefined;
          const next = () => {
            current = jobs.shift();
            if (current) child.send(current);
            else child.kill();
          };
          child.on('message', (m: { ready?: true; tally?: ChaosTally; error?: string }) => {
            if (m.error)
              return reject(new Error(`${JSON.stringify(current?.scenario)}: ${m.error}`));
            if (m.tally) {
              done++;
              for (const key of Object.keys(total) as (keyof typeof total)[])
                total[key] += m.tally[key];
              for (const failure of m.tally.failures) process.stderr.write(`FAILED ${failure}\n`);
              process.stderr.write(
                `seed ${current!.scenario.seed} (${done}/${seeds}) ${JSON.stringify(current!.scenario)}: ${m.tally.crashPoints} points, ${Math.round((Date.now() - started) / 1000)} s\n`,
              );
            }
            next();
          });
          child.on('exit', () => resolve());
          child.on('error', reject);
        }),
    ),
  );
  process.stderr.write(`wall time ${Math.round((Date.now() - started) / 1000)} s\n`);
  process.stdout.write(
    `${JSON.stringify({ crash_points: total.crashPoints, seeds, duplicates: total.duplicates, losses: total.losses, mismatches: total.mismatches })}\n`,
  );
}

/** Replays one crash (and maybe one of its recovery) of one seed, printing its outcome. */
async function replay(
  values: Record<string, string | undefined>,
  aws: ChaosAwsEndpoints,
): Promise<void> {
  const scenario = {
    seed: Number(values.seed),
    backend: (values.backend ?? 'memory') as ChaosScenario['backend'],
    sink: (values.sink ?? 'delta') as ChaosSinkKind,
    query: (values.query ?? 'windowed') as ChaosScenario['query'],
    source: (values.source ?? 'files') as ChaosSourceKind,
  };
  const crashes = [values['crash-at'], values.then]
    .filter((k) => k !== undefined)
    .map((k) => ({ crashAt: Number(k) }));
  const outcome = await crashRun(scenario, crashes, aws);
  process.stdout.write(`${JSON.stringify({ ...scenario, crashes, ...outcome })}\n`);
}

const { values } = parseArgs({
  options: {
    worker: { type: 'string' },
    seeds: { type: 'string', default: '100' },
    workers: { type: 'string', default: '2' },
    seed: { type: 'string' },
    backend: { type: 'string' },
    sink: { type: 'string' },
    query: { type: 'string' },
    source: { type: 'string' },
    'crash-at': { type: 'string' },
    then: { type: 'string' },
  },
});
if (values.worker !== undefined) {
  serveJobs(JSON.parse(values.worker) as ChaosAwsEndpoints);
} else {
  const [services, kafka] = await Promise.all([launchAwsServices(), startKafkaMockCluster()]);
  // s3rver ignores If-None-Match; the relay enforces it as S3 does, so racing Delta writers are fenced
  const s3 = await startHttpRelay({ target: services.s3Endpoint, enforceIfNoneMatch: true });
  const endpoints = {
    ...services,
    s3Endpoint: s3.endpoint,
    kafkaBootstrapServers: kafka.bootstrapServers,
  };
  try {
    if (values.seed !== undefined) await replay(values, endpoints);
    else await runAll(Number(values.seeds), Number(values.workers), endpoints);
  } finally {
    await Promise.all([services.stop(), kafka.stop(), s3.stop()]);
  }
}
