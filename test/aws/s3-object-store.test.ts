import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { CheckpointError, InvalidOptionError } from '../../core/errors.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { localS3Client } from '../support/local-aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('S3ObjectStore options', () => {
  const client = localS3Client('http://127.0.0.1:1');

  it('normalizes the prefix to end with one / and names bucket and prefix in its location', () => {
    expect(new S3ObjectStore({ client, bucket: 'state', prefix: 'queries/q1' }).location).toBe(
      's3://state/queries/q1/',
    );
    expect(new S3ObjectStore({ client, bucket: 'state', prefix: 'queries/q1/' }).location).toBe(
      's3://state/queries/q1/',
    );
    expect(new S3ObjectStore({ client, bucket: 'state' }).location).toBe('s3://state/');
  });

  it('rejects an invalid bucket, prefix or page size, naming the option', () => {
    expect(() => new S3ObjectStore({ client, bucket: 'My_Bucket' })).toThrow(InvalidOptionError);
    expect(() => new S3ObjectStore({ client, bucket: '' })).toThrow(/option 'bucket'.*got ""/);
    expect(() => new S3ObjectStore({ client, bucket: 'state', prefix: '/queries' })).toThrow(
      /option 'prefix'='\/queries' is invalid: it starts with '\/'/,
    );
    for (const prefix of ['../other-query', 'queries/../../x', 'a//b']) {
      expect(() => new S3ObjectStore({ client, bucket: 'state', prefix })).toThrow(
        `S3ObjectStore option 'prefix'='${prefix}' is invalid`,
      );
    }
    expect(new S3ObjectStore({ client, bucket: 'state', prefix: 'queries/q1/' }).location).toBe(
      's3://state/queries/q1/',
    );
    for (const listPageSize of [0, 1001, 2.5]) {
      expect(() => new S3ObjectStore({ client, bucket: 'state', listPageSize })).toThrow(
        /option 'listPageSize' must be an integer from 1 to 1000/,
      );
    }
  });
});

describe('S3ObjectStore on s3rver', () => {
  it('keeps stores with different prefixes of one bucket apart, even when one prefix starts the other', async () => {
    const bucket = await createBucket(uniqueName('prefixes'));
    const q1 = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'queries/q1' });
    const q10 = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'queries/q10' });
    await q1.put('commits/1.json', bytes('q1'));
    await q10.put('commits/1.json', bytes('q10'));
    expect(await q1.list('')).toEqual(['commits/1.json']);
    expect(new TextDecoder().decode(await q10.get('commits/1.json'))).toBe('q10');

    const whole = new S3ObjectStore({ client: s3Client(), bucket });
    expect(await whole.list('')).toEqual([
      'queries/q1/commits/1.json',
      'queries/q10/commits/1.json',
    ]);
  });

  it('reads a byte range of an object under its prefix, fewer bytes at its end, and undefined for a missing key', async () => {
    const bucket = await createBucket(uniqueName('ranges'));
    const store = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'data' });
    await store.put('a.gz', bytes('0123456789'));
    const decode = (range: Uint8Array | undefined) => new TextDecoder().decode(range);
    expect(decode(await store.getRange('a.gz', 6, 4))).toBe('6789');
    expect(decode(await store.getRange('a.gz', 8, 4))).toBe('89');
    expect(await store.getRange('missing.gz', 0, 4)).toBeUndefined();
  });

  it('fails with a non-retriable CheckpointError naming the object when the bucket does not exist', async () => {
    const bucket = uniqueName('missing');
    const store = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'queries/q1' });
    for (const call of [
      () => store.get('commits/1.json'),
      () => store.put('commits/1.json', bytes('1')),
      () => store.list('commits/'),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as CheckpointError).retriable).toBe(false);
      expect((error as CheckpointError).message).toContain(`s3://${bucket}/queries/q1/commits/`);
      expect((error as CheckpointError).message).toContain('NoSuchBucket');
      expect((error as CheckpointError).message).toContain('create it');
      expect(((error as CheckpointError).cause as Error).name).toBe('NoSuchBucket');
    }
  });
});

/**
 * A stand-in S3 endpoint answering with scripted statuses, for the answers of real S3 that s3rver
 * never gives (it does not enforce If-None-Match, and it never throttles). The client under it is a
 * real S3Client, so the SDK's own parsing of these answers is part of what is tested.
 */
class ScriptedS3 {
  readonly requests: { method: string; url: string; ifNoneMatch: string | undefined }[] = [];
  private readonly server: Server;

  constructor(private readonly answers: { status: number; code: string }[]) {
    this.server = createServer((request: IncomingMessage, response) => {
      request.resume();
      request.on('end', () => {
        const ifNoneMatch = request.headers['if-none-match'];
        this.requests.push({ method: request.method ?? '', url: request.url ?? '', ifNoneMatch });
        const answer = this.answers.shift();
        if (!answer) {
          response.writeHead(200, { etag: '"1"' }).end();
          return;
        }
        const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${answer.code}</Code><Message>scripted</Message><RequestId>1</RequestId></Error>`;
        response.writeHead(answer.status, { 'content-type': 'application/xml' }).end(body);
      });
    });
  }

  async store(): Promise<S3ObjectStore> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return new S3ObjectStore({
      client: localS3Client(`http://127.0.0.1:${port}`),
      bucket: 'state',
      prefix: 'q',
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('S3ObjectStore on the answers of real S3', () => {
  const servers: ScriptedS3[] = [];
  const scripted = (...answers: { status: number; code: string }[]): ScriptedS3 => {
    const server = new ScriptedS3(answers);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("creates with If-None-Match: * and answers 'exists' to S3's 412 PreconditionFailed", async () => {
    const s3 = scripted({ status: 412, code: 'PreconditionFailed' });
    const store = await s3.store();
    expect(await store.putIfAbsent('offsets/0.json', bytes('second'))).toBe('exists');
    expect(await store.putIfAbsent('offsets/1.json', bytes('first'))).toBe('created');
    expect(s3.requests).toEqual([
      { method: 'PUT', url: '/state/q/offsets/0.json?x-id=PutObject', ifNoneMatch: '*' },
      { method: 'PUT', url: '/state/q/offsets/1.json?x-id=PutObject', ifNoneMatch: '*' },
    ]);
  });

  it('sends a conditional create again after a 409 ConditionalRequestConflict, as S3 asks', async () => {
    const s3 = scripted(
      { status: 409, code: 'ConditionalRequestConflict' },
      { status: 412, code: 'PreconditionFailed' },
    );
    const store = await s3.store();
    expect(await store.putIfAbsent('offsets/0.json', bytes('x'))).toBe('exists');
    expect(s3.requests).toHaveLength(2);
  });

  it('gives up after three conflicts with a retriable CheckpointError', async () => {
    const conflict = { status: 409, code: 'ConditionalRequestConflict' };
    const s3 = scripted(conflict, conflict, conflict);
    const store = await s3.store();
    const error = await store.putIfAbsent('offsets/0.json', bytes('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).retriable).toBe(true);
    expect((error as CheckpointError).message).toMatch(
      /^Could not create s3:\/\/state\/q\/offsets\/0\.json: ConditionalRequestConflict \(HTTP 409\)/,
    );
    expect(s3.requests).toHaveLength(3);
  });

  it('reports throttling that outlasts the SDK retries as a retriable CheckpointError', async () => {
    const slowDown = { status: 503, code: 'SlowDown' };
    const s3 = scripted(slowDown, slowDown);
    const store = await s3.store();
    const error = await store.get('state/manifest.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).retriable).toBe(true);
    expect((error as CheckpointError).message).toMatch(
      /^Could not read s3:\/\/state\/q\/state\/manifest\.json: SlowDown \(HTTP 503\)/,
    );
  });
});
