-- Lobbies of the Social SDK (docs/lobbies.md): a lobby belongs to one application; its members,
-- its messages, and the moderation metadata each application's backend attaches to a message
-- (kept per application, never shown to another). A lobby made by PUT /lobbies has a secret,
-- stored hashed and unique per application, that expires after 30 days. An empty lobby is
-- deleted idle_timeout_seconds after its last member left (emptied_at; created_at when it never
-- had one).
CREATE TABLE lobbies (
  id BIGINT PRIMARY KEY,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  -- JSON object of string to string, or NULL.
  metadata TEXT,
  flags INTEGER NOT NULL DEFAULT 0,
  idle_timeout_seconds INTEGER NOT NULL,
  linked_channel_id BIGINT REFERENCES channels (id) ON DELETE SET NULL,
  override_event_webhooks_url TEXT,
  secret_hash TEXT,
  secret_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  emptied_at BIGINT,
  UNIQUE (application_id, secret_hash)
);
CREATE INDEX lobbies_linked_channel ON lobbies (linked_channel_id);

CREATE TABLE lobby_members (
  lobby_id BIGINT NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  metadata TEXT,
  flags INTEGER NOT NULL DEFAULT 0,
  additional_name TEXT,
  joined_at BIGINT NOT NULL,
  PRIMARY KEY (lobby_id, user_id)
);
CREATE INDEX lobby_members_user ON lobby_members (user_id);

CREATE TABLE lobby_messages (
  id BIGINT PRIMARY KEY,
  lobby_id BIGINT NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
  author_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The application whose token sent it.
  application_id BIGINT NOT NULL,
  content TEXT NOT NULL,
  metadata TEXT,
  flags INTEGER NOT NULL DEFAULT 0,
  -- The author's additional_name when it was sent.
  additional_name TEXT,
  created_at BIGINT NOT NULL,
  edited_at BIGINT
);
CREATE INDEX lobby_messages_lobby ON lobby_messages (lobby_id, id);

CREATE TABLE lobby_message_moderation (
  message_id BIGINT NOT NULL REFERENCES lobby_messages (id) ON DELETE CASCADE,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  metadata TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (message_id, application_id)
);

-- A lobby's override_event_webhooks_url: its events go there instead of the app's URL.
ALTER TABLE outbox_events ADD COLUMN target_url TEXT;
