import type { Kysely, Selectable } from 'kysely';
import {
  IDENTITY_PROVIDERS,
  type IdentityProvider,
  type IdentityTestKeyRecord,
  type ProvisionalRepository,
} from '../types/provisional.js';
import type { IdentityTestKeysTable } from './provisionalSchema.js';
import { id, int } from './rows.js';
import type { Database } from './schema.js';

function toTestKey(row: Selectable<IdentityTestKeysTable>): IdentityTestKeyRecord {
  return {
    applicationId: id(row.application_id),
    provider: row.provider as IdentityProvider,
    publicKey: row.public_key,
    updatedAt: int(row.updated_at),
  };
}

type TestKeyMethods = Pick<
  ProvisionalRepository,
  'listTestKeys' | 'findTestKey' | 'putTestKey' | 'deleteTestKey'
>;

/** The test-mode identity providers of applications (`identity_test_keys`). */
export function createIdentityTestKeyMethods(db: Kysely<Database>): TestKeyMethods {
  return {
    async listTestKeys(applicationId) {
      const rows = await db
        .selectFrom('identity_test_keys')
        .selectAll()
        .where('application_id', '=', applicationId)
        .execute();
      const order = (p: string) => IDENTITY_PROVIDERS.indexOf(p as IdentityProvider);
      return rows.map(toTestKey).sort((a, b) => order(a.provider) - order(b.provider));
    },
    async findTestKey(applicationId, provider) {
      const row = await db
        .selectFrom('identity_test_keys')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      return row ? toTestKey(row) : null;
    },
    async putTestKey(key) {
      const values = {
        application_id: key.applicationId,
        provider: key.provider,
        public_key: key.publicKey,
        updated_at: key.updatedAt,
      };
      await db
        .insertInto('identity_test_keys')
        .values(values)
        .onConflict((oc) =>
          oc
            .columns(['application_id', 'provider'])
            .doUpdateSet({ public_key: values.public_key, updated_at: values.updated_at }),
        )
        .execute();
    },
    async deleteTestKey(applicationId, provider) {
      const result = await db
        .deleteFrom('identity_test_keys')
        .where('application_id', '=', applicationId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
