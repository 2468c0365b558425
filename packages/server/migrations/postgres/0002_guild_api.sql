-- The guild API: guild settings, channel overwrites and voice status, role colours, member
-- profiles and timeouts, bans, expressions, scheduled events and the audit log.
ALTER TABLE guilds ADD COLUMN banner TEXT;
ALTER TABLE guilds ADD COLUMN splash TEXT;
ALTER TABLE guilds ADD COLUMN afk_channel_id BIGINT;
ALTER TABLE guilds ADD COLUMN afk_timeout INTEGER NOT NULL DEFAULT 300;
ALTER TABLE guilds ADD COLUMN system_channel_id BIGINT;
ALTER TABLE guilds ADD COLUMN system_channel_flags INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guilds ADD COLUMN rules_channel_id BIGINT;
ALTER TABLE guilds ADD COLUMN public_updates_channel_id BIGINT;
ALTER TABLE guilds ADD COLUMN verification_level INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guilds ADD COLUMN default_message_notifications INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guilds ADD COLUMN explicit_content_filter INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guilds ADD COLUMN premium_progress_bar_enabled INTEGER NOT NULL DEFAULT 0;

ALTER TABLE channels ADD COLUMN application_id BIGINT;

CREATE TABLE permission_overwrites (
  channel_id BIGINT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  target_id BIGINT NOT NULL,
  type INTEGER NOT NULL,
  allow TEXT NOT NULL DEFAULT '0',
  deny TEXT NOT NULL DEFAULT '0',
  PRIMARY KEY (channel_id, target_id)
);

CREATE TABLE voice_channel_status (
  channel_id INTEGER PRIMARY KEY REFERENCES channels (id) ON DELETE CASCADE,
  status TEXT,
  updated_at BIGINT NOT NULL
);

ALTER TABLE roles ADD COLUMN secondary_color INTEGER;
ALTER TABLE roles ADD COLUMN tertiary_color INTEGER;
ALTER TABLE roles ADD COLUMN icon TEXT;
ALTER TABLE roles ADD COLUMN unicode_emoji TEXT;

ALTER TABLE members ADD COLUMN avatar TEXT;
ALTER TABLE members ADD COLUMN banner TEXT;
ALTER TABLE members ADD COLUMN bio TEXT;
ALTER TABLE members ADD COLUMN communication_disabled_until BIGINT;
ALTER TABLE members ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
CREATE INDEX members_guild_nick ON members (guild_id, nick);

CREATE TABLE bans (
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE emojis (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  creator_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
  animated INTEGER NOT NULL DEFAULT 0,
  role_ids TEXT NOT NULL DEFAULT '[]',
  available INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL
);
CREATE INDEX emojis_guild ON emojis (guild_id);

CREATE TABLE stickers (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  tags TEXT NOT NULL,
  format_type INTEGER NOT NULL,
  creator_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
  available INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL
);
CREATE INDEX stickers_guild ON stickers (guild_id);

CREATE TABLE scheduled_events (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id BIGINT REFERENCES channels (id) ON DELETE SET NULL,
  creator_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  description TEXT,
  image TEXT,
  scheduled_start_time BIGINT NOT NULL,
  scheduled_end_time BIGINT,
  privacy_level INTEGER NOT NULL DEFAULT 2,
  status INTEGER NOT NULL DEFAULT 1,
  entity_type INTEGER NOT NULL,
  location TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX scheduled_events_guild ON scheduled_events (guild_id);

CREATE TABLE audit_log_entries (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id BIGINT,
  target_id TEXT,
  action_type INTEGER NOT NULL,
  changes TEXT,
  options TEXT,
  reason TEXT
);
CREATE INDEX audit_log_guild ON audit_log_entries (guild_id, id);
