import { FileCheckpointStore, LocalDirectoryStore, MemoryObjectStore } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';
import { checkpointStoreContract } from './checkpoint-store-contract.js';

checkpointStoreContract('local directory', async () => new FileCheckpointStore(new LocalDirectoryStore(tempDir())), { exclusiveLeases: false });
checkpointStoreContract('in memory', async () => new FileCheckpointStore(new MemoryObjectStore()), { exclusiveLeases: false });
