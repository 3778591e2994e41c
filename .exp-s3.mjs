import S3rver from 's3rver';
import { S3Client, CreateBucketCommand, PutObjectCommand, GetObjectCommand, ListObjectsV2Command, DeleteObjectCommand } from '@aws-sdk/client-s3';
import os from 'node:os'; import fs from 'node:fs'; import path from 'node:path';
const t0 = Date.now();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
const addr = await server.run();
console.log('started', addr, Date.now() - t0);
const s3 = new S3Client({ region: 'us-east-1', endpoint: `http://127.0.0.1:${addr.port}`, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, maxAttempts: 1 });
await s3.send(new CreateBucketCommand({ Bucket: 'b1' }));
await s3.send(new PutObjectCommand({ Bucket: 'b1', Key: 'p/a/b.json', Body: new Uint8Array([1,2,3,0,255]) }));
const g = await s3.send(new GetObjectCommand({ Bucket: 'b1', Key: 'p/a/b.json' }));
console.log('get', await g.Body.transformToByteArray());
try { const r = await s3.send(new PutObjectCommand({ Bucket: 'b1', Key: 'p/a/b.json', Body: new Uint8Array([9]), IfNoneMatch: '*' })); console.log('ifnonematch accepted', r.$metadata.httpStatusCode); } catch (e) { console.log('ifnonematch err', e.name, e.$metadata); }
try { await s3.send(new GetObjectCommand({ Bucket: 'b1', Key: 'nope' })); } catch (e) { console.log('missing', e.name, e.$metadata.httpStatusCode, e.constructor.name, e.Code); }
try { await s3.send(new GetObjectCommand({ Bucket: 'nobucket', Key: 'nope' })); } catch (e) { console.log('missing bucket', e.name, e.$metadata.httpStatusCode); }
const l = await s3.send(new ListObjectsV2Command({ Bucket: 'b1', Prefix: 'p/', MaxKeys: 2 }));
console.log('list', l.Contents?.map(c=>c.Key), l.IsTruncated, l.NextContinuationToken, l.KeyCount);
await s3.send(new DeleteObjectCommand({ Bucket: 'b1', Key: 'p/a/b.json' }));
await s3.send(new DeleteObjectCommand({ Bucket: 'b1', Key: 'p/a/b.json' }));
console.log('deleted ok');
await server.close();
console.log('closed', Date.now() - t0);
