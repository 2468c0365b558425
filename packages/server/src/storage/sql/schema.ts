import type { ColumnType } from 'kysely';

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

/** The database as Kysely sees it. */
export interface Database {
  users: UsersTable;
  applications: ApplicationsTable;
  tokens: TokensTable;
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
  voice_states: VoiceStatesTable;
  voice_channel_start_times: VoiceChannelStartTimesTable;
  privileged_intent_approvals: PrivilegedIntentApprovalsTable;
  application_gateway_settings: ApplicationGatewaySettingsTable;
  gateway_sessions: GatewaySessionsTable;
  gateway_replay: GatewayReplayTable;
  user_profile_privacy: UserProfilePrivacyTable;
}

export interface UserProfilePrivacyTable {
  user_id: Id;
  setting: string;
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
}

export interface GatewayReplayTable {
  session_id: string;
  seq: Int;
  type: string;
  data: string;
}
