import { LocalDirectoryStore } from '../../core/checkpoint/local-directory-store.js';
import { MemoryObjectStore } from '../../core/checkpoint/memory-object-store.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import { objectStoreContract } from './object-store-contract.js';

objectStoreContract('in memory', () => new MemoryObjectStore(), { enforcesPutIfAbsent: true });
objectStoreContract('local directory', () => new LocalDirectoryStore(tempDir()), {
  enforcesPutIfAbsent: true,
});

let bucket: Promise<string> | undefined;
objectStoreContract(
  'S3 on s3rver',
  async () => {
    bucket ??= createBucket(uniqueName('contract'));
    // One bucket, many stores: each test gets its own prefix, as queries do. A small list page makes
    // the long-listing test cross several ListObjectsV2 pages, as S3 listings beyond 1000 keys do.
    return new S3ObjectStore({
      client: s3Client(),
      bucket: await bucket,
      prefix: `queries/${uniqueName('query')}`,
      listPageSize: 7,
    });
  },
  // s3rver accepts If-None-Match: * without enforcing it; real S3 enforces it. A property of the
  // test server, not of the store: the engine never relies on putIfAbsent for correctness on S3.
  { enforcesPutIfAbsent: false },
);
