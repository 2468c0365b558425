-- Guilds and channels: applications may be marked as using large bot sharding (the `shard`
-- rule of GET /users/@me/guilds, set by the owner, shown nowhere).
ALTER TABLE applications ADD COLUMN large_bot_sharding INTEGER NOT NULL DEFAULT 0;
-- 0002 declared voice_channel_status.channel_id as a 32-bit INTEGER, too small for a snowflake.
ALTER TABLE voice_channel_status ALTER COLUMN channel_id TYPE BIGINT;
