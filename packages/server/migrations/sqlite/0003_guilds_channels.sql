-- Guilds and channels: applications may be marked as using large bot sharding (the `shard`
-- rule of GET /users/@me/guilds, set by the owner, shown nowhere).
ALTER TABLE applications ADD COLUMN large_bot_sharding INTEGER NOT NULL DEFAULT 0;
