-- Threads, forum tags and polls (docs/threads.md, docs/polls.md). A thread is a row of `channels`
-- (type 10 announcement thread, 11 public, 12 private; parent_id its text, announcement, forum or
-- media channel; owner_id its creator) with its metadata here. Times are milliseconds since the
-- epoch. `last_activity_at` is when the thread last woke (made, unarchived or posted in): it
-- archives itself `auto_archive_duration` minutes after it.
CREATE TABLE thread_metadata (
  channel_id BIGINT PRIMARY KEY REFERENCES channels (id) ON DELETE CASCADE,
  guild_id BIGINT NOT NULL,
  parent_id BIGINT NOT NULL,
  archived INTEGER NOT NULL DEFAULT 0,
  auto_archive_duration INTEGER NOT NULL,
  archive_timestamp BIGINT NOT NULL,
  locked INTEGER NOT NULL DEFAULT 0,
  invitable INTEGER NOT NULL DEFAULT 1,
  total_message_sent INTEGER NOT NULL DEFAULT 0,
  -- JSON array of forum tag ids (snowflake strings).
  applied_tags TEXT NOT NULL DEFAULT '[]',
  last_activity_at BIGINT NOT NULL
);
CREATE INDEX thread_metadata_guild ON thread_metadata (guild_id, archived);
CREATE INDEX thread_metadata_parent ON thread_metadata (parent_id, archived, archive_timestamp);

-- Who is in a thread (THREAD_MEMBERS_UPDATE); flags are the member's notification settings.
CREATE TABLE thread_members (
  thread_id BIGINT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL,
  join_timestamp BIGINT NOT NULL,
  flags INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (thread_id, user_id)
);
CREATE INDEX thread_members_user ON thread_members (user_id);

-- The tags of a forum or media channel (`available_tags`), in their order.
CREATE TABLE forum_tags (
  id BIGINT PRIMARY KEY,
  channel_id BIGINT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  moderated INTEGER NOT NULL DEFAULT 0,
  emoji_id BIGINT,
  emoji_name TEXT
);
CREATE INDEX forum_tags_channel ON forum_tags (channel_id, position);

-- A message's poll: question and answers as JSON (the wire's poll media), `finalized` once it
-- ended (at its expiry, or early through the expire route).
CREATE TABLE polls (
  message_id BIGINT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
  channel_id BIGINT NOT NULL,
  question TEXT NOT NULL,
  answers TEXT NOT NULL,
  allow_multiselect INTEGER NOT NULL DEFAULT 0,
  layout_type INTEGER NOT NULL DEFAULT 1,
  expires_at BIGINT NOT NULL,
  finalized INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX polls_open ON polls (finalized, expires_at);

CREATE TABLE poll_votes (
  message_id BIGINT NOT NULL REFERENCES polls (message_id) ON DELETE CASCADE,
  answer_id INTEGER NOT NULL,
  user_id BIGINT NOT NULL,
  PRIMARY KEY (message_id, answer_id, user_id)
);
