import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnalysisError, col, SluiceSession, sum } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const rows = [
  { id: 1, name: 'ada', score: 1.5, ts: new Date('2026-01-01T10:00:00Z') },
  { id: 2, name: null, score: null, ts: null },
];
const SCHEMA = 'id INT, name STRING, score DOUBLE, ts TIMESTAMP';

describe('reading and writing files', () => {
  for (const format of ['json', 'csv', 'parquet'] as const) {
    it(`writes a ${format} directory and reads it back with the same rows`, async () => {
      const session = new SluiceSession();
      const dir = path.join(tempDir(), 'out');
      await session
        .createDataFrame(rows, SCHEMA)
        .write.format(format)
        .option('header', true)
        .save(dir);
      expect(existsSync(path.join(dir, '_SUCCESS'))).toBe(true);
      const back = session.read.format(format).option('header', true).schema(SCHEMA).load(dir);
      expect(await back.orderBy('id').collect()).toEqual(rows);
    });
  }

  it('writes and reads text, one line per row', async () => {
    const session = new SluiceSession();
    const dir = path.join(tempDir(), 'text');
    await session
      .createDataFrame([{ value: 'a' }, { value: 'b c' }], 'value STRING')
      .write.text(dir);
    expect(await session.read.text(dir).collect()).toEqual([{ value: 'a' }, { value: 'b c' }]);
  });

  it('infers a JSON schema, reads gzip files, and skips hidden and underscore files', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a.json'), '{"k":"x","n":1}\n{"k":"y","n":2}\n');
    writeFileSync(path.join(dir, 'b.json.gz'), gzipSync('{"k":"x","n":40}\n'));
    writeFileSync(path.join(dir, '_ignored.json'), '{"k":"ignored","n":100}\n');
    writeFileSync(path.join(dir, '.hidden.json'), '{"k":"hidden","n":100}\n');
    const session = new SluiceSession();
    const df = session.read.json(dir);
    expect(df.schema.fields.map((f) => `${f.name}:${f.dataType.kind}`)).toEqual([
      'k:string',
      'n:long',
    ]);
    expect(await df.groupBy('k').agg(sum('n').alias('total')).orderBy('k').collect()).toEqual([
      { k: 'x', total: 41 },
      { k: 'y', total: 2 },
    ]);
  });

  it('reads CSV with a header and inferred types', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'data.csv'), 'city;visits\n"Lyon; FR";3\nOslo;4\n');
    const session = new SluiceSession();
    const df = session.read
      .option('header', 'true')
      .option('delimiter', ';')
      .option('inferSchema', 'true')
      .csv(dir);
    expect(await df.filter(col('visits').gt(3)).collect()).toEqual([{ city: 'Oslo', visits: 4 }]);
    expect(await df.count()).toBe(2);
  });

  it('honours save modes', async () => {
    const session = new SluiceSession();
    const dir = path.join(tempDir(), 'modes');
    const df = session.createDataFrame([{ value: 'a' }], 'value STRING');
    await df.write.json(dir);
    await expect(df.write.json(dir)).rejects.toThrow(/already exists; use mode\('overwrite'\)/);
    await df.write.mode('append').json(dir);
    expect(await session.read.schema('value STRING').json(dir).count()).toBe(2);
    await df.write.mode('overwrite').json(dir);
    expect(await session.read.schema('value STRING').json(dir).count()).toBe(1);
    await df.write.mode('ignore').json(dir);
    expect(await session.read.schema('value STRING').json(dir).count()).toBe(1);
  });

  it('refuses to overwrite the files the query reads, before deleting anything', async () => {
    const session = new SluiceSession();
    const root = tempDir();
    const dir = path.join(root, 'events');
    await session.createDataFrame([{ value: 'a' }], 'value STRING').write.json(dir);
    const input = session.read.schema('value STRING').json(dir);
    const targets = [dir, `${dir}/`, root, path.join(path.relative(process.cwd(), root), 'events')];
    for (const target of targets) {
      for (const df of [input, input.filter(col('value').isNotNull()).union(input)]) {
        const written = df.write.mode('overwrite').json(target);
        await expect(written).rejects.toThrow(AnalysisError);
        await expect(written).rejects.toThrow(
          `Cannot overwrite ${path.resolve(target)}: the query reads ${dir}`,
        );
      }
    }
    expect(await input.collect()).toEqual([{ value: 'a' }]);
  });

  it('refuses to overwrite a Delta table the query reads with plain files', async () => {
    const session = new SluiceSession();
    const table = path.join(tempDir(), 'table');
    await session
      .createDataFrame([{ value: 'a' }], 'value STRING')
      .write.format('delta')
      .save(table);
    const input = await session.read.delta(table);
    await expect(input.write.mode('overwrite').parquet(table)).rejects.toThrow(
      `Cannot overwrite ${table}: the query reads ${table}`,
    );
    expect(await (await session.read.delta(table)).collect()).toEqual([{ value: 'a' }]);
  });

  it('overwrites a directory the query does not read, even one whose name extends the input', async () => {
    const session = new SluiceSession();
    const dir = path.join(tempDir(), 'events');
    await session.createDataFrame([{ value: 'a' }], 'value STRING').write.json(dir);
    const input = session.read.schema('value STRING').json(dir);
    await input.write.mode('overwrite').json(`${dir}-copy`);
    expect(await session.read.schema('value STRING').json(`${dir}-copy`).collect()).toEqual([
      { value: 'a' },
    ]);
  });

  it('names a missing path and an unknown format', () => {
    const session = new SluiceSession();
    expect(() => session.read.json('/no/such/dir')).toThrow(/Path does not exist: \/no\/such\/dir/);
    expect(() => session.read.format('avro')).toThrow(/Unknown file format 'avro'/);
  });

  it('refuses to infer a schema from an empty directory', () => {
    const dir = path.join(tempDir(), 'empty');
    mkdirSync(dir);
    expect(() => new SluiceSession().read.json(dir)).toThrow(/Unable to infer schema for json/);
  });
});
