-- Users, applications, tokens, guilds, roles, channels and members.
-- Snowflakes are BIGINT; bitsets wider than 53 bits are decimal TEXT; times are epoch ms.
CREATE TABLE users (
  id BIGINT PRIMARY KEY,
  username TEXT NOT NULL,
  discriminator TEXT NOT NULL DEFAULT '0',
  global_name TEXT,
  avatar TEXT,
  banner TEXT,
  accent_color INTEGER,
  bio TEXT NOT NULL DEFAULT '',
  bot INTEGER NOT NULL DEFAULT 0,
  system INTEGER NOT NULL DEFAULT 0,
  email TEXT,
  verified INTEGER NOT NULL DEFAULT 0,
  password_hash TEXT,
  flags BIGINT NOT NULL DEFAULT 0,
  premium_type INTEGER NOT NULL DEFAULT 0,
  locale TEXT NOT NULL DEFAULT 'en-US',
  mfa_enabled INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_human_username ON users (username) WHERE bot = 0;
CREATE UNIQUE INDEX users_email ON users (email) WHERE email IS NOT NULL;

CREATE TABLE applications (
  id BIGINT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  icon TEXT,
  owner_id BIGINT NOT NULL REFERENCES users (id),
  bot_user_id BIGINT UNIQUE REFERENCES users (id),
  flags TEXT NOT NULL DEFAULT '0',
  bot_public INTEGER NOT NULL DEFAULT 1,
  bot_require_code_grant INTEGER NOT NULL DEFAULT 0,
  verify_key TEXT NOT NULL,
  signing_key TEXT NOT NULL,
  client_secret_hash TEXT NOT NULL,
  redirect_uris TEXT NOT NULL DEFAULT '[]',
  interactions_endpoint_url TEXT,
  event_webhooks_url TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL
);
CREATE INDEX applications_owner ON applications (owner_id);

CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  application_id BIGINT REFERENCES applications (id) ON DELETE CASCADE,
  scopes TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT
);
CREATE INDEX tokens_user ON tokens (user_id, kind);

CREATE TABLE guilds (
  id BIGINT PRIMARY KEY,
  name TEXT NOT NULL,
  icon TEXT,
  description TEXT,
  owner_id BIGINT NOT NULL REFERENCES users (id),
  features TEXT NOT NULL DEFAULT '[]',
  preferred_locale TEXT NOT NULL DEFAULT 'en-US',
  created_at BIGINT NOT NULL
);

CREATE TABLE roles (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  permissions TEXT NOT NULL DEFAULT '0',
  position INTEGER NOT NULL DEFAULT 0,
  color INTEGER NOT NULL DEFAULT 0,
  hoist INTEGER NOT NULL DEFAULT 0,
  mentionable INTEGER NOT NULL DEFAULT 0,
  managed INTEGER NOT NULL DEFAULT 0,
  bot_user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
  flags BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX roles_guild ON roles (guild_id);

CREATE TABLE channels (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT REFERENCES guilds (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  name TEXT,
  position INTEGER NOT NULL DEFAULT 0,
  parent_id BIGINT REFERENCES channels (id) ON DELETE SET NULL,
  topic TEXT,
  nsfw INTEGER NOT NULL DEFAULT 0,
  rate_limit_per_user INTEGER NOT NULL DEFAULT 0,
  bitrate INTEGER,
  user_limit INTEGER,
  flags BIGINT NOT NULL DEFAULT 0,
  last_message_id BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX channels_guild ON channels (guild_id);

CREATE TABLE members (
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  nick TEXT,
  joined_at BIGINT NOT NULL,
  deaf INTEGER NOT NULL DEFAULT 0,
  mute INTEGER NOT NULL DEFAULT 0,
  flags BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX members_user ON members (user_id);

CREATE TABLE member_roles (
  guild_id BIGINT NOT NULL,
  user_id BIGINT NOT NULL,
  role_id BIGINT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  PRIMARY KEY (guild_id, user_id, role_id),
  FOREIGN KEY (guild_id, user_id) REFERENCES members (guild_id, user_id) ON DELETE CASCADE
);
