/**
 * The local backend of a checkpoint directory: the checkpoint (FileCheckpointStore) and the state
 * files in the same directory, as `option('checkpointLocation', dir)` lays them out. Tools that
 * read a query's checkpoint from outside it (history, state, the CLI) open it the same way.
 */
import type { CheckpointBackend } from './checkpoint-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';
import { LocalDirectoryStore } from './local-directory-store.js';

/** The checkpoint and state of the query whose checkpoint location is `directory`. */
export function localCheckpointBackend(directory: string): CheckpointBackend {
  const store = new LocalDirectoryStore(directory);
  return { checkpoint: new FileCheckpointStore(store), stateObjects: store };
}
