-- Messages, their attachments and reactions (issue 4). Pins live on the message row
-- (pinned_at); embeds, mentions and forwarded snapshots are JSON text, written once per message.
CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  -- Null for messages outside a guild.
  guild_id INTEGER,
  author_id INTEGER NOT NULL,
  type INTEGER NOT NULL DEFAULT 0,
  content TEXT NOT NULL DEFAULT '',
  -- JSON array of wire embed objects.
  embeds TEXT NOT NULL DEFAULT '[]',
  flags INTEGER NOT NULL DEFAULT 0,
  tts INTEGER NOT NULL DEFAULT 0,
  mention_everyone INTEGER NOT NULL DEFAULT 0,
  -- JSON arrays of snowflake strings (resolved mentions).
  mention_user_ids TEXT NOT NULL DEFAULT '[]',
  mention_role_ids TEXT NOT NULL DEFAULT '[]',
  -- message_reference: type 0 DEFAULT (reply or system reference), 1 FORWARD.
  reference_type INTEGER,
  reference_channel_id INTEGER,
  reference_message_id INTEGER,
  reference_guild_id INTEGER,
  -- JSON array of {message: minimal wire message} frozen at forward time, or null.
  snapshots TEXT,
  nonce TEXT,
  application_id INTEGER,
  webhook_id INTEGER,
  pinned_at INTEGER,
  edited_at INTEGER,
  created_at INTEGER NOT NULL
);
-- Paging a channel (around/before/after); slowmode, nonce lookups and a ban's deletion window
-- read the channel's recent range of it (ids are time-ordered), so one index serves them all.
CREATE INDEX messages_channel ON messages (channel_id, id);
CREATE INDEX messages_channel_pins ON messages (channel_id, pinned_at) WHERE pinned_at IS NOT NULL;

CREATE TABLE message_attachments (
  id INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  channel_id INTEGER NOT NULL,
  -- Order within the message.
  position INTEGER NOT NULL,
  filename TEXT NOT NULL,
  description TEXT,
  content_type TEXT,
  size INTEGER NOT NULL,
  -- Attachment flags (IS_SPOILER 1 << 3).
  flags INTEGER NOT NULL DEFAULT 0,
  title TEXT
);
CREATE INDEX message_attachments_message ON message_attachments (message_id, position);

CREATE TABLE message_reactions (
  message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  -- The unicode emoji itself, or the custom emoji's id.
  emoji_key TEXT NOT NULL,
  emoji_id INTEGER,
  emoji_name TEXT NOT NULL,
  emoji_animated INTEGER NOT NULL DEFAULT 0,
  -- 0 normal, 1 burst.
  type INTEGER NOT NULL DEFAULT 0,
  user_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (message_id, emoji_key, type, user_id)
);
