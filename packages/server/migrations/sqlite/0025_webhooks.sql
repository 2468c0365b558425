-- Webhooks (docs/webhooks.md): type 1 INCOMING (posts by its token), 2 CHANNEL_FOLLOWER, 3
-- APPLICATION. An incoming webhook's token is stored twice: its SHA-256 (hex) to check a token
-- route, and sealed with the server's secret key (domain/secretBox.ts) because the platform shows
-- it again to those with MANAGE_WEBHOOKS. The avatar is an image hash served under
-- /avatars/{webhook_id}/{hash}. A follower webhook names the channel it follows (source_*).
CREATE TABLE webhooks (
  id INTEGER PRIMARY KEY,
  type INTEGER NOT NULL,
  guild_id INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  creator_id INTEGER,
  name TEXT NOT NULL,
  avatar TEXT,
  token_hash TEXT,
  token_sealed TEXT,
  application_id INTEGER,
  source_guild_id INTEGER,
  source_channel_id INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhooks_channel ON webhooks (channel_id);
CREATE INDEX webhooks_guild ON webhooks (guild_id);
