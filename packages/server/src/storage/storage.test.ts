import {
  TEST_DATABASE_URL,
  dropSchema,
  postgresAvailable,
  uniqueSchema,
} from '../../test/support/postgres.js';
import { describeGuildsContract } from './contract/guildsContract.js';
import { describeStorageContract, type StorageFixture } from './contract/storageContract.js';
import { createPostgresStorage } from './postgres/index.js';
import { createSqliteStorage } from './sqlite/index.js';

const sqlite = (): Promise<StorageFixture> => {
  const storage = createSqliteStorage({ filename: ':memory:' });
  return Promise.resolve({ storage, dispose: () => storage.close() });
};

const postgres = async (): Promise<StorageFixture> => {
  const schema = uniqueSchema('contract');
  const storage = await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema });
  return {
    storage,
    async dispose() {
      await storage.close();
      await dropSchema(schema);
    },
  };
};

describeStorageContract('sqlite', sqlite);
describeStorageContract('postgres', postgres, { skip: !postgresAvailable });
describeGuildsContract('sqlite', sqlite);
describeGuildsContract('postgres', postgres, { skip: !postgresAvailable });
