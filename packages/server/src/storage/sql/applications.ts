import type { Kysely, Selectable } from 'kysely';
import type {
  ApplicationPatch,
  ApplicationRecord,
  ApplicationRepository,
} from '../types/applications.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int, jsonArray } from './rows.js';
import type { ApplicationsTable, Database } from './schema.js';

function toApplication(row: Selectable<ApplicationsTable>): ApplicationRecord {
  return {
    id: id(row.id),
    name: row.name,
    description: row.description,
    icon: row.icon,
    ownerId: id(row.owner_id),
    botUserId: idOrNull(row.bot_user_id),
    flags: BigInt(row.flags),
    botPublic: bool(row.bot_public),
    botRequireCodeGrant: bool(row.bot_require_code_grant),
    verifyKey: row.verify_key,
    signingKey: row.signing_key,
    clientSecretHash: row.client_secret_hash,
    redirectUris: jsonArray(row.redirect_uris),
    interactionsEndpointUrl: row.interactions_endpoint_url,
    eventWebhooksUrl: row.event_webhooks_url,
    tags: jsonArray(row.tags),
    createdAt: int(row.created_at),
    largeBotSharding: bool(row.large_bot_sharding),
    publicClient: bool(row.public_client),
    identifyPremiumApproved: bool(row.identify_premium_approved),
    socialApproved: bool(row.social_approved),
    deviceFlowEnabled: bool(row.device_flow_enabled),
    eventWebhooksTypes: jsonArray(row.event_webhooks_types),
    eventWebhooksStatus: int(row.event_webhooks_status),
  };
}

function patchColumns(patch: ApplicationPatch) {
  return {
    name: patch.name,
    description: patch.description,
    icon: patch.icon,
    flags: patch.flags?.toString(),
    bot_public: patch.botPublic === undefined ? undefined : flag(patch.botPublic),
    bot_require_code_grant:
      patch.botRequireCodeGrant === undefined ? undefined : flag(patch.botRequireCodeGrant),
    client_secret_hash: patch.clientSecretHash,
    redirect_uris: patch.redirectUris && JSON.stringify(patch.redirectUris),
    interactions_endpoint_url: patch.interactionsEndpointUrl,
    event_webhooks_url: patch.eventWebhooksUrl,
    tags: patch.tags && JSON.stringify(patch.tags),
    large_bot_sharding:
      patch.largeBotSharding === undefined ? undefined : flag(patch.largeBotSharding),
    public_client: patch.publicClient === undefined ? undefined : flag(patch.publicClient),
    identify_premium_approved:
      patch.identifyPremiumApproved === undefined ? undefined : flag(patch.identifyPremiumApproved),
    social_approved: patch.socialApproved === undefined ? undefined : flag(patch.socialApproved),
    device_flow_enabled:
      patch.deviceFlowEnabled === undefined ? undefined : flag(patch.deviceFlowEnabled),
    event_webhooks_types: patch.eventWebhooksTypes && JSON.stringify(patch.eventWebhooksTypes),
    event_webhooks_status: patch.eventWebhooksStatus,
  };
}

export function createApplicationRepository(db: Kysely<Database>): ApplicationRepository {
  const selectApp = () => db.selectFrom('applications').selectAll();
  const findById = async (appId: string) => {
    const row = await selectApp().where('id', '=', appId).executeTakeFirst();
    return row ? toApplication(row) : null;
  };
  return {
    async create(app) {
      await conflictsAsStorageErrors(
        db
          .insertInto('applications')
          .values({
            id: app.id,
            name: app.name,
            description: app.description ?? '',
            icon: app.icon ?? null,
            owner_id: app.ownerId,
            bot_user_id: app.botUserId,
            flags: (app.flags ?? 0n).toString(),
            bot_public: flag(app.botPublic ?? true),
            bot_require_code_grant: flag(app.botRequireCodeGrant ?? false),
            verify_key: app.verifyKey,
            signing_key: app.signingKey,
            client_secret_hash: app.clientSecretHash,
            redirect_uris: JSON.stringify(app.redirectUris ?? []),
            interactions_endpoint_url: app.interactionsEndpointUrl ?? null,
            event_webhooks_url: app.eventWebhooksUrl ?? null,
            tags: JSON.stringify(app.tags ?? []),
            public_client: flag(app.publicClient ?? false),
            device_flow_enabled: flag(app.deviceFlowEnabled ?? false),
            created_at: app.createdAt,
            event_webhooks_types: JSON.stringify(app.eventWebhooksTypes ?? []),
            event_webhooks_status: app.eventWebhooksStatus,
          })
          .execute(),
      );
      const created = await findById(app.id);
      if (!created) throw new Error(`application ${app.id} vanished after insert`);
      return created;
    },
    findById,
    async findByBotUserId(botUserId) {
      const row = await selectApp().where('bot_user_id', '=', botUserId).executeTakeFirst();
      return row ? toApplication(row) : null;
    },
    async listByOwner(ownerId) {
      const rows = await selectApp().where('owner_id', '=', ownerId).orderBy('id').execute();
      return rows.map(toApplication);
    },
    async listInstalledInGuild(guildId) {
      const rows = await db
        .selectFrom('applications')
        .innerJoin('members', 'members.user_id', 'applications.bot_user_id')
        .selectAll('applications')
        .where('members.guild_id', '=', guildId)
        .orderBy('applications.id')
        .execute();
      return rows.map(toApplication);
    },
    async update(appId, patch) {
      const columns = patchColumns(patch);
      if (Object.values(columns).some((v) => v !== undefined)) {
        await db.updateTable('applications').set(columns).where('id', '=', appId).execute();
      }
      return findById(appId);
    },
    async listSigningKeys() {
      const rows = await db
        .selectFrom('applications')
        .select(['id', 'signing_key'])
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ id: id(row.id), signingKey: row.signing_key }));
    },
    async replaceSigningKey(appId, from, to) {
      const result = await db
        .updateTable('applications')
        .set({ signing_key: to })
        .where('id', '=', appId)
        .where('signing_key', '=', from)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
