import type {
  GatewayGuildIntegrationsUpdateDispatchData,
  GatewayIntegrationCreateDispatchData,
  GatewayIntegrationDeleteDispatchData,
  GatewayIntegrationUpdateDispatchData,
} from 'discord-api-types/v10';
import { afterCommit } from '../../events/afterCommit.js';
import type { ApplicationRecord, Repositories, UserRecord } from '../../storage/index.js';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import { serializeIntegration, type IntegrationWire } from './serialize.js';

/** The gateway dispatches of integrations. */
export const integrationDispatches = {
  /** A bot joined: the guild's integration of its application. */
  integrationCreate: (guildId: string, integration: IntegrationWire) =>
    guildEvent('INTEGRATION_CREATE', guildId, {
      ...integration,
      guild_id: guildId,
    } satisfies WireShape<GatewayIntegrationCreateDispatchData>),

  integrationUpdate: (guildId: string, integration: IntegrationWire) =>
    guildEvent('INTEGRATION_UPDATE', guildId, {
      ...integration,
      guild_id: guildId,
    } satisfies WireShape<GatewayIntegrationUpdateDispatchData>),

  /** A bot integration's id is its application's. */
  integrationDelete: (guildId: string, applicationId: string) =>
    guildEvent('INTEGRATION_DELETE', guildId, {
      id: applicationId,
      guild_id: guildId,
      application_id: applicationId,
    } satisfies WireShape<GatewayIntegrationDeleteDispatchData>),

  /** Follows every change of the guild's integrations. */
  guildIntegrationsUpdate: (guildId: string) =>
    guildEvent('GUILD_INTEGRATIONS_UPDATE', guildId, {
      guild_id: guildId,
    } satisfies WireShape<GatewayGuildIntegrationsUpdateDispatchData>),
};

/** The application's bot user, for the integration's `application.bot`. */
const botOf = (tx: Repositories, application: ApplicationRecord) =>
  application.botUserId === null ? null : tx.users.findById(application.botUserId);

/**
 * A bot joined the guild: INTEGRATION_CREATE with the guild's integration of its application,
 * then GUILD_INTEGRATIONS_UPDATE, as the platform sends them (intent GUILD_INTEGRATIONS).
 */
export async function announceIntegrationCreate(
  tx: Repositories,
  guildId: string,
  application: ApplicationRecord,
): Promise<void> {
  const integration = serializeIntegration(application, await botOf(tx, application));
  afterCommit(tx, integrationDispatches.integrationCreate(guildId, integration));
  afterCommit(tx, integrationDispatches.guildIntegrationsUpdate(guildId));
}

/**
 * The application changed what its integrations show (name, icon, description): an
 * INTEGRATION_UPDATE and a GUILD_INTEGRATIONS_UPDATE in every guild its bot is in, with the
 * application as it is now in `tx`.
 */
export async function announceIntegrationUpdates(
  tx: Repositories,
  application: ApplicationRecord,
): Promise<void> {
  if (application.botUserId === null) return;
  const [guilds, bot] = await Promise.all([
    tx.guilds.listForUser(application.botUserId),
    botOf(tx, application),
  ]);
  const integration = serializeIntegration(application, bot);
  for (const guild of guilds) {
    afterCommit(tx, integrationDispatches.integrationUpdate(guild.id, integration));
    afterCommit(tx, integrationDispatches.guildIntegrationsUpdate(guild.id));
  }
}

/** The integration is gone (removed, or its bot left): INTEGRATION_DELETE, GUILD_INTEGRATIONS_UPDATE. */
export function announceIntegrationDelete(
  tx: Repositories,
  guildId: string,
  application: ApplicationRecord,
): void {
  afterCommit(tx, integrationDispatches.integrationDelete(guildId, application.id));
  afterCommit(tx, integrationDispatches.guildIntegrationsUpdate(guildId));
}

/**
 * A member left or was removed: when it is an application's bot, that application's integration
 * of the guild went with it (the integrations are the bots a guild has). A person costs no read.
 */
export async function announceBotLeft(
  tx: Repositories,
  guildId: string,
  user: Pick<UserRecord, 'id' | 'bot'>,
): Promise<void> {
  if (!user.bot) return;
  const application = await tx.applications.findByBotUserId(user.id);
  if (application !== null) announceIntegrationDelete(tx, guildId, application);
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    INTEGRATION_CREATE: ReturnType<typeof integrationDispatches.integrationCreate>['data'];
    INTEGRATION_UPDATE: ReturnType<typeof integrationDispatches.integrationUpdate>['data'];
    INTEGRATION_DELETE: ReturnType<typeof integrationDispatches.integrationDelete>['data'];
    GUILD_INTEGRATIONS_UPDATE: ReturnType<
      typeof integrationDispatches.guildIntegrationsUpdate
    >['data'];
  }
}
