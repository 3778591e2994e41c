/**
 * How the state data source names a deployed query's checkpoint: the options checkpointTable,
 * queryId and stateLocation become the location the session's checkpointBackends opens, and bad or
 * partial ones are refused before anything is read.
 */
import { describe, expect, it, vi } from 'vitest';
import { deployedCheckpointLocation } from '../../core/api/deployed-checkpoint-options.js';
import {
  type DeployedCheckpointLocation,
  InvalidOptionError,
  localCheckpointBackend,
  SluiceSession,
} from '../../core/index.js';
import { countsCheckpoint } from '../support/counts-checkpoint.js';

// as in a bundle, which leaves the lazily loaded adapter out
vi.mock('../../core/aws/aws-checkpoint-backends.js', () => {
  throw new Error("Cannot find module '../aws/aws-checkpoint-backends.js'");
});

const options = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([k, v]) => [k.toLowerCase(), v]));

describe('the options that name a deployed checkpoint', () => {
  it('are the table, the query id, and the state bucket and prefix (sluice when the URL has none)', () => {
    const named = (stateLocation: string) =>
      deployedCheckpointLocation(
        'statestore',
        options({ checkpointTable: 'checkpoints', queryId: 'clicks', stateLocation }),
      );
    expect(named('s3://state-bucket/teams/growth/')).toEqual({
      tableName: 'checkpoints',
      queryId: 'clicks',
      bucket: 'state-bucket',
      prefix: 'teams/growth',
    });
    expect(named('s3://state-bucket')?.prefix).toBe('sluice');
    expect(deployedCheckpointLocation('statestore', options({ batchId: '3' }))).toBeUndefined();
  });

  it('are refused when partial or malformed, saying what they must be', () => {
    const named = (entries: Record<string, string>) => () =>
      deployedCheckpointLocation('state-metadata', options(entries));
    expect(named({ checkpointTable: 't', queryId: 'q' })).toThrow(
      /format\('state-metadata'\) on a deployed query needs all of checkpointTable .*, queryId and stateLocation/,
    );
    expect(named({ checkpointTable: 't', queryId: 'q', stateLocation: 'bucket/prefix' })).toThrow(
      /option stateLocation must be the state bucket and prefix as s3:\/\/bucket\/prefix, got 'bucket\/prefix'/,
    );
    expect(named({ checkpointTable: 't', queryId: 'a b', stateLocation: 's3://b' })).toThrow(
      InvalidOptionError,
    );
  });

  it("are opened by the session's checkpointBackends when the DataFrame runs, never with a path too", async () => {
    const checkpoint = await countsCheckpoint([['a', 'b'], ['a']]);
    const opened: DeployedCheckpointLocation[] = [];
    const session = new SluiceSession({
      checkpointBackends: (location) => {
        opened.push(location);
        return localCheckpointBackend(checkpoint);
      },
    });
    const reader = () =>
      session.read
        .format('statestore')
        .option('checkpointTable', 'checkpoints')
        .option('queryId', 'clicks')
        .option('stateLocation', 's3://state-bucket/sluice');
    const df = reader().load();
    expect(opened).toEqual([]);
    expect((await df.collect()).map((r) => r.key).sort()).toEqual(
      (await session.read.format('statestore').load(checkpoint).collect()).map((r) => r.key).sort(),
    );
    expect(opened).toEqual([
      { tableName: 'checkpoints', queryId: 'clicks', bucket: 'state-bucket', prefix: 'sluice' },
    ]);
    expect(() => reader().load(checkpoint)).toThrow(
      /reads either the checkpoint directory given to load\(.*\) or the deployed one of option checkpointTable, not both/,
    );
    expect(() => new SluiceSession({ checkpointBackends: 'aws' as never })).toThrow(
      /Session option checkpointBackends must be a function/,
    );
  });

  it('without checkpointBackends and without the AWS adapter, fails the read saying to give one', async () => {
    const df = new SluiceSession().read
      .format('state-metadata')
      .option('checkpointTable', 'checkpoints')
      .option('queryId', 'clicks')
      .option('stateLocation', 's3://state-bucket')
      .load();
    await expect(df.collect()).rejects.toThrow(
      /Reading a deployed checkpoint could not load Sluice's AWS adapter \(core\/aws\/aws-checkpoint-backends\).*checkpointBackends: awsCheckpointBackends/,
    );
  });
});
