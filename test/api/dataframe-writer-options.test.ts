import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  type DataFrame,
  type DataFrameWriter,
  InvalidOptionError,
  SluiceSession,
} from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const ROWS = [
  { id: 1, name: "it's|here" },
  { id: 2, name: null },
];
const SCHEMA = 'id INT, name STRING';

type Options = Record<string, string | boolean>;

function people(session = new SluiceSession()): DataFrame {
  return session.createDataFrame(ROWS, SCHEMA);
}

function withOptions<T extends { option(key: string, value: string | boolean): T }>(
  builder: T,
  options: Options,
): T {
  return Object.entries(options).reduce((b, [key, value]) => b.option(key, value), builder);
}

/** The one data file a write left in `dir` (every name but _SUCCESS and the file sink's log). */
function dataFile(dir: string): string {
  const files = readdirSync(dir).filter((name) => !name.startsWith('_'));
  expect(files).toHaveLength(1);
  return files[0];
}

describe('df.write options', () => {
  it('writes CSV with the header, sep, quote, escape and nullValue it is given, which the reader reads back', async () => {
    const session = new SluiceSession();
    const dir = path.join(tempDir(), 'out');
    const options = { header: true, sep: '|', quote: "'", escape: '#', nullValue: 'NA' };
    await withOptions(people(session).write.format('csv'), options).save(dir);

    expect(readFileSync(path.join(dir, dataFile(dir)), 'utf8')).toBe(
      "id|name\n1|'it#'s|here'\n2|NA\n",
    );
    const back = withOptions(session.read.format('csv'), options).schema(SCHEMA).load(dir);
    expect(await back.orderBy('id').collect()).toEqual(ROWS);
  });

  it('takes delimiter as the same option as sep', async () => {
    const dir = path.join(tempDir(), 'out');
    await people().write.option('delimiter', ';').csv(dir);
    expect(readFileSync(path.join(dir, dataFile(dir)), 'utf8')).toBe("1;it's|here\n2;\n");
  });

  for (const format of ['csv', 'json', 'text'] as const) {
    it(`compresses ${format} files with gzip, named .gz so that the reader decompresses them`, async () => {
      const session = new SluiceSession();
      const df =
        format === 'text'
          ? session.createDataFrame([{ value: 'a' }, { value: 'b|c' }], 'value STRING')
          : people(session);
      const plain = path.join(tempDir(), 'plain');
      const zipped = path.join(tempDir(), 'zipped');
      await df.write.format(format).save(plain);
      await df.write.format(format).option('compression', 'gzip').save(zipped);

      const extension = format === 'text' ? 'txt' : format;
      const file = dataFile(zipped);
      expect(file).toMatch(new RegExp(`^part-00000-[0-9a-f-]{36}\\.${extension}\\.gz$`));
      expect(gunzipSync(readFileSync(path.join(zipped, file))).toString('utf8')).toBe(
        readFileSync(path.join(plain, dataFile(plain)), 'utf8'),
      );
      const back = session.read.format(format).schema(df.schema).load(zipped);
      expect(await back.collect()).toEqual(await df.collect());
    });
  }

  it('names Parquet files after their codec, as the file sink does', async () => {
    const session = new SluiceSession();
    const dir = path.join(tempDir(), 'out');
    await people(session).write.option('compression', 'gzip').parquet(dir);
    expect(dataFile(dir)).toMatch(/\.gz\.parquet$/);
    expect(await session.read.parquet(dir).orderBy('id').collect()).toEqual(ROWS);
  });

  it('takes none as uncompressed for Parquet too, as Spark does', async () => {
    const session = new SluiceSession();
    const dir = path.join(tempDir(), 'out');
    await people(session).write.option('compression', 'none').parquet(dir);
    expect(dataFile(dir)).toMatch(/^part-00000-[0-9a-f-]{36}\.parquet$/);
    expect(await session.read.parquet(dir).orderBy('id').collect()).toEqual(ROWS);
  });

  it('writes what a file stream sink given the same options writes', async () => {
    const session = new SluiceSession();
    const options = { header: true, sep: '|', quote: "'", escape: '#', nullValue: 'NA' };
    const batch = path.join(tempDir(), 'batch');
    const stream = path.join(tempDir(), 'stream');
    await withOptions(people(session).write.format('csv'), options).save(batch);
    const events = session.memoryStream(SCHEMA);
    const query = await withOptions(
      session.readStream.memory(events).writeStream.format('csv'),
      options,
    )
      .option('checkpointLocation', tempDir())
      .start(stream);
    events.addData(ROWS);
    await query.processAllAvailable();
    await query.stop();
    expect(readFileSync(path.join(stream, dataFile(stream)), 'utf8')).toBe(
      readFileSync(path.join(batch, dataFile(batch)), 'utf8'),
    );
  });

  describe('refuses, before anything is written or deleted,', () => {
    /** A directory a write in overwrite mode would clear, holding one file. */
    function existingOutput(): string {
      const dir = path.join(tempDir(), 'out');
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'kept.json'), '{"id":9}\n');
      return dir;
    }

    async function expectRefusedAndUntouched(
      write: (writer: DataFrameWriter, dir: string) => Promise<void>,
      message: RegExp,
      error: typeof InvalidOptionError | typeof AnalysisError = InvalidOptionError,
    ): Promise<void> {
      const fresh = path.join(tempDir(), 'fresh');
      await expect(write(people().write, fresh)).rejects.toThrow(error);
      await expect(write(people().write, fresh)).rejects.toThrow(message);
      expect(existsSync(fresh)).toBe(false);

      const existing = existingOutput();
      await expect(write(people().write.mode('overwrite'), existing)).rejects.toThrow(message);
      expect(existsSync(existing) && readdirSync(existing)).toEqual(['kept.json']);
    }

    it('a misspelt option, naming it and listing the supported ones', async () => {
      await expectRefusedAndUntouched(
        (writer, dir) => writer.option('delimeter', ';').csv(dir),
        /write\.format\('csv'\) refuses an option: 'delimeter' is not an option Sluice implements for csv\. Drop it; the supported options are compression, header, delimiter, sep, quote, escape, nullValue\./,
      );
    });

    it('an option Spark has and Sluice does not implement, saying why', async () => {
      await expectRefusedAndUntouched(
        (writer, dir) => writer.option('timestampFormat', 'yyyy-MM-dd HH:mm').json(dir),
        /write\.format\('json'\) refuses an option: 'timestampFormat' is not implemented: timestamps are written ISO 8601.*the supported options are compression\./,
      );
      await expectRefusedAndUntouched(
        (writer, dir) => writer.option('maxRecordsPerFile', '10').parquet(dir),
        /refuses an option: 'maxRecordsPerFile' is not implemented.*the supported options are compression\./,
      );
    });

    it('an option a file stream sink refuses alike', async () => {
      const session = new SluiceSession();
      const started = session.readStream
        .memory(session.memoryStream(SCHEMA))
        .writeStream.format('json')
        .option('checkpointLocation', tempDir())
        .option('timestampFormat', 'yyyy-MM-dd HH:mm')
        .start(path.join(tempDir(), 'stream'));
      await expect(started).rejects.toThrow(
        /writeStream\.format\('json'\) refuses an option: 'timestampFormat' is not implemented: timestamps are written ISO 8601.*the supported options are compactInterval, compression\./,
      );
    });

    it('a value the format cannot write with, naming the option', async () => {
      await expectRefusedAndUntouched(
        (writer, dir) => writer.option('compression', 'zip').json(dir),
        /Invalid option compression 'zip' for json files: use none or gzip\./,
      );
      await expectRefusedAndUntouched(
        (writer, dir) => writer.option('quote', '').csv(dir),
        /Invalid CSV option quote ''/,
      );
    });

    it('a schema the format cannot hold, before an overwrite deletes the output', async () => {
      await expectRefusedAndUntouched(
        (writer, dir) => writer.text(dir),
        /The text format writes a single string column; .* \[id: integer, name: string\]/,
        AnalysisError,
      );
    });
  });

  it('accepts an option of another file format, which changes nothing', async () => {
    const session = new SluiceSession();
    const plain = path.join(tempDir(), 'plain');
    const withHeader = path.join(tempDir(), 'with-header');
    await people(session).write.json(plain);
    await people(session).write.option('header', true).json(withHeader);
    expect(readFileSync(path.join(withHeader, dataFile(withHeader)), 'utf8')).toBe(
      readFileSync(path.join(plain, dataFile(plain)), 'utf8'),
    );
  });
});
