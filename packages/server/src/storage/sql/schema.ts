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
}

export interface MembersTable {
  guild_id: Id;
  user_id: Id;
  nick: string | null;
  joined_at: Int;
  deaf: Int;
  mute: Int;
  flags: Int;
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
}
