import type { ColumnType } from 'kysely';
import type * as Provisional from './provisionalSchema.js';
import type { OAuthTables } from './oauthSchema.js';
import type * as Relationships from './relationshipsSchema.js';
import type * as GameStats from './gameStatsSchema.js';
import type * as Monetization from './monetizationSchema.js';
import type * as Commands from './commandsSchema.js';
import type * as Activities from './activitiesSchema.js';
import type * as VoiceExpressions from './voiceExpressionsSchema.js';
import type * as GuildSettings from './guildSettingsSchema.js';
import type * as Threads from './threadsSchema.js';
import type { MessageSearchTables } from './messageSearchSchema.js';
import type { CallTables } from './callsSchema.js';

/*
 * Column types as both drivers return them: SQLite (safe integers on) gives bigint for every
 * INTEGER, PostgreSQL gives string for BIGINT and number for INTEGER. Row mappers normalise.
 */
type Id = ColumnType<string | bigint, string, string>;
type NullableId = ColumnType<string | bigint | null, string | null, string | null>;
type Int = ColumnType<number | bigint | string, number, number>;
type NullableInt = ColumnType<number | bigint | string | null, number | null, number | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: Id;
  username: string;
  discriminator: Defaulted<string>;
  global_name: string | null;
  avatar: string | null;
  banner: string | null;
  accent_color: NullableInt;
  bio: Defaulted<string>;
  bot: Int;
  system: Int;
  email: string | null;
  verified: Int;
  password_hash: string | null;
  flags: Int;
  premium_type: Int;
  locale: Defaulted<string>;
  mfa_enabled: Int;
  created_at: Int;
}

export interface ApplicationsTable {
  id: Id;
  name: string;
  description: string;
  icon: string | null;
  cover_image: string | null;
  owner_id: Id;
  bot_user_id: NullableId;
  flags: string;
  bot_public: Int;
  bot_require_code_grant: Int;
  verify_key: string;
  signing_key: string;
  client_secret_hash: string;
  redirect_uris: string;
  interactions_endpoint_url: string | null;
  event_webhooks_url: string | null;
  tags: string;
  created_at: Int;
  large_bot_sharding: Defaulted<number | bigint | string>;
  public_client: Defaulted<number | bigint | string>;
  identify_premium_approved: Defaulted<number | bigint | string>;
  social_approved: Defaulted<number | bigint | string>;
  device_flow_enabled: Defaulted<number | bigint | string>;
  /** JSON array of the subscribed webhook event types. */
  event_webhooks_types: Defaulted<string>;
  event_webhooks_status: Defaulted<number | bigint | string>;
  /** Migration 0028: install links and Social SDK settings; the JSON columns as text. */
  custom_install_url: Defaulted<string | null>;
  install_params: Defaulted<string | null>;
  integration_types_config: Defaulted<string>;
  social_sdk_terms_accepted: Defaulted<number | bigint | string>;
  connection_entrypoint_url: Defaulted<string | null>;
}

export interface ApplicationAssetsTable {
  id: Id;
  application_id: Id;
  type: Int;
  name: string;
  extension: string;
  created_at: Int;
}

export interface TokensTable {
  hash: string;
  kind: string;
  user_id: Id;
  application_id: NullableId;
  scopes: string | null;
  created_at: Int;
  expires_at: NullableInt;
}

export interface LoginLinksTable {
  hash: string;
  user_id: Id;
  created_at: Int;
  expires_at: Int;
}

export interface GuildsTable {
  id: Id;
  name: string;
  icon: string | null;
  description: string | null;
  owner_id: Id;
  features: string;
  preferred_locale: string;
  created_at: Int;
  banner: string | null;
  splash: string | null;
  afk_channel_id: NullableId;
  afk_timeout: Defaulted<number | bigint | string>;
  system_channel_id: NullableId;
  system_channel_flags: Defaulted<number | bigint | string>;
  rules_channel_id: NullableId;
  public_updates_channel_id: NullableId;
  verification_level: Defaulted<number | bigint | string>;
  default_message_notifications: Defaulted<number | bigint | string>;
  explicit_content_filter: Defaulted<number | bigint | string>;
  premium_progress_bar_enabled: Defaulted<number | bigint | string>;
}

export interface RolesTable {
  id: Id;
  guild_id: Id;
  name: string;
  permissions: string;
  position: Int;
  color: Int;
  hoist: Int;
  mentionable: Int;
  managed: Int;
  bot_user_id: NullableId;
  flags: Int;
  secondary_color: NullableInt;
  tertiary_color: NullableInt;
  icon: string | null;
  unicode_emoji: string | null;
}

export interface ChannelsTable {
  id: Id;
  guild_id: NullableId;
  type: Int;
  name: string | null;
  position: Int;
  parent_id: NullableId;
  topic: string | null;
  nsfw: Int;
  rate_limit_per_user: Int;
  bitrate: NullableInt;
  user_limit: NullableInt;
  flags: Int;
  last_message_id: NullableId;
  created_at: Int;
  application_id: NullableId;
  owner_id: NullableId;
  icon: string | null;
  dm_key: string | null;
}

export interface PermissionOverwritesTable {
  channel_id: Id;
  target_id: Id;
  type: Int;
  allow: string;
  deny: string;
}

export interface VoiceChannelStatusTable {
  channel_id: Id;
  status: string | null;
  updated_at: Int;
}

export interface MembersTable {
  guild_id: Id;
  user_id: Id;
  nick: string | null;
  joined_at: Int;
  deaf: Int;
  mute: Int;
  flags: Int;
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  communication_disabled_until: NullableInt;
  pending: Defaulted<number | bigint | string>;
}

export interface BansTable {
  guild_id: Id;
  user_id: Id;
  reason: string | null;
  created_at: Int;
  delete_message_seconds: Defaulted<number | bigint | string>;
}

export interface EmojisTable {
  id: Id;
  guild_id: Id;
  name: string;
  creator_id: NullableId;
  animated: Int;
  role_ids: string;
  available: Int;
  created_at: Int;
}

export interface StickersTable {
  id: Id;
  guild_id: Id;
  name: string;
  description: string | null;
  tags: string;
  format_type: Int;
  creator_id: NullableId;
  available: Int;
  created_at: Int;
}

export interface ScheduledEventsTable {
  id: Id;
  guild_id: Id;
  channel_id: NullableId;
  creator_id: NullableId;
  name: string;
  description: string | null;
  image: string | null;
  scheduled_start_time: Int;
  scheduled_end_time: NullableInt;
  privacy_level: Int;
  status: Int;
  entity_type: Int;
  location: string | null;
  created_at: Int;
}

export interface AuditLogEntriesTable {
  id: Id;
  guild_id: Id;
  user_id: NullableId;
  target_id: string | null;
  action_type: Int;
  /** JSON array of {key, old_value?, new_value?}. */
  changes: string | null;
  /** JSON object of the entry's optional info. */
  options: string | null;
  reason: string | null;
}

export interface MemberRolesTable {
  guild_id: Id;
  user_id: Id;
  role_id: Id;
}

export interface InvitesTable {
  code: string;
  guild_id: Id;
  channel_id: Id;
  inviter_id: NullableId;
  max_age: Int;
  max_uses: Int;
  uses: Defaulted<number | bigint | string>;
  temporary: Int;
  target_type: NullableInt;
  target_user_id: NullableId;
  target_application_id: NullableId;
  /** JSON array of role ids. */
  role_ids: string;
  targeted: Int;
  created_at: Int;
  expires_at: NullableInt;
}

export interface InviteTargetUsersTable {
  code: string;
  user_id: Id;
}

export interface InviteTargetJobsTable {
  code: string;
  job_id: string;
  status: Int;
  total_users: Int;
  processed_users: Int;
  created_at: Int;
  completed_at: NullableInt;
  error_message: string | null;
  lease_owner: string | null;
  lease_until: NullableInt;
}

export interface InviteTargetJobBatchesTable {
  code: string;
  job_id: string;
  seq: Int;
  user_ids: string;
}

export interface UserConnectionsTable {
  user_id: Id;
  type: string;
  id: string;
  name: string | null;
  verified: Int;
  friend_sync: Int;
  show_activity: Int;
  two_way_link: Int;
  visibility: Int;
  revoked: Int;
  publisher_kind: string | null;
  application_identity: Int;
  created_at: Int;
}

export interface OutboxEventsTable {
  id: Id;
  application_id: Id;
  event_type: string;
  event: string;
  status: Defaulted<string>;
  attempts: Defaulted<number | bigint | string>;
  created_at: Int;
  next_attempt_at: Int;
  give_up_at: Int;
  finished_at: NullableInt;
  last_error: string | null;
  /** A lobby's override_event_webhooks_url (migration 0019); null: the app's URL. */
  target_url: Defaulted<string | null>;
}

export interface OutboxAttemptsTable {
  outbox_id: Id;
  attempt: Int;
  started_at: Int;
  duration_ms: Int;
  http_status: NullableInt;
  error: string | null;
}

/** Messages (0005): JSON columns are text in both dialects. */
export interface MessagesTable {
  id: Id;
  channel_id: Id;
  guild_id: NullableId;
  author_id: Id;
  type: Int;
  content: string;
  embeds: string;
  flags: Int;
  tts: Int;
  mention_everyone: Int;
  mention_user_ids: string;
  mention_role_ids: string;
  reference_type: NullableInt;
  reference_channel_id: NullableId;
  reference_message_id: NullableId;
  reference_guild_id: NullableId;
  snapshots: string | null;
  nonce: string | null;
  application_id: NullableId;
  webhook_id: NullableId;
  pinned_at: NullableInt;
  edited_at: NullableInt;
  created_at: Int;
  activity: string | null;
  components: string | null;
  interaction_metadata: string | null;
  webhook_author: string | null;
  ephemeral_user_id: NullableId;
  /** A game's metadata of an SDK DM (JSON object of strings), else NULL. */
  metadata: string | null;
  /** A CALL message's call: `{"participants": [ids], "ended_at": ms or null}`, else NULL. */
  call: string | null;
}

export interface MessageAttachmentsTable {
  id: Id;
  message_id: Id;
  channel_id: Id;
  position: Int;
  filename: string;
  description: string | null;
  content_type: string | null;
  size: Int;
  flags: Int;
  title: string | null;
}

export interface MessageReactionsTable {
  message_id: Id;
  emoji_key: string;
  emoji_id: NullableId;
  emoji_name: string;
  emoji_animated: Int;
  type: Int;
  user_id: Id;
  created_at: Int;
}

/** The database as Kysely sees it. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Int;
}

export interface WorkerLeasesTable {
  worker_id: Int;
  process_id: Int;
  holder: string;
  expires_at: Int;
}

export interface Database
  extends OAuthTables, Threads.ThreadTables, MessageSearchTables, CallTables {
  server_secrets: ServerSecretsTable;
  worker_leases: WorkerLeasesTable;
  users: UsersTable;
  applications: ApplicationsTable;
  tokens: TokensTable;
  login_links: LoginLinksTable;
  guilds: GuildsTable;
  roles: RolesTable;
  channels: ChannelsTable;
  members: MembersTable;
  member_roles: MemberRolesTable;
  permission_overwrites: PermissionOverwritesTable;
  voice_channel_status: VoiceChannelStatusTable;
  bans: BansTable;
  emojis: EmojisTable;
  stickers: StickersTable;
  scheduled_events: ScheduledEventsTable;
  audit_log_entries: AuditLogEntriesTable;
  invites: InvitesTable;
  invite_target_users: InviteTargetUsersTable;
  invite_target_jobs: InviteTargetJobsTable;
  invite_target_job_batches: InviteTargetJobBatchesTable;
  user_connections: UserConnectionsTable;
  outbox_events: OutboxEventsTable;
  outbox_attempts: OutboxAttemptsTable;
  external_identities: Provisional.ExternalIdentitiesTable;
  user_bans: Provisional.UserBansTable;
  oidc_providers: Provisional.OidcProvidersTable;
  identity_test_keys: Provisional.IdentityTestKeysTable;
  application_links: Provisional.ApplicationLinksTable;
  messages: MessagesTable;
  message_attachments: MessageAttachmentsTable;
  message_reactions: MessageReactionsTable;
  voice_states: VoiceStatesTable;
  voice_channel_start_times: VoiceChannelStartTimesTable;
  privileged_intent_approvals: PrivilegedIntentApprovalsTable;
  application_gateway_settings: ApplicationGatewaySettingsTable;
  gateway_sessions: GatewaySessionsTable;
  gateway_nodes: GatewayNodesTable;
  gateway_replay: GatewayReplayTable;
  user_profile_privacy: UserProfilePrivacyTable;
  user_nsfw_allowed: UserNsfwAllowedTable;
  relationships: Relationships.RelationshipsTable;
  user_message_privacy: Relationships.UserMessagePrivacyTable;
  application_identity_profiles: GameStats.ApplicationIdentityProfilesTable;
  guild_tags: GameStats.GuildTagsTable;
  user_primary_guilds: GameStats.UserPrimaryGuildsTable;
  application_game_stats_layouts: GameStats.ApplicationGameStatsLayoutsTable;
  application_assets: ApplicationAssetsTable;
  lobbies: LobbiesTable;
  lobby_members: LobbyMembersTable;
  lobby_voice_states: LobbyVoiceStatesTable;
  lobby_messages: LobbyMessagesTable;
  lobby_message_moderation: LobbyMessageModerationTable;
  webhooks: WebhooksTable;
  channel_recipients: ChannelRecipientsTable;
  dm_moderation_metadata: DmModerationMetadataTable;
  interactions: InteractionsTable;
  application_commands: Commands.ApplicationCommandsTable;
  application_command_permissions: Commands.ApplicationCommandPermissionsTable;
  application_activity_configs: Activities.ApplicationActivityConfigsTable;
  activity_instances: Activities.ActivityInstancesTable;
  activity_participants: Activities.ActivityParticipantsTable;
  skus: Monetization.SkusTable;
  subscriptions: Monetization.SubscriptionsTable;
  entitlements: Monetization.EntitlementsTable;
  soundboard_sounds: VoiceExpressions.SoundboardSoundsTable;
  stage_instances: VoiceExpressions.StageInstancesTable;
  scheduled_event_exceptions: VoiceExpressions.ScheduledEventExceptionsTable;
  scheduled_event_users: VoiceExpressions.ScheduledEventUsersTable;
  application_emojis: VoiceExpressions.ApplicationEmojisTable;
  application_role_connection_metadata: VoiceExpressions.ApplicationRoleConnectionMetadataTable;
  user_role_connections: VoiceExpressions.UserRoleConnectionsTable;
  application_attachments: VoiceExpressions.ApplicationAttachmentsTable;
  automod_rules: GuildSettings.AutomodRulesTable;
  guild_templates: GuildSettings.GuildTemplatesTable;
  guild_settings: GuildSettings.GuildSettingsTable;
  guild_vanity_urls: GuildSettings.GuildVanityUrlsTable;
  guild_join_requests: GuildSettings.GuildJoinRequestsTable;
}

export interface ChannelRecipientsTable {
  channel_id: Id;
  user_id: Id;
  nick: string | null;
  open: Int;
}

export interface DmModerationMetadataTable {
  message_id: Id;
  application_id: Id;
  metadata: string;
  updated_at: Int;
}

export interface UserProfilePrivacyTable {
  user_id: Id;
  setting: string;
}

/** Migration 0041: whether a person may see age-restricted content (no row: not known). */
export interface UserNsfwAllowedTable {
  user_id: Id;
  allowed: Int;
}

export interface VoiceStatesTable {
  guild_id: Id;
  user_id: Id;
  channel_id: Id;
  session_id: string;
  self_mute: Int;
  self_deaf: Int;
  self_video: Int;
  joined_at: Int;
  /** Migration 0034: a stage listener (1) and a raised hand. */
  suppress: Defaulted<number | bigint | string>;
  request_to_speak_at: ColumnType<
    number | bigint | string | null,
    number | null | undefined,
    number | null
  >;
}

export interface VoiceChannelStartTimesTable {
  channel_id: Id;
  started_at: Int;
}

export interface PrivilegedIntentApprovalsTable {
  application_id: Id;
  intent: string;
  status: string;
  approved_at: NullableInt;
  expires_at: NullableInt;
}

export interface ApplicationGatewaySettingsTable {
  application_id: Id;
  private_channel_obfuscation: Int;
}

export interface GatewaySessionsTable {
  id: string;
  user_id: Id;
  state: string;
  seq: Int;
  updated_at: Int;
  /** The gateway node serving it (migration 0036). */
  node: string;
}

/** A gateway node's heartbeat (migration 0036). */
export interface GatewayNodesTable {
  id: string;
  seen_at: Int;
}

export interface GatewayReplayTable {
  session_id: string;
  seq: Int;
  type: string;
  data: string;
  source: string | null;
  published_at: Int | null;
}

export interface LobbiesTable {
  id: Id;
  application_id: Id;
  metadata: string | null;
  flags: Int;
  idle_timeout_seconds: Int;
  linked_channel_id: NullableId;
  override_event_webhooks_url: string | null;
  secret_hash: string | null;
  secret_expires_at: NullableInt;
  created_at: Int;
  emptied_at: NullableInt;
}

export interface LobbyMembersTable {
  lobby_id: Id;
  user_id: Id;
  metadata: string | null;
  flags: Int;
  additional_name: string | null;
  joined_at: Int;
}

/** Migration 0035: a lobby member in the lobby's voice call. */
export interface LobbyVoiceStatesTable {
  lobby_id: Id;
  user_id: Id;
  application_id: Id;
  session_id: string;
  self_mute: Int;
  self_deaf: Int;
  joined_at: Int;
}

export interface LobbyMessagesTable {
  id: Id;
  lobby_id: Id;
  author_id: Id;
  application_id: Id;
  content: string;
  metadata: string | null;
  flags: Int;
  additional_name: string | null;
  created_at: Int;
  edited_at: NullableInt;
}

export interface LobbyMessageModerationTable {
  message_id: Id;
  application_id: Id;
  metadata: string;
  updated_at: Int;
}

export interface InteractionsTable {
  id: Id;
  application_id: Id;
  type: Int;
  token_hash: string;
  user_id: Id;
  guild_id: NullableId;
  channel_id: Id;
  message_id: NullableId;
  nonce: string | null;
  /** JSON of the interaction object as delivered, without its token. */
  payload: string;
  triggering_metadata: string | null;
  modal: string | null;
  modal_custom_id: string | null;
  response_type: NullableInt;
  original_message_id: NullableId;
  failed_at: NullableInt;
  created_at: Int;
  ack_deadline_at: Int;
  expires_at: Int;
}

export interface WebhooksTable {
  id: Id;
  type: Int;
  guild_id: Id;
  channel_id: Id;
  creator_id: NullableId;
  name: string;
  avatar: string | null;
  token_hash: string | null;
  token_sealed: string | null;
  application_id: NullableId;
  source_guild_id: NullableId;
  source_channel_id: NullableId;
  created_at: Int;
}
