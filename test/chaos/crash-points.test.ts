/**
 * Chaos at every crash point, a bounded sample of `npm run chaos` (docs/chaos.md): for each setting,
 * one seed crashed at every point (or every few points) of its clean run, at random pairs, under a
 * duplicated delivery and a timed-out retry, restarted cold each time; its sink must end with exactly
 * the batch query's rows: none twice, none missing, none wrong.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ChaosPlan,
  chaosSeed,
  type ChaosScenario,
  duplicatedDelivery,
  timedOutRetry,
} from '../support/chaos-harness.js';
import { sigkillRun } from '../support/chaos-sigkill.js';
import { type HttpRelay, startHttpRelay } from '../support/http-relay.js';

// s3rver ignores If-None-Match; the relay enforces it as S3 does, so racing Delta writers are fenced
let s3: HttpRelay;
beforeAll(async () => {
  s3 = await startHttpRelay({ target: inject('s3Endpoint'), enforceIfNoneMatch: true });
});
afterAll(() => s3.stop());

const aws = () => ({
  dynamoDbEndpoint: inject('dynamoDbEndpoint'),
  s3Endpoint: s3.endpoint,
  kafkaBootstrapServers: inject('kafkaBootstrapServers'),
});

const SAMPLE: { scenario: ChaosScenario; plan: ChaosPlan }[] = [
  {
    scenario: { seed: 11, backend: 'local', sink: 'delta', query: 'windowed' },
    plan: { every: 4 },
  },
  {
    scenario: { seed: 12, backend: 'local', sink: 'files', query: 'stateless' },
    plan: { every: 2 },
  },
  {
    scenario: { seed: 13, backend: 'memory', sink: 'kafka', query: 'windowed' },
    plan: { every: 2 },
  },
  { scenario: { seed: 14, backend: 'aws', sink: 'delta', query: 'windowed' }, plan: { every: 24 } },
  {
    scenario: { seed: 15, backend: 'aws', sink: 'dynamodb', query: 'windowed' },
    plan: { every: 16 },
  },
  {
    scenario: { seed: 16, backend: 'aws', sink: 'files', query: 'stateless' },
    plan: { every: 12 },
  },
  {
    scenario: { seed: 17, backend: 'aws', sink: 'kafka', query: 'windowed' },
    // a new producer per invocation on the mock cluster is slow: a few points only
    plan: { every: 30, pairs: 0, deliveries: false },
  },
  {
    scenario: { seed: 18, backend: 'memory', sink: 'delta', query: 'windowed', source: 'kafka' },
    // every third point: both sides of the source's fetches, not only the points before them
    plan: { every: 3 },
  },
  {
    scenario: { seed: 19, backend: 'memory', sink: 'files', query: 'stateless', source: 'kafka' },
    plan: { every: 3 },
  },
];

describe('a query crashed at its crash points and restarted cold', () => {
  for (const { scenario, plan } of SAMPLE) {
    const { backend, sink, query, source = 'files' } = scenario;
    const needsServices = backend === 'aws' || sink === 'dynamodb' || source === 'kafka';
    it(`ends with the batch result: ${query} query, ${source} source, ${sink} sink, ${backend} backend`, async () => {
      const tally = await chaosSeed(scenario, plan, needsServices ? aws() : undefined);
      expect(tally.failures).toEqual([]);
      expect(tally).toMatchObject({ duplicates: 0, losses: 0, mismatches: 0 });
      // enough crashes happened: runs that never reached their points would prove nothing
      expect(tally.crashPoints).toBeGreaterThanOrEqual(plan.pairs === 0 ? 3 : 8);
    }, 120_000);
  }
});

describe('a query process killed with SIGKILL at a crash point', () => {
  it('ends with the batch result after a cold restart on the same directories', async () => {
    const scenario: ChaosScenario = {
      seed: 21,
      backend: 'local',
      sink: 'delta',
      query: 'windowed',
    };
    let killed = 0;
    for (const crashAt of [7, 40, 73]) {
      const outcome = await sigkillRun(scenario, crashAt);
      expect(outcome).toMatchObject({ duplicates: 0, losses: 0, mismatches: 0 });
      killed += outcome.crashPoints;
    }
    expect(killed).toBe(3);
  }, 120_000);
});

describe('deliveries of one trigger that overlap', () => {
  const scenario: ChaosScenario = { seed: 22, backend: 'memory', sink: 'files', query: 'windowed' };

  it('two invocations at once on the same checkpoint write each batch once', async () => {
    for (const seed of [22, 23, 24, 25]) {
      expect(await duplicatedDelivery({ ...scenario, seed })).toEqual({
        duplicates: 0,
        losses: 0,
        mismatches: 0,
      });
    }
  });

  it('a retry of a timed-out invocation that is still alive: the stale one commits nothing', async () => {
    for (const pauseAt of [5, 30, 60, 90, 120]) {
      expect(await timedOutRetry(scenario, pauseAt)).toEqual({
        duplicates: 0,
        losses: 0,
        mismatches: 0,
      });
    }
  });
});
