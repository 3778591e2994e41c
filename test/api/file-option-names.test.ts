import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

/** A directory with one JSON file and one CSV file in a subdirectory. */
function input(): string {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'a.json'), '{"n":1}\n');
  writeFileSync(path.join(dir, 'b.json.bak'), '{"n":2}\n');
  mkdirSync(path.join(dir, 'sub'));
  writeFileSync(path.join(dir, 'sub', 'c.json'), '{"n":3}\n');
  return dir;
}

/** The InvalidOptionError message `read` throws, or fails the test. */
function refusal(read: () => unknown): string {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidOptionError);
    return (e as Error).message;
  }
  throw new Error('expected the read to be refused');
}

describe('file reader options that Sluice does not implement', () => {
  const session = new SluiceSession();

  it('refuses multiLine=true for JSON and CSV, and accepts multiLine=false', async () => {
    const dir = input();
    expect(refusal(() => session.read.option('multiLine', true).json(dir))).toMatch(
      /multiLine='true'.*one record per line/,
    );
    expect(refusal(() => session.read.option('multiline', 'true').csv(dir))).toMatch(
      /multiLine='true'/,
    );
    const df = session.read.option('multiLine', false).schema('n INT').json(dir);
    expect((await df.collect()).length).toBe(3);
  });

  it("refuses cleanSource other than 'off' on a file stream", () => {
    const stream = () =>
      session.readStream.schema('n INT').option('cleanSource', 'archive').json(input());
    expect(refusal(stream)).toMatch(/cleanSource='archive'.*only 'off'/);
    expect(() =>
      session.readStream.schema('n INT').option('cleanSource', 'OFF').json(input()),
    ).not.toThrow();
  });

  it('refuses rescuedDataColumn and sourceArchiveDir, saying why and listing the supported options', () => {
    const message = refusal(() =>
      session.read.option('rescuedDataColumn', '_rescued').schema('n INT').json(input()),
    );
    expect(message).toContain("'rescuedDataColumn' it is a Databricks option");
    expect(message).toContain('the supported options are mode, columnNameOfCorruptRecord');
    expect(message).not.toContain('maxFilesPerTrigger');
    expect(
      refusal(() =>
        session.readStream.schema('n INT').option('sourceArchiveDir', '/a').json(input()),
      ),
    ).toMatch(/'sourceArchiveDir'.*supported options are .*maxFilesPerTrigger/);
  });

  it('refuses an option no file reader knows, such as a misspelt one', () => {
    expect(
      refusal(() =>
        session.readStream.schema('n INT').option('maxFilesPerTriger', 1).json(input()),
      ),
    ).toContain("'maxfilespertriger' is not an option Sluice implements for json");
  });

  it("accepts another format's option, as Spark does, without effect", async () => {
    const df = session.read.option('header', true).schema('n INT').json(input());
    expect((await df.collect()).length).toBe(3);
  });

  it('refuses readChangeFeed on a Delta read', async () => {
    await expect(
      session.read.format('delta').option('readChangeFeed', true).load(input()),
    ).rejects.toThrow(/readChangeFeed='true'.*change data feed/);
    await expect(
      session.readStream.format('delta').option('readChangeFeed', 'true').load(input()),
    ).rejects.toThrow(InvalidOptionError);
  });
});

describe('file selection options', () => {
  const session = new SluiceSession();

  it('reads only the files whose name matches pathGlobFilter, in subdirectories too', async () => {
    const df = session.read.option('pathGlobFilter', '*.json').schema('n INT').json(input());
    expect(await df.orderBy('n').collect()).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('infers the schema from the matching files only', () => {
    const dir = input();
    writeFileSync(path.join(dir, 'other.txt'), '{"s":"x"}\n');
    const df = session.read.option('pathGlobFilter', '*.json').json(dir);
    expect(df.schema.fields.map((f) => f.name)).toEqual(['n']);
  });

  it('reads subdirectories with recursiveFileLookup either way, and checks its value', async () => {
    for (const value of [true, false]) {
      const df = session.read.option('recursiveFileLookup', value).schema('n INT').json(input());
      expect((await df.collect()).length).toBe(3);
    }
    expect(
      refusal(() => session.read.option('recursiveFileLookup', 'yes').json(input())),
    ).toContain("recursiveFileLookup='yes'");
  });
});

describe('JSON syntax options of a file read', () => {
  it("follows Spark's defaults and the options that turn them off", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a.json'), '{\'n\': 1}\n{"n": 2}\n');
    const session = new SluiceSession();
    expect(await session.read.schema('n INT').json(dir).collect()).toEqual([{ n: 1 }, { n: 2 }]);
    const strict = session.read
      .option('allowSingleQuotes', 'false')
      .option('mode', 'DROPMALFORMED')
      .schema('n INT')
      .json(dir);
    expect(await strict.collect()).toEqual([{ n: 2 }]);
    expect(() => session.read.option('allowComments', 'true').schema('n INT').json(dir)).toThrow(
      /allowComments=true is not supported/,
    );
  });
});
