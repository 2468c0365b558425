-- Issue 18 ("guild2"): voice-adjacent state, expressions and application data. Times are epoch
-- ms; JSON columns are text.

-- Stage voice states: a suppressed listener (suppress) and a raised hand (request to speak).
ALTER TABLE voice_states ADD COLUMN suppress INTEGER NOT NULL DEFAULT 0;
ALTER TABLE voice_states ADD COLUMN request_to_speak_at BIGINT;

-- A guild's soundboard sounds; the audio is in the blob store under `soundboard/{id}`.
CREATE TABLE soundboard_sounds (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  volume DOUBLE PRECISION NOT NULL DEFAULT 1,
  emoji_id BIGINT,
  emoji_name TEXT,
  creator_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
  content_type TEXT NOT NULL,
  available INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL
);
CREATE INDEX soundboard_sounds_guild ON soundboard_sounds (guild_id);

-- A live stage: at most one per stage channel.
CREATE TABLE stage_instances (
  id BIGINT PRIMARY KEY,
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id BIGINT NOT NULL UNIQUE REFERENCES channels (id) ON DELETE CASCADE,
  topic TEXT NOT NULL,
  privacy_level INTEGER NOT NULL DEFAULT 2,
  scheduled_event_id BIGINT REFERENCES scheduled_events (id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX stage_instances_guild ON stage_instances (guild_id);

-- A changed or canceled occurrence of a recurring scheduled event.
CREATE TABLE scheduled_event_exceptions (
  id BIGINT PRIMARY KEY,
  event_id BIGINT NOT NULL REFERENCES scheduled_events (id) ON DELETE CASCADE,
  original_start_time BIGINT NOT NULL,
  scheduled_start_time BIGINT,
  scheduled_end_time BIGINT,
  is_canceled INTEGER NOT NULL DEFAULT 0,
  UNIQUE (event_id, original_start_time)
);

-- Who is interested in an event (exception_id 0) or answered one occurrence of it.
-- response: 1 interested (the whole series or the occurrence), 0 not interested (an occurrence).
CREATE TABLE scheduled_event_users (
  event_id BIGINT NOT NULL REFERENCES scheduled_events (id) ON DELETE CASCADE,
  exception_id BIGINT NOT NULL DEFAULT 0,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  response INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (event_id, exception_id, user_id)
);
CREATE INDEX scheduled_event_users_user ON scheduled_event_users (user_id);

-- An application's own emojis; the image is in the blob store under `emojis/{id}`.
CREATE TABLE application_emojis (
  id BIGINT PRIMARY KEY,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  animated INTEGER NOT NULL DEFAULT 0,
  creator_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (application_id, name)
);

-- An application's role connection metadata records (a JSON array, at most 5).
CREATE TABLE application_role_connection_metadata (
  application_id BIGINT PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  records TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- A user's role connection with an application (metadata: JSON object of key to string).
CREATE TABLE user_role_connections (
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  platform_name TEXT,
  platform_username TEXT,
  metadata TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, application_id)
);

-- A file an application uploads for its activity (POST /applications/{id}/attachment); the
-- bytes are in the blob store under `app-attachments/{id}`.
CREATE TABLE application_attachments (
  id BIGINT PRIMARY KEY,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  filename TEXT NOT NULL,
  content_type TEXT,
  size BIGINT NOT NULL,
  width INTEGER,
  height INTEGER,
  created_at BIGINT NOT NULL
);
CREATE INDEX application_attachments_application ON application_attachments (application_id);
