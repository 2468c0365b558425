import {
  TEST_DATABASE_URL,
  dropSchema,
  postgresAvailable,
  uniqueSchema,
} from '../../test/support/postgres.js';
import { describeGroupCommitContract } from './contract/groupCommitContract.js';
import { createPostgresStorage } from './postgres/index.js';
import { createSqliteStorage } from './sqlite/index.js';

describeGroupCommitContract('sqlite', (groupCommit) => {
  const storage = createSqliteStorage({
    filename: ':memory:',
    ...(groupCommit === undefined ? {} : { groupCommit }),
  });
  return Promise.resolve({ storage, dispose: () => storage.close() });
});

describeGroupCommitContract(
  'postgres',
  async (groupCommit) => {
    const schema = uniqueSchema('groupcommit');
    const storage = await createPostgresStorage({
      connectionString: TEST_DATABASE_URL,
      schema,
      ...(groupCommit === undefined ? {} : { groupCommit }),
    });
    return {
      storage,
      async dispose() {
        await storage.close();
        await dropSchema(schema);
      },
    };
  },
  { skip: !postgresAvailable },
);
