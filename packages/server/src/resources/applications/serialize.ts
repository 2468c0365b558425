import type { APIApplication } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import { applicationFlagsWire } from '@guildhall/protocol';
import type {
  ApplicationRecord,
  InstallParams,
  IntegrationTypesConfig,
  UserRecord,
} from '../../storage/index.js';
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
  /** Guildhall's portal fields (docs/applications.md); the platform's portal has them too. */
  approximate_user_count: number;
  private_channel_obfuscation: boolean;
  social_sdk_terms_accepted: boolean;
  connection_entrypoint_url: string | null;
  public_client: boolean;
  device_flow_enabled: boolean;
};

export interface ApplicationView {
  application: ApplicationRecord;
  owner: UserRecord;
  bot: UserRecord | null;
  guildCount: number;
  /** Distinct users reached (storage `approximateUserCount`), for the privileged intents rule. */
  userCount: number;
  privateChannelObfuscation: boolean;
}

const installParamsWire = (params: InstallParams) => ({
  scopes: params.scopes,
  permissions: params.permissions,
});

/** `{"0": {...}, "1": {...}}`: the enabled installation contexts and their default installs. */
function integrationTypesWire(config: IntegrationTypesConfig) {
  const out: Partial<Record<'0' | '1', { oauth2_install_params?: InstallParams }>> = {};
  for (const key of ['0', '1'] as const) {
    const entry = config[key];
    if (entry === undefined) continue;
    out[key] =
      entry.installParams === null
        ? {}
        : { oauth2_install_params: installParamsWire(entry.installParams) };
  }
  return out;
}

/** The application as its owner or its bot sees it (PrivateApplicationResponse). */
export function serializeApplication(view: ApplicationView) {
  const { application, owner, bot, guildCount } = view;
  return {
    id: application.id,
    name: application.name,
    icon: application.icon,
    ...(application.coverImage === null ? {} : { cover_image: application.coverImage }),
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
    approximate_user_count: view.userCount,
    approximate_user_authorization_count: 0,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: [],
    integration_types_config: integrationTypesWire(application.integrationTypesConfig),
    // The platform leaves these out when unset (PrivateApplicationResponse: not nullable).
    ...(application.installParams === null
      ? {}
      : { install_params: installParamsWire(application.installParams) }),
    ...(application.customInstallUrl === null
      ? {}
      : { custom_install_url: application.customInstallUrl }),
    private_channel_obfuscation: view.privateChannelObfuscation,
    social_sdk_terms_accepted: application.socialSdkTermsAccepted,
    connection_entrypoint_url: application.connectionEntrypointUrl,
    // The OAuth2 client settings the owner's PATCH takes (docs/oauth.md), shown back.
    public_client: application.publicClient,
    device_flow_enabled: application.deviceFlowEnabled,
  } satisfies ApplicationWireShape;
}
