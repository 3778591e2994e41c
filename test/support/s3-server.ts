/**
 * s3rver, an S3-compatible server, in the test runner's process on a free loopback port.
 *
 * What it does not do like S3 (tests must not depend on these): it accepts PutObject's
 * If-None-Match: * without enforcing it (http-relay.ts enforces it in front of s3rver); it stores request bodies as sent, so the SDK's aws-chunked
 * encoding of streamed uploads must be off (see local-aws-clients.ts); objects are written in place,
 * not atomically, so a reader racing a writer of the same key could see a partial object (the
 * engine's keys are write-once and read only after their write completed).
 */
import { createCipheriv } from 'node:crypto';
import S3rver from 's3rver';
import type { RunningService } from './running-service.js';

/**
 * Starts s3rver on 127.0.0.1, keeping its buckets under `directory`. The process must run with
 * `node --openssl-legacy-provider`: s3rver encrypts ListObjectsV2 continuation tokens with DES,
 * which Node 17+ disables otherwise, and every listing longer than one page would fail with a 500.
 */
export async function startS3Server(directory: string): Promise<RunningService> {
  try {
    createCipheriv('des', Buffer.alloc(8), Buffer.alloc(8));
  } catch {
    throw new Error(
      "s3rver's paged listings need DES, which this Node process lacks: run it with `node --openssl-legacy-provider`.",
    );
  }
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
