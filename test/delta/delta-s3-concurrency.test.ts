/**
 * Concurrent writers of one Delta table on "S3": s3rver behind the HTTP relay, which enforces
 * If-None-Match: * on PUT as S3 does (412 on a taken key, one conditional PUT per key at a time), so
 * the race for a log version is decided as on AWS; and a create whose answer is lost after it
 * happened, which the writer must recognise as its own commit.
 */
import { afterEach, describe, expect, it, inject } from 'vitest';
import { DeltaConflictError, DeltaLog, SluiceSession } from '../../core/index.js';
import { S3ObjectStore } from '../../core/aws/index.js';
import { parseSchema } from '../../core/types/type-names.js';
import { DROP_AFTER_FORWARD, s3Request } from '../support/aws-faults.js';
import { createBucket } from '../support/aws-clients.js';
import { type HttpRelay, type RelayFault, startHttpRelay } from '../support/http-relay.js';
import { localS3Client } from '../support/local-aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

const SCHEMA = parseSchema('id LONG, writer STRING');
const WRITERS = 8;

const relays: HttpRelay[] = [];
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

/** The table under a new bucket, as a writer reaches it through an enforcing relay. */
async function relayedTable(faults: readonly RelayFault[] = []) {
  const bucket = await createBucket(uniqueName('delta-race'));
  const relay = await startHttpRelay({
    target: inject('s3Endpoint'),
    enforceIfNoneMatch: true,
    faults,
  });
  relays.push(relay);
  const store = () =>
    new S3ObjectStore({
      client: localS3Client(relay.endpoint),
      bucket,
      prefix: 'tables/race',
    });
  return { relay, store };
}

/** Appends writer `w`'s two rows with its own client, as a separate process would. */
function append(store: S3ObjectStore, w: number): Promise<void> {
  const session = new SluiceSession();
  const rows = [0, 1].map((i) => ({ id: w * 10 + i, writer: `w${w}` }));
  return session.createDataFrame(rows, SCHEMA).write.mode('append').delta(store);
}

/** The table's rows through read.delta, as sorted `writer:id` strings. */
async function tableRows(store: S3ObjectStore): Promise<string[]> {
  const df = await new SluiceSession().read.delta(store);
  return (await df.collect()).map((r) => `${String(r.writer)}:${String(r.id)}`).sort();
}

describe('concurrent appends to a Delta table on S3 through a relay enforcing If-None-Match', () => {
  it(`${WRITERS} writers at once: every append is in the table exactly once, or failed with a retriable DeltaConflictError`, async () => {
    const { store } = await relayedTable();
    const outcomes = await Promise.allSettled(
      Array.from({ length: WRITERS }, (_, w) => append(store(), w)),
    );
    const succeeded = outcomes.flatMap((o, w) => (o.status === 'fulfilled' ? [w] : []));
    for (const o of outcomes) {
      if (o.status === 'rejected') {
        expect(o.reason).toBeInstanceOf(DeltaConflictError);
        expect((o.reason as DeltaConflictError).retriable).toBe(true);
      }
    }
    expect(succeeded.length).toBeGreaterThan(0);
    const expected = succeeded.flatMap((w) => [`w${w}:${w * 10}`, `w${w}:${w * 10 + 1}`]).sort();
    expect(await tableRows(store())).toEqual(expected);
    // one log version per successful append, none overwritten by another
    expect(await DeltaLog.at(store()).versions()).toEqual(succeeded.map((_, v) => v));
  });

  it('a log version whose create succeeded but whose answer was lost is taken as the writer’s own: the rows once, not twice', async () => {
    const { relay, store } = await relayedTable([
      {
        matches: s3Request('PUT', /\/_delta_log\/0{19}1\.json$/),
        action: DROP_AFTER_FORWARD,
      },
    ]);
    await append(store(), 1);
    await append(store(), 2);
    expect(relay.faultsInjected).toEqual([1]);
    expect(await tableRows(store())).toEqual(['w1:10', 'w1:11', 'w2:20', 'w2:21']);
    expect(await DeltaLog.at(store()).versions()).toEqual([0, 1]);
  });

  it('answers a conditional PUT of a taken key with 412, and lets one of two racing creates win', async () => {
    const { store } = await relayedTable();
    const racing = await Promise.all([
      store().putIfAbsent('k', new TextEncoder().encode('a')),
      store().putIfAbsent('k', new TextEncoder().encode('b')),
    ]);
    expect([...racing].sort()).toEqual(['created', 'exists']);
    const winner = racing[0] === 'created' ? 'a' : 'b';
    expect(new TextDecoder().decode(await store().get('k'))).toBe(winner);
    expect(await store().putIfAbsent('k', new TextEncoder().encode('c'))).toBe('exists');
  });
});
