/**
 * Which files a shard of a query reads: a file goes to the shard given by a stable hash of its path
 * (the first 4 bytes of its SHA-256, as an unsigned integer, mod N). The hash depends on the path
 * alone, so every shard, every attempt and every container assigns a file alike, whatever else the
 * listing holds; a file is read by exactly one shard.
 */
import { createHash } from 'node:crypto';
import type { ShardIdentity } from '../checkpoint/shard-identity.js';

/** The shard (0 to `shards - 1`) that reads the file at `path`. */
export function fileShard(path: string, shards: number): number {
  return createHash('sha256').update(path, 'utf8').digest().readUInt32BE(0) % shards;
}

/** True when shard `identity` reads the file at `path`. */
export function readsFile(identity: ShardIdentity, path: string): boolean {
  return identity.shards === 1 || fileShard(path, identity.shards) === identity.shard;
}
