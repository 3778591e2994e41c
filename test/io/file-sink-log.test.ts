import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FileSinkLog,
  InvalidOptionError,
  MemoryObjectStore,
  SinkError,
  type SinkFileEntry,
  SluiceSession,
  UnsafePathError,
} from '../../core/index.js';
import { S3ObjectStore } from '../../core/aws/index.js';
import {
  decodeManifest,
  encodeManifest,
  isCompactionBatch,
  manifestsToRead,
  parseManifestName,
} from '../../core/io/file-sink-log.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const file = (path: string, size = 10): SinkFileEntry => ({
  path,
  size,
  modificationTime: 1_767_225_600_000,
  action: 'add',
});

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('the names of the manifest log', () => {
  it('are batch ids, with .compact for compaction batches; anything else is not a manifest', () => {
    expect(parseManifestName('7')).toEqual({ name: '7', batchId: 7, compact: false });
    expect(parseManifestName('19.compact')).toEqual({
      name: '19.compact',
      batchId: 19,
      compact: true,
    });
    for (const other of ['.tmp-1234', '7.json', 'x', '7.compact.tmp', '-1']) {
      expect(parseManifestName(other)).toBeUndefined();
    }
  });

  it('make batch n a compaction batch when (n + 1) % interval == 0', () => {
    const compactions = Array.from({ length: 30 }, (_, n) => n).filter((n) =>
      isCompactionBatch(n, 10),
    );
    expect(compactions).toEqual([9, 19, 29]);
    expect(isCompactionBatch(0, 1)).toBe(true);
  });

  it('tell a reader to read the latest compact manifest and the batches after it, in batch order', () => {
    const names = ['10', '9.compact', '2', '8', '4.compact', '11', '.tmp-x', '3'];
    expect(manifestsToRead(names).map((m) => m.name)).toEqual(['9.compact', '10', '11']);
    expect(manifestsToRead(['2', '10', '1']).map((m) => m.name)).toEqual(['1', '2', '10']);
    expect(manifestsToRead([])).toEqual([]);
  });
});

describe('a manifest', () => {
  it('is v1, a header naming the batch and query, then one JSON line per file, and reads back', () => {
    const manifest = {
      batchId: 4,
      queryId: 'q-1',
      compact: false,
      files: [file('part-00004-a.json', 12), file('p=1/part-00004-b.json', 30)],
    };
    const encoded = encodeManifest(manifest);
    const lines = Buffer.from(encoded).toString('utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('v1');
    expect(JSON.parse(lines[1])).toEqual({ batchId: 4, queryId: 'q-1' });
    expect(JSON.parse(lines[2])).toEqual(file('part-00004-a.json', 12));
    expect(decodeManifest(parseManifestName('4')!, encoded, 'log/4')).toEqual(manifest);
  });

  it('of a newer format is refused with a message saying so', () => {
    const read = () => decodeManifest(parseManifestName('0')!, bytes('v2\n{}\n'), 'out/log/0');
    expect(read).toThrow(SinkError);
    expect(read).toThrow(/out\/log\/0 has format v2; this version of Sluice reads v1/);
  });

  it.each([
    ['no version line', '{"batchId":0,"queryId":"q"}\n'],
    ['a header of another batch', 'v1\n{"batchId":1,"queryId":"q"}\n'],
    ['a header without a query id', 'v1\n{"batchId":0}\n'],
    ['a line that is not JSON', 'v1\n{"batchId":0,"queryId":"q"}\n{"path":\n'],
    ['an entry without a path', 'v1\n{"batchId":0,"queryId":"q"}\n{"size":1,"action":"add"}\n'],
    [
      'an action other than add',
      'v1\n{"batchId":0,"queryId":"q"}\n{"path":"a","size":1,"modificationTime":0,"action":"delete"}\n',
    ],
  ])('with %s is damaged, naming the object', (_, text) => {
    const read = () => decodeManifest(parseManifestName('0')!, bytes(text), 'out/log/0');
    expect(read).toThrow(SinkError);
    expect(read).toThrow(/File sink manifest out\/log\/0 is damaged/);
  });
});

describe('FileSinkLog on an object store', () => {
  it('adds each batch once: put-if-absent tells a second attempt the batch exists', async () => {
    const log = new FileSinkLog(new MemoryObjectStore());
    expect(await log.hasBatch(0)).toBe(false);
    expect(await log.add(0, 'q', [file('a')])).toBe('created');
    expect(await log.add(0, 'q', [file('b')])).toBe('exists');
    expect(await log.hasBatch(0)).toBe(true);
    expect(await log.allFiles()).toEqual([file('a')]);
  });

  it('compacts: the compaction batch lists every earlier file and its own, the latest is found', async () => {
    const store = new MemoryObjectStore();
    const log = new FileSinkLog(store, 3);
    for (let b = 0; b < 5; b++) await log.add(b, 'q', b === 3 ? [] : [file(`f${b}`)]);

    expect(await store.list('_sluice_metadata/')).toEqual(
      ['0', '1', '2.compact', '3', '4'].map((n) => `_sluice_metadata/${n}`),
    );
    expect(await log.hasBatch(2)).toBe(true);
    expect((await log.allFiles()).map((f) => f.path)).toEqual(['f0', 'f1', 'f2', 'f4']);
    expect(await log.latest()).toMatchObject({ batchId: 4, queryId: 'q', compact: false });
    await store.delete('_sluice_metadata/0');
    await store.delete('_sluice_metadata/1');
    expect((await log.allFiles()).map((f) => f.path)).toEqual(['f0', 'f1', 'f2', 'f4']);
  });

  it('compacts what is there when the log starts at a later batch', async () => {
    const log = new FileSinkLog(new MemoryObjectStore(), 5);
    await log.add(3, 'q', [file('f3')]);
    await log.add(4, 'q', [file('f4')]);
    expect((await log.allFiles()).map((f) => f.path)).toEqual(['f3', 'f4']);
  });

  it('refuses a compactInterval that is not a positive integer, naming it', () => {
    for (const interval of [0, -1, 1.5, Number.NaN]) {
      expect(() => new FileSinkLog(new MemoryObjectStore(), interval)).toThrow(InvalidOptionError);
      expect(() => new FileSinkLog(new MemoryObjectStore(), interval)).toThrow(/compactInterval/);
    }
  });
});

describe('a manifest entry whose path leads outside the sink root', () => {
  const manifestListing = (...paths: string[]) =>
    encodeManifest({ batchId: 0, queryId: 'q', compact: false, files: paths.map((p) => file(p)) });

  it.each(['../secret.json', 'a/../../secret.json', '/etc/passwd', 's3://other-bucket/x.json'])(
    'is refused when the manifest is read: %s',
    (outside) => {
      const read = () =>
        decodeManifest(
          parseManifestName('0')!,
          manifestListing('part-0.json', outside),
          'out/log/0',
        );
      expect(read).toThrow(UnsafePathError);
      expect(read).toThrow(
        `File sink manifest out/log/0: line 4 holds the path ${JSON.stringify(outside)}`,
      );
    },
  );

  it('is never read by read.json of a local output directory', () => {
    const root = tempDir('sluice-sink-paths-');
    const output = path.join(root, 'out');
    mkdirSync(path.join(output, '_sluice_metadata'), { recursive: true });
    writeFileSync(path.join(root, 'secret.json'), '{"password":"hunter2"}\n');
    writeFileSync(path.join(output, '_sluice_metadata', '0'), manifestListing('../secret.json'));
    const read = async () => new SluiceSession().read.json(output).collect();
    return expect(read()).rejects.toThrow(
      /line 3 holds the path "\.\.\/secret\.json", which climbs out/,
    );
  });

  it('is never read from an output on S3, one prefix over', async () => {
    const bucket = await createBucket(uniqueName('sink-paths'));
    const output = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'outputs/clicks' });
    const above = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'outputs' });
    await above.put('secret.json', bytes('{"password":"hunter2"}\n'));
    await output.put('_sluice_metadata/0', manifestListing('../secret.json'));
    await expect(new FileSinkLog(output).allFiles()).rejects.toBeInstanceOf(UnsafePathError);
  });
});
