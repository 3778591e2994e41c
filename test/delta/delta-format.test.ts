import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  DeltaLog,
  type DeltaReaderBuilder,
  InvalidOptionError,
  type RowObject,
  SluiceSession,
} from '../../core/index.js';
import { S3ObjectStore } from '../../core/aws/index.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const SCHEMA = 'id LONG, category STRING';
const objects = (...ids: number[]): RowObject[] =>
  ids.map((id) => ({ id, category: id % 2 === 0 ? 'even' : 'odd' }));

/** The ids of the Delta table at `location`, read with format('delta'). */
async function ids(
  session: SluiceSession,
  location: string,
  reader: (b: DeltaReaderBuilder) => DeltaReaderBuilder = (b) => b,
): Promise<number[]> {
  const df = await reader(session.read.format('delta')).load(location);
  return (await df.collect()).map((r) => r.id as number).sort((a, b) => a - b);
}

/** The operations of the table's commits, in version order. */
async function operations(location: string): Promise<unknown[]> {
  const log = DeltaLog.at(location);
  const commits = await Promise.all((await log.versions()).map((v) => log.readCommit(v)));
  return commits.map((actions) =>
    actions.flatMap((a) => ('commitInfo' in a ? [a.commitInfo.operationParameters] : [])),
  );
}

describe("df.write.format('delta')", () => {
  it('creates the table once; append adds, overwrite replaces, each in one version; versionAsOf reads back', async () => {
    const session = new SluiceSession();
    const table = tempDir('sluice-delta-');
    await session.createDataFrame(objects(1, 2), SCHEMA).write.format('delta').save(table);
    expect(await ids(session, table)).toEqual([1, 2]);

    const again = session.createDataFrame(objects(3), SCHEMA).write.format('delta');
    await expect(again.save(table)).rejects.toThrow(/already exists \(version 0\)/);
    await again.mode('ignore').save(table);
    expect(await DeltaLog.at(table).versions()).toEqual([0]);

    await again.mode('append').save(table);
    expect(await ids(session, table)).toEqual([1, 2, 3]);
    await session.createDataFrame(objects(7, 8), SCHEMA).write.mode('overwrite').delta(table);
    expect(await ids(session, table)).toEqual([7, 8]);

    expect(await operations(table)).toEqual([
      [{ mode: 'ErrorIfExists', partitionBy: '[]' }],
      [{ mode: 'Append', partitionBy: '[]' }],
      [{ mode: 'Overwrite', partitionBy: '[]' }],
    ]);
    const overwrite = await DeltaLog.at(table).readCommit(2);
    expect(overwrite.filter((a) => 'remove' in a)).toHaveLength(2);
    expect(await ids(session, table, (b) => b.option('versionAsOf', 1))).toEqual([1, 2, 3]);
    expect(await ids(session, table, (b) => b.option('versionAsOf', 0))).toEqual([1, 2]);
    await expect(ids(session, table, (b) => b.option('versionAsOf', 3))).rejects.toThrow(
      /has no version 3: its latest version is 2/,
    );
  });

  it('partitions by partitionBy(...) or option partitionBy, and keeps the table partitioning on overwrite', async () => {
    const session = new SluiceSession();
    const byMethod = tempDir('sluice-delta-');
    const byOption = tempDir('sluice-delta-');
    const df = session.createDataFrame(objects(1, 2, 3), SCHEMA);
    await df.write.format('delta').partitionBy('category').save(byMethod);
    await df.write.format('delta').option('partitionBy', 'category').save(byOption);
    for (const table of [byMethod, byOption]) {
      expect(readdirSync(table).sort()).toEqual(['_delta_log', 'category=even', 'category=odd']);
      expect((await DeltaLog.at(table).snapshot())!.partitionColumns).toEqual(['category']);
    }
    await df.write.format('delta').mode('overwrite').save(byMethod);
    expect((await DeltaLog.at(byMethod).snapshot())!.partitionColumns).toEqual(['category']);
    await expect(
      df.write.format('delta').mode('append').partitionBy('id').save(byMethod),
    ).rejects.toBeInstanceOf(AnalysisError);
    await expect(
      df.write.format('parquet').partitionBy('category').save(tempDir()),
    ).rejects.toThrow(/does not partition its output/);
  });

  it('refuses overwrite on an append-only table, rows of another schema, and invalid table properties', async () => {
    const session = new SluiceSession();
    const table = tempDir('sluice-delta-');
    const df = session.createDataFrame(objects(1), SCHEMA);
    await df.write.format('delta').option('delta.appendOnly', 'true').save(table);
    expect((await DeltaLog.at(table).snapshot())!.metadata.configuration).toEqual({
      'delta.appendOnly': 'true',
    });
    await expect(df.write.format('delta').mode('overwrite').save(table)).rejects.toThrow(
      /append-only/,
    );
    await expect(
      session
        .createDataFrame([{ id: 1 }], 'id LONG')
        .write.format('delta')
        .mode('append')
        .save(table),
    ).rejects.toThrow(/has the schema .* but the query writes/);
    await expect(
      df.write.format('delta').option('delta.checkpointInterval', 'never').save(tempDir()),
    ).rejects.toBeInstanceOf(InvalidOptionError);
  });

  it('refuses an option it does not implement, naming it and listing the supported ones, before writing', async () => {
    const session = new SluiceSession();
    const df = session.createDataFrame(objects(1), SCHEMA);
    const table = tempDir('sluice-delta-');
    await df.write.format('delta').save(table);
    const refused = (key: string) =>
      df.write.format('delta').mode('overwrite').option(key, 'true').save(table);

    await expect(refused('overwriteSchema')).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(refused('overwriteSchema')).rejects.toThrow(
      /write\.format\('delta'\) refuses an option: 'overwriteSchema' is not implemented: .*\. Drop it; the supported options are partitionBy, compression, targetFileSize, maxCommitAttempts and delta\.\* table properties\./,
    );
    await expect(refused('partitonBy')).rejects.toThrow(
      /'partitonby' is not an option Sluice implements for Delta\. Drop it; the supported options are partitionBy, /,
    );
    expect(await DeltaLog.at(table).versions()).toEqual([0]);
  });

  it('writes a checkpoint every delta.checkpointInterval versions, which read.format(delta) starts from', async () => {
    const session = new SluiceSession();
    const table = tempDir('sluice-delta-');
    const write = (...xs: number[]) =>
      session
        .createDataFrame(objects(...xs), SCHEMA)
        .write.format('delta')
        .mode('append')
        .option('delta.checkpointInterval', 3)
        .save(table);
    for (let i = 0; i < 8; i++) await write(i);
    const checkpoints = readdirSync(`${table}/_delta_log`).filter((f) => f.includes('checkpoint'));
    expect(checkpoints.sort()).toEqual([
      '00000000000000000003.checkpoint.parquet',
      '00000000000000000006.checkpoint.parquet',
      '_last_checkpoint',
    ]);
    expect(await ids(session, table)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("writeStream.format('delta')", () => {
  it('streams into the table at start(path) exactly once across a restart, with the writer options', async () => {
    const session = new SluiceSession();
    const table = tempDir('sluice-delta-');
    const checkpoint = tempDir();
    const events = session.memoryStream(SCHEMA, 'events');
    const start = () =>
      session.readStream
        .memory(events)
        .writeStream.format('delta')
        .option('checkpointLocation', checkpoint)
        .option('partitionBy', 'category')
        .option('compression', 'gzip')
        .start(table);
    const first = await start();
    events.addData(objects(1, 2));
    await first.processAllAvailable();
    await first.stop();
    const second = await start();
    events.addData(objects(3));
    await second.processAllAvailable();
    await second.stop();

    expect(await ids(session, table)).toEqual([1, 2, 3]);
    const snapshot = (await DeltaLog.at(table).snapshot())!;
    expect(snapshot.partitionColumns).toEqual(['category']);
    expect([...snapshot.files.keys()].every((k) => k.endsWith('.gz.parquet'))).toBe(true);
    expect([...snapshot.transactions.values()].map((t) => t.appId)).toEqual([first.id]);
  });

  it('refuses an option it does not implement, naming it and listing the supported ones', async () => {
    const session = new SluiceSession();
    const df = session.readStream.memory(session.memoryStream(SCHEMA));
    const table = tempDir('sluice-delta-');
    await expect(
      df.writeStream
        .format('delta')
        .option('checkpointLocation', tempDir())
        .option('mergeSchema', 'true')
        .start(table),
    ).rejects.toThrow(
      /writeStream\.format\('delta'\) refuses an option: 'mergeSchema' is not implemented: .*\. Drop it; the supported options are partitionBy, compression, targetFileSize, maxCommitAttempts, appId and delta\.\* table properties\./,
    );
    expect(await DeltaLog.at(table).snapshot()).toBeUndefined();
  });

  it('needs a location', async () => {
    const session = new SluiceSession();
    const df = session.readStream.memory(session.memoryStream(SCHEMA));
    await expect(
      df.writeStream.format('delta').option('checkpointLocation', tempDir()).start(),
    ).rejects.toThrow(/The delta sink needs a location: call start\(path\)/);
  });
});

describe('format(delta) on S3 (s3rver)', () => {
  it('writes, reads, streams from one table into another through s3:// URLs, with checkpoints', async () => {
    const bucket = await createBucket(uniqueName('delta-format'));
    const client = s3Client();
    const session = new SluiceSession({
      objectStores: { s3: (b, prefix) => new S3ObjectStore({ client, bucket: b, prefix }) },
    });
    const source = `s3://${bucket}/tables/source`;
    const target = `s3://${bucket}/tables/target`;
    for (let i = 0; i < 11; i++) {
      await session
        .createDataFrame(objects(2 * i, 2 * i + 1), SCHEMA)
        .write.format('delta')
        .mode('append')
        .save(source);
    }
    const sourceStore = new S3ObjectStore({ client, bucket, prefix: 'tables/source' });
    expect(await sourceStore.list('_delta_log/00000000000000000010.checkpoint')).toEqual([
      '_delta_log/00000000000000000010.checkpoint.parquet',
    ]);
    expect(await ids(session, source)).toEqual(Array.from({ length: 22 }, (_, i) => i));

    const stream = await session.readStream
      .format('delta')
      .option('maxFilesPerTrigger', 4)
      .load(sourceStore);
    const query = await stream.writeStream
      .format('delta')
      .option('checkpointLocation', tempDir())
      .start(target);
    await query.processAllAvailable();
    await query.stop();
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([8, 8, 6]);
    expect(await ids(session, target)).toEqual(Array.from({ length: 22 }, (_, i) => i));
  });
});
