-- Private channels: DMs (type 1) and group DMs (type 3) live in `channels` with guild_id NULL.
-- owner_id and icon belong to group DMs; application_id (0002) scopes a game DM to its
-- application. dm_key makes a DM unique per pair of users (and per application for game DMs):
-- '<low id>:<high id>' or '<low id>:<high id>:<application id>'; NULL for every other channel.
ALTER TABLE channels ADD COLUMN owner_id BIGINT;
ALTER TABLE channels ADD COLUMN icon TEXT;
ALTER TABLE channels ADD COLUMN dm_key TEXT;
CREATE UNIQUE INDEX channels_dm_key ON channels (dm_key);

-- Who is in a private channel. `open` is 0 once the user closed the DM (DELETE /channels/{id});
-- the channel and its messages stay, and the next message opens it again. nick: a group DM
-- nickname given at creation.
CREATE TABLE channel_recipients (
  channel_id BIGINT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  nick TEXT,
  open INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX channel_recipients_user ON channel_recipients (user_id, channel_id);

-- A DM message's activity (an activity invite: JSON {type, party_id}).
ALTER TABLE messages ADD COLUMN activity TEXT;

-- Moderation metadata an application attached to a DM message (JSON object of strings). Seen
-- only by that application; editing the message's content clears it.
CREATE TABLE dm_moderation_metadata (
  message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  metadata TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (message_id, application_id)
);
