import {
  TEST_DATABASE_URL,
  dropSchema,
  postgresAvailable,
  uniqueSchema,
} from '../../test/support/postgres.js';
import { describeGatewaySessionsContract } from './contract/gatewaySessionsContract.js';
import { createPostgresStorage } from './postgres/index.js';
import { createSqliteStorage } from './sqlite/index.js';

describeGatewaySessionsContract('sqlite', () => {
  const storage = createSqliteStorage({ filename: ':memory:' });
  return Promise.resolve({ storage, dispose: () => storage.close() });
});

describeGatewaySessionsContract(
  'postgres',
  async () => {
    const schema = uniqueSchema('gwsessions');
    const storage = await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema });
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
