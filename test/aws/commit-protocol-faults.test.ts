/**
 * The commit protocol under the faults AWS returns: the canonical windowed count streams into a
 * Delta table on S3 with its checkpoint in DynamoDB and its state in S3, every request through HTTP
 * relays in front of DynamoDB Local and s3rver (the S3 one enforcing If-None-Match as S3 does), and
 * one kind of fault injected into one kind of request. Each fault is either absorbed (by the SDK's
 * retries, or by the adapter's own retries of conflicts) or ends the invocation with a retriable
 * error, after which a new invocation re-runs the batch from its intent; either way the table ends
 * equal to the batch query's result: no row lost, none twice.
 */
import { describe, expect, it, inject } from 'vitest';
import { DeltaLog, DeltaSink, SluiceSession, SluiceError } from '../../core/index.js';
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { runInvocation } from '../../core/streaming/invocation.js';
import { MicroBatchExecution } from '../../core/streaming/micro-batch-execution.js';
import {
  AWS_FAULTS,
  DROP_AFTER_FORWARD,
  dynamoDbOperation,
  s3Request,
  slowAnswer,
  transactionCanceled,
} from '../support/aws-faults.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { type RelayFault, startHttpRelay } from '../support/http-relay.js';
import { localDynamoClient, localS3Client } from '../support/local-aws-clients.js';
import { uniqueName } from '../support/unique-name.js';
import {
  batchResult,
  canonical,
  clickBatches,
  clickStream,
  FLUSH,
  windowCounts,
} from '../delta/window-counts.js';

/** The SDK attempts of the local clients (local-aws-clients.ts): a fault this often outlasts them. */
const SDK_ATTEMPTS = 2;

interface ProtocolFault {
  readonly name: string;
  readonly service: 'dynamodb' | 's3';
  readonly fault: RelayFault;
  /**
   * `absorbed`: retries inside the call got past it (the SDK's, or the adapter's for conflicts);
   * `re-run`: it outlasted them, the invocation failed with a retriable error, and the next one
   * re-ran the batch from its intent.
   */
  readonly expected: 'absorbed' | 're-run';
}

const DELTA_LOG = /\/_delta_log\/\d{20}\.json$/;
const STATE_FILE = /\/state\/\d+\//;

const FAULTS: readonly ProtocolFault[] = [
  {
    name: '503 SlowDown on a state file write, once',
    expected: 'absorbed',
    service: 's3',
    fault: { matches: s3Request('PUT', STATE_FILE), action: AWS_FAULTS.s3SlowDown },
  },
  {
    name: '500 InternalError on every attempt at a Delta data file',
    expected: 're-run',
    service: 's3',
    fault: {
      matches: s3Request('PUT', /\.parquet$/),
      action: AWS_FAULTS.s3InternalError,
      times: SDK_ATTEMPTS,
    },
  },
  {
    name: '409 ConditionalRequestConflict on the Delta log create, twice',
    expected: 'absorbed',
    service: 's3',
    fault: {
      matches: s3Request('PUT', DELTA_LOG),
      action: AWS_FAULTS.s3ConditionalRequestConflict,
      times: 2,
    },
  },
  {
    name: 'a dropped connection after the Delta log create',
    expected: 'absorbed',
    service: 's3',
    fault: { matches: s3Request('PUT', DELTA_LOG), action: DROP_AFTER_FORWARD },
  },
  {
    // the manifest rides in the commit, so the state objects on S3 are the partitions' snapshots
    name: 'a dropped connection after a state file write',
    expected: 'absorbed',
    service: 's3',
    fault: { matches: s3Request('PUT', STATE_FILE), action: DROP_AFTER_FORWARD },
  },
  {
    name: 'slow answers to the first reads',
    expected: 'absorbed',
    service: 's3',
    fault: { matches: s3Request('GET', /./), action: slowAnswer(150), times: 4 },
  },
  {
    name: 'ThrottlingException on the commit, once',
    expected: 'absorbed',
    service: 'dynamodb',
    fault: {
      matches: dynamoDbOperation('TransactWriteItems'),
      action: AWS_FAULTS.dynamoDbThrottling,
    },
  },
  {
    name: 'ProvisionedThroughputExceeded on every attempt at the intent',
    expected: 're-run',
    service: 'dynamodb',
    fault: {
      matches: dynamoDbOperation('PutItem', 'offsets#'),
      action: AWS_FAULTS.dynamoDbProvisionedThroughputExceeded,
      times: SDK_ATTEMPTS,
    },
  },
  {
    name: 'TransactionConflict on the commit, twice',
    expected: 'absorbed',
    service: 'dynamodb',
    fault: {
      matches: dynamoDbOperation('TransactWriteItems'),
      action: transactionCanceled(['None', 'TransactionConflict', 'None']),
      times: 2,
    },
  },
  {
    name: 'TransactionConflict on every attempt at the commit',
    expected: 're-run',
    service: 'dynamodb',
    fault: {
      matches: dynamoDbOperation('TransactWriteItems'),
      action: transactionCanceled(['None', 'TransactionConflict', 'None']),
      times: 5,
    },
  },
  {
    name: '500 InternalServerError on every attempt at taking the lease',
    expected: 're-run',
    service: 'dynamodb',
    fault: {
      matches: dynamoDbOperation('UpdateItem'),
      action: AWS_FAULTS.dynamoDbInternalServerError,
      times: SDK_ATTEMPTS,
    },
  },
  {
    name: 'a dropped connection after the commit',
    expected: 'absorbed',
    service: 'dynamodb',
    fault: { matches: dynamoDbOperation('TransactWriteItems'), action: DROP_AFTER_FORWARD },
  },
  {
    name: 'a dropped connection after the intent',
    expected: 'absorbed',
    service: 'dynamodb',
    fault: { matches: dynamoDbOperation('PutItem', 'offsets#'), action: DROP_AFTER_FORWARD },
  },
  {
    name: 'a dropped connection after taking the lease',
    expected: 'absorbed',
    service: 'dynamodb',
    fault: { matches: dynamoDbOperation('UpdateItem'), action: DROP_AFTER_FORWARD },
  },
  {
    name: 'a slow answer to the commit',
    expected: 'absorbed',
    service: 'dynamodb',
    fault: { matches: dynamoDbOperation('TransactWriteItems'), action: slowAnswer(300) },
  },
];

let resources: Promise<{ table: string; state: string; lake: string }> | undefined;

/** The file's checkpoint table and buckets, shared by its queries. */
function sharedResources() {
  resources ??= Promise.all([
    createCheckpointTable(uniqueName('checkpoints')),
    createBucket(uniqueName('state')),
    createBucket(uniqueName('lake')),
  ]).then(([table, state, lake]) => ({ table, state, lake }));
  return resources;
}

const budget = () => ({ remainingMs: () => 60_000, safetyMarginMs: 100 });

describe('the commit protocol through injected AWS faults', () => {
  it.each(FAULTS)(
    '$service: $name ($expected) leaves the Delta table equal to the batch result',
    async ({ service, fault, expected }) => {
      const { table, state, lake } = await sharedResources();
      const queryId = uniqueName('faulty');
      const faults = (s: ProtocolFault['service']) => (s === service ? [fault] : []);
      const dynamoDbRelay = await startHttpRelay({
        target: inject('dynamoDbEndpoint'),
        faults: faults('dynamodb'),
      });
      const s3Relay = await startHttpRelay({
        target: inject('s3Endpoint'),
        enforceIfNoneMatch: true,
        faults: faults('s3'),
      });
      const events = clickStream();
      const df = windowCounts(new SluiceSession().readStream.memory(events));
      const tableAt = (client = s3Client()) =>
        new S3ObjectStore({ client, bucket: lake, prefix: `tables/${queryId}` });
      /** A cold invocation: new clients through the relays. */
      const invocation = () => {
        const s3 = localS3Client(s3Relay.endpoint);
        const stateObjects = new S3ObjectStore({ client: s3, bucket: state, prefix: queryId });
        const checkpoint = new DynamoDbCheckpointStore({
          client: localDynamoClient(dynamoDbRelay.endpoint),
          tableName: table,
          queryId,
          largeRecords: stateObjects,
        });
        return MicroBatchExecution.start({
          checkpoint,
          stateObjects,
          plan: df.plan,
          outputMode: 'append',
          sink: new DeltaSink(tableAt(s3)),
          numStatePartitions: 2,
          snapshotInterval: 3,
          leaseDurationMs: 2_000,
        });
      };
      const outcomes: string[] = [];
      try {
        const chunks = clickBatches(2, 30);
        for (const chunk of [...chunks, [FLUSH]]) {
          events.addData(chunk);
          await untilIdle(invocation, outcomes);
        }
        expect(dynamoDbRelay.faultsInjected.concat(s3Relay.faultsInjected)).toEqual([
          fault.times ?? 1,
        ]);
        const rows = await (await new SluiceSession().read.delta(tableAt())).collect();
        expect(canonical(rows)).toEqual(await batchResult(chunks.flat()));
        // each committed batch is at most one Delta version (none when it had no rows), whatever
        // was retried or re-run
        const committed = await new DynamoDbCheckpointStore({
          client: dynamoClient(),
          tableName: table,
          queryId,
        }).latestCommit();
        const versions = await DeltaLog.at(tableAt()).versions();
        expect(versions.length).toBeLessThanOrEqual(committed!.batchId + 1);
        // exactly the invocations the fault outlasted failed, each with a retriable error
        expect(outcomes.filter((o) => o !== 'idle')).toHaveLength(expected === 'absorbed' ? 0 : 1);
      } catch (e) {
        throw new Error(`outcomes: ${outcomes.join(', ')}`, { cause: e });
      } finally {
        await Promise.all([dynamoDbRelay.stop(), s3Relay.stop()]);
      }
    },
  );
});

/**
 * Runs cold invocations until one finds nothing to do: a failed invocation must fail with a
 * retriable error, and one that finds the lease held (its failed predecessor's) waits for it.
 */
async function untilIdle(
  invocation: () => Promise<MicroBatchExecution>,
  outcomes: string[],
): Promise<void> {
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      const result = await runInvocation(await invocation(), budget());
      outcomes.push(result.stoppedBecause);
      if (result.stoppedBecause === 'idle') return;
      if (result.stoppedBecause === 'lease-held') await new Promise((r) => setTimeout(r, 500));
    } catch (e) {
      outcomes.push(`${(e as Error).name}: ${(e as Error).message}`);
      expect(e).toBeInstanceOf(SluiceError);
      expect((e as SluiceError).retriable).toBe(true);
    }
  }
  throw new Error('The query did not catch up within 8 invocations.');
}
