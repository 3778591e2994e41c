/**
 * Chaos at every crash point, a bounded sample of `npm run chaos` (docs/chaos.md): for each setting,
 * one seed crashed at every point (or every few points) of its clean run, at random pairs, under a
 * duplicated delivery and a timed-out retry, restarted cold each time; its sink must end with exactly
 * the batch query's rows: none twice, none missing, none wrong.
 */
import { describe, expect, inject, it } from 'vitest';
import { chaosSeed, type ChaosScenario } from '../support/chaos-harness.js';

const aws = () => ({
  dynamoDbEndpoint: inject('dynamoDbEndpoint'),
  s3Endpoint: inject('s3Endpoint'),
});

const SAMPLE: { scenario: ChaosScenario; every: number }[] = [
  { scenario: { seed: 11, backend: 'local', sink: 'delta', query: 'windowed' }, every: 3 },
  { scenario: { seed: 12, backend: 'local', sink: 'files', query: 'stateless' }, every: 2 },
  { scenario: { seed: 13, backend: 'memory', sink: 'kafka', query: 'windowed' }, every: 2 },
  { scenario: { seed: 14, backend: 'aws', sink: 'delta', query: 'windowed' }, every: 12 },
  { scenario: { seed: 15, backend: 'aws', sink: 'dynamodb', query: 'windowed' }, every: 12 },
  { scenario: { seed: 16, backend: 'aws', sink: 'files', query: 'stateless' }, every: 12 },
];

describe('a query crashed at its crash points and restarted cold', () => {
  for (const { scenario, every } of SAMPLE) {
    const { backend, sink, query } = scenario;
    it(`ends with the batch result: ${query} query, ${sink} sink, ${backend} backend`, async () => {
      const tally = await chaosSeed(
        scenario,
        { every },
        backend === 'aws' || sink === 'dynamodb' ? aws() : undefined,
      );
      expect(tally.failures).toEqual([]);
      expect(tally).toMatchObject({ duplicates: 0, losses: 0, mismatches: 0 });
      expect(tally.crashPoints).toBeGreaterThan(10);
    }, 120_000);
  }
});
