import type { APIApplication } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import { applicationFlagsWire } from '@guildhall/protocol';
import type { ApplicationRecord, UserRecord } from '../../storage/index.js';
import { serializeUser } from '../users/index.js';

/**
 * The application as sent, checked against discord-api-types' APIApplication. `summary`,
 * deprecated there, is still sent; the library lacks the legacy `hook` and `type` and the newer
 * `explicit_content_filter` and `eligible_oauth2_scopes`.
 */
type ApplicationWireShape = Omit<WireShape<APIApplication>, 'summary'> & {
  summary: string;
  hook: boolean;
  type: null;
  explicit_content_filter: number;
  eligible_oauth2_scopes: string[];
};

export interface ApplicationView {
  application: ApplicationRecord;
  owner: UserRecord;
  bot: UserRecord | null;
  guildCount: number;
}

/** The application as its owner or its bot sees it (PrivateApplicationResponse). */
export function serializeApplication({ application, owner, bot, guildCount }: ApplicationView) {
  return {
    id: application.id,
    name: application.name,
    icon: application.icon,
    description: application.description,
    summary: '',
    type: null,
    hook: true,
    ...applicationFlagsWire(application.flags),
    verify_key: application.verifyKey,
    bot_public: application.botPublic,
    bot_require_code_grant: application.botRequireCodeGrant,
    ...(bot === null ? {} : { bot: serializeUser(bot) }),
    owner: serializeUser(owner),
    team: null,
    redirect_uris: application.redirectUris,
    interactions_endpoint_url: application.interactionsEndpointUrl,
    role_connections_verification_url: null,
    event_webhooks_url: application.eventWebhooksUrl,
    event_webhooks_status: application.eventWebhooksStatus,
    event_webhooks_types: application.eventWebhooksTypes,
    tags: application.tags,
    rpc_origins: [],
    approximate_guild_count: guildCount,
    approximate_user_install_count: 0,
    approximate_user_authorization_count: 0,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: [],
    integration_types_config: { '0': {}, '1': {} },
  } satisfies ApplicationWireShape;
}
