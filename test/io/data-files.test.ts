import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InputLimitError } from '../../core/errors.js';
import { inferSchema, parseDataFile, readDataFile } from '../../core/io/data-files.js';
import { writeParquet } from '../../core/io/parquet.js';
import { parseSchema } from '../../core/types/type-names.js';
import { SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

const schema = parseSchema('n INT');

/** Writes `content` to a new file `name` and returns its path. */
function file(name: string, content: string | Uint8Array): string {
  const f = path.join(tempDir(), name);
  writeFileSync(f, content);
  return f;
}

describe('reading a data file in bounded memory', () => {
  const manyLines = '{"n":1}\n'.repeat(20_000); // 160 KB of 8-byte lines

  it('reads JSON lines and text files larger than maxRecordBytes line by line', async () => {
    const json = await readDataFile(file('a.jsonl', manyLines), 'json', {
      schema,
      maxRecordBytes: 1024,
    });
    expect(json.rows.length).toBe(20_000);
    const text = await readDataFile(file('a.txt', manyLines), 'text', {
      schema,
      maxRecordBytes: 1024,
    });
    expect(text.rows.length).toBe(20_000);
    expect(text.rows[0]).toEqual(['{"n":1}']);
  });

  it('refuses a record longer than maxRecordBytes, naming the file and the limit, in every mode', async () => {
    const f = file('big.jsonl', `{"n":1}\n{"s":"${'x'.repeat(5000)}"}\n`);
    for (const mode of ['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'] as const) {
      await expect(readDataFile(f, 'json', { schema, mode, maxRecordBytes: 4096 })).rejects.toThrow(
        new InputLimitError(
          `${f} has a line longer than maxRecordBytes (4096 bytes): a record that large would not fit in memory once parsed. Raise the option maxRecordBytes if the record is genuine, or fix the file (a line format holds one record per line).`,
        ),
      );
    }
  });

  it('refuses a gzip bomb beyond maxDecompressedBytes, read from a file or from bytes', async () => {
    const bomb = gzipSync(Buffer.from(manyLines.repeat(10))); // 1.6 MB inflated
    const f = file('bomb.json.gz', bomb);
    const limits = { schema, maxDecompressedBytes: 512 * 1024 };
    await expect(readDataFile(f, 'json', limits)).rejects.toThrow(InputLimitError);
    await expect(parseDataFile('s3://in/bomb.json.gz', 'json', bomb, limits)).rejects.toThrow(
      /s3:\/\/in\/bomb\.json\.gz inflates to more than maxDecompressedBytes \(524288 bytes\)/,
    );
    expect(() => inferSchema([f], 'json', { maxDecompressedBytes: 512 * 1024 })).toThrow(
      InputLimitError,
    );
    expect((await readDataFile(f, 'json', { schema })).rows.length).toBe(200_000);
  });

  it('infers a JSON schema line by line', () => {
    const f = file('mixed.jsonl', `${manyLines}{"s":"x"}\n`);
    expect(inferSchema([f], 'json', { maxRecordBytes: 1024 })).toEqual(
      parseSchema('n BIGINT, s STRING'),
    );
  });
});

describe('reading a CSV file in bounded memory', () => {
  const manyRecords = 'n,s\n' + '1,"a\nb"\n'.repeat(20_000); // 180 KB of two-line records
  const csvSchema = parseSchema('n INT, s STRING');

  it('reads a CSV file larger than maxRecordBytes record by record, quoted line breaks included', async () => {
    const f = file('many.csv', manyRecords);
    const { rows } = await readDataFile(f, 'csv', {
      schema: csvSchema,
      header: true,
      maxRecordBytes: 1024,
    });
    expect(rows.length).toBe(20_000);
    expect(rows[19_999]).toEqual([1, 'a\nb']);
  });

  it('refuses a CSV record longer than maxRecordBytes, naming the file and the limit, in every mode', async () => {
    const f = file('big.csv', `1,a\n2,"${'x'.repeat(100_000)}"\n3,c\n`);
    for (const mode of ['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'] as const) {
      const read = readDataFile(f, 'csv', { schema: csvSchema, mode, maxRecordBytes: 4096 });
      await expect(read).rejects.toThrow(InputLimitError);
      await expect(read).rejects.toThrow(
        `${f} has a CSV record longer than maxRecordBytes (4096 bytes)`,
      );
    }
    expect(() => inferSchema([f], 'csv', { inferSchema: true, maxRecordBytes: 4096 })).toThrow(
      /big\.csv has a CSV record longer than maxRecordBytes \(4096 bytes\)/,
    );
  });

  it('refuses a CSV gzip bomb beyond maxDecompressedBytes, read from a file or from bytes', async () => {
    const bomb = gzipSync(Buffer.from(manyRecords.repeat(2))); // 360 KB inflated
    const f = file('bomb.csv.gz', bomb);
    const limits = { schema: csvSchema, maxDecompressedBytes: 64 * 1024 };
    await expect(readDataFile(f, 'csv', limits)).rejects.toThrow(
      `${f} inflates to more than maxDecompressedBytes (65536 bytes)`,
    );
    await expect(parseDataFile('s3://in/bomb.csv.gz', 'csv', bomb, limits)).rejects.toThrow(
      /s3:\/\/in\/bomb\.csv\.gz inflates to more than maxDecompressedBytes \(65536 bytes\)/,
    );
    expect(() =>
      inferSchema([f], 'csv', { inferSchema: true, maxDecompressedBytes: 64 * 1024 }),
    ).toThrow(InputLimitError);
  });

  it('infers a CSV schema from every file record by record, skipping each header', () => {
    const a = file('a.csv', manyRecords);
    const b = file('b.csv', 'n,s\n2.5,x\n');
    expect(
      inferSchema([a, b], 'csv', { header: true, inferSchema: true, maxRecordBytes: 1024 }),
    ).toEqual(parseSchema('n DOUBLE, s STRING'));
  });
});

describe('reading a Parquet file whole', () => {
  it('refuses a Parquet file larger than maxDecompressedBytes, naming the file and the limit', async () => {
    const rows = Array.from({ length: 5000 }, (_, n) => [n]);
    const f = file('big.parquet', writeParquet(rows, schema));
    const limits = { schema, maxDecompressedBytes: 1024 };
    const message = `${f} is larger than maxDecompressedBytes (1024 bytes)`;
    await expect(readDataFile(f, 'parquet', limits)).rejects.toThrow(InputLimitError);
    await expect(readDataFile(f, 'parquet', limits)).rejects.toThrow(message);
    expect(() => inferSchema([f], 'parquet', { maxDecompressedBytes: 1024 })).toThrow(message);
    expect((await readDataFile(f, 'parquet', { schema })).rows.length).toBe(5000);
    expect(inferSchema([f], 'parquet', {})).toEqual(parseSchema('n INT'));
  });
});

describe('memory limits as reader options', () => {
  it('take maxRecordBytes and maxDecompressedBytes with units, and refuse other values by name', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a.json'), `{"s":"${'x'.repeat(2000)}"}\n`);
    const session = new SluiceSession();
    await expect(
      session.read.option('maxRecordBytes', '1k').schema('s STRING').json(dir).collect(),
    ).rejects.toThrow(/maxRecordBytes \(1024 bytes\)/);
    expect(
      await session.read.option('maxRecordBytes', '1m').schema('s STRING').json(dir).count(),
    ).toBe(1);
    expect(() => session.read.option('maxDecompressedBytes', 'lots').json(dir)).toThrow(
      /Invalid option maxDecompressedBytes='lots'/,
    );
  });
});
