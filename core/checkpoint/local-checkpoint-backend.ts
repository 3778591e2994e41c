/**
 * The local backend of a checkpoint directory: the checkpoint (FileCheckpointStore) and the state
 * files in the same directory, as `option('checkpointLocation', dir)` lays them out. Tools that
 * read a query's checkpoint from outside it (history, state, the CLI) open it the same way.
 *
 * A shard of a query with parallelism above 1 keeps its checkpoint and state in its own directory
 * below the query's, `<dir>/stages/<stage>/shards/<shard>`; the query's directory keeps the metadata
 * that records the parallelism. The unsharded query uses `<dir>` itself, as it always did.
 */
import path from 'node:path';
import type { CheckpointBackend } from './checkpoint-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';
import { LocalDirectoryStore } from './local-directory-store.js';
import { isUnsharded, type ShardIdentity, shardStatePath, UNSHARDED } from './shard-identity.js';

/** The checkpoint and state of shard `shard` of the query whose checkpoint location is `directory`. */
export function localCheckpointBackend(
  directory: string,
  shard: ShardIdentity = UNSHARDED,
): CheckpointBackend {
  if (isUnsharded(shard)) {
    const store = new LocalDirectoryStore(directory);
    return { checkpoint: new FileCheckpointStore(store), stateObjects: store };
  }
  const store = new LocalDirectoryStore(path.join(directory, ...shardStatePath(shard).split('/')));
  return {
    checkpoint: new FileCheckpointStore(store),
    stateObjects: store,
    shard,
    queryCheckpoint: new FileCheckpointStore(new LocalDirectoryStore(directory)),
  };
}
