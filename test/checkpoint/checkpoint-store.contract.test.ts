import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { FileCheckpointStore, LocalDirectoryStore, MemoryObjectStore } from '../../core/index.js';
import { createCheckpointTable, dynamoClient } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import { checkpointStoreContract } from './checkpoint-store-contract.js';

checkpointStoreContract(
  'local directory',
  async () => new FileCheckpointStore(new LocalDirectoryStore(tempDir())),
  { exclusiveLeases: false },
);
checkpointStoreContract('in memory', async () => new FileCheckpointStore(new MemoryObjectStore()), {
  exclusiveLeases: false,
});

let table: Promise<string> | undefined;
checkpointStoreContract(
  'DynamoDB Local',
  async (clock) => {
    table ??= createCheckpointTable(uniqueName('checkpoints'));
    // one table, many queries: each test gets its own query id
    return new DynamoDbCheckpointStore({
      client: dynamoClient(),
      tableName: await table,
      queryId: uniqueName('query'),
      clock,
    });
  },
  { exclusiveLeases: true },
);
