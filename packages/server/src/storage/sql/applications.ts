import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  ApplicationAssetRecord,
  ApplicationAssetRepository,
  ApplicationPatch,
  ApplicationRecord,
  ApplicationRepository,
  InstallParams,
  IntegrationTypesConfig,
} from '../types/applications.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int, jsonArray } from './rows.js';
import type { ApplicationAssetsTable, ApplicationsTable, Database } from './schema.js';

/** The JSON of install params, as the platform's wire shape (`{scopes, permissions}`). */
function installParamsOf(value: unknown): InstallParams | null {
  if (typeof value !== 'object' || value === null) return null;
  const { scopes, permissions } = value as { scopes?: unknown; permissions?: unknown };
  return {
    scopes: Array.isArray(scopes) ? scopes.map(String) : [],
    permissions: typeof permissions === 'string' ? permissions : '0',
  };
}

function integrationTypesOf(text: string): IntegrationTypesConfig {
  const parsed: unknown = JSON.parse(text);
  const config: IntegrationTypesConfig = {};
  if (typeof parsed !== 'object' || parsed === null) return config;
  for (const key of ['0', '1'] as const) {
    const entry: unknown = (parsed as Record<string, unknown>)[key];
    if (typeof entry !== 'object' || entry === null) continue;
    const params: unknown = (entry as Record<string, unknown>)['oauth2_install_params'];
    config[key] = { installParams: installParamsOf(params) };
  }
  return config;
}

function integrationTypesText(config: IntegrationTypesConfig): string {
  const out: Record<string, object> = {};
  for (const key of ['0', '1'] as const) {
    const entry = config[key];
    if (entry === undefined) continue;
    out[key] = entry.installParams === null ? {} : { oauth2_install_params: entry.installParams };
  }
  return JSON.stringify(out);
}

function toApplication(row: Selectable<ApplicationsTable>): ApplicationRecord {
  return {
    id: id(row.id),
    name: row.name,
    description: row.description,
    icon: row.icon,
    coverImage: row.cover_image,
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
    customInstallUrl: row.custom_install_url,
    installParams:
      row.install_params === null ? null : installParamsOf(JSON.parse(row.install_params)),
    integrationTypesConfig: integrationTypesOf(row.integration_types_config),
    socialSdkTermsAccepted: bool(row.social_sdk_terms_accepted),
    connectionEntrypointUrl: row.connection_entrypoint_url,
  };
}

function patchColumns(patch: ApplicationPatch) {
  return {
    name: patch.name,
    description: patch.description,
    icon: patch.icon,
    cover_image: patch.coverImage,
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
    custom_install_url: patch.customInstallUrl,
    install_params:
      patch.installParams === undefined
        ? undefined
        : patch.installParams && JSON.stringify(patch.installParams),
    integration_types_config:
      patch.integrationTypesConfig && integrationTypesText(patch.integrationTypesConfig),
    social_sdk_terms_accepted:
      patch.socialSdkTermsAccepted === undefined ? undefined : flag(patch.socialSdkTermsAccepted),
    connection_entrypoint_url: patch.connectionEntrypointUrl,
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
            cover_image: app.coverImage ?? null,
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
    async approximateUserCount(appId) {
      // UNION (not UNION ALL) makes the users distinct; members(guild_id, user_id) is the primary
      // key and members_user / oauth_authorizations_application index the other two lookups.
      const result = await sql<{ n: number | bigint | string }>`
        SELECT COUNT(*) AS n FROM (
          SELECT m.user_id FROM applications a
            JOIN members b ON b.user_id = a.bot_user_id
            JOIN members m ON m.guild_id = b.guild_id AND m.user_id <> b.user_id
            WHERE a.id = ${appId}
          UNION
          SELECT user_id FROM oauth_authorizations
            WHERE application_id = ${appId} AND integration_type = 1 AND revoked_at IS NULL
        ) reached`.execute(db);
      return int(result.rows[0]?.n ?? 0);
    },
  };
}

function toAsset(row: Selectable<ApplicationAssetsTable>): ApplicationAssetRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    type: int(row.type) === 1 ? 1 : 2,
    name: row.name,
    extension: row.extension,
    createdAt: int(row.created_at),
  };
}

/** Rich presence assets (migration 0028). */
export function createApplicationAssetRepository(db: Kysely<Database>): ApplicationAssetRepository {
  return {
    async listByApplication(applicationId) {
      const rows = await db
        .selectFrom('application_assets')
        .selectAll()
        .where('application_id', '=', applicationId)
        .orderBy('id')
        .execute();
      return rows.map(toAsset);
    },
    async findById(applicationId, assetId) {
      const row = await db
        .selectFrom('application_assets')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('id', '=', assetId)
        .executeTakeFirst();
      return row === undefined ? null : toAsset(row);
    },
    async create(asset) {
      await conflictsAsStorageErrors(
        db
          .insertInto('application_assets')
          .values({
            id: asset.id,
            application_id: asset.applicationId,
            type: asset.type,
            name: asset.name,
            extension: asset.extension,
            created_at: asset.createdAt,
          })
          .execute(),
      );
    },
    async delete(applicationId, assetId) {
      const result = await db
        .deleteFrom('application_assets')
        .where('application_id', '=', applicationId)
        .where('id', '=', assetId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
