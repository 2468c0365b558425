-- Lobby calls (issue 19, docs/lobbies.md#voice-calls): a lobby member in the lobby's voice call,
-- joined by gateway op 4 with guild_id null from one of their SDK sessions of the lobby's
-- application. One call per user per application at a time. Leaving the lobby, its deletion
-- and the end of the session end the row (the code deletes it and announces it; the cascades
-- are the safety net).
CREATE TABLE lobby_voice_states (
  lobby_id BIGINT NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The lobby's application, for the one-call-per-application rule.
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  self_mute INTEGER NOT NULL DEFAULT 0,
  self_deaf INTEGER NOT NULL DEFAULT 0,
  joined_at BIGINT NOT NULL,
  PRIMARY KEY (lobby_id, user_id),
  UNIQUE (user_id, application_id)
);
CREATE INDEX lobby_voice_states_session ON lobby_voice_states (session_id);

-- A guild voice state ends with its gateway session too: found by session.
CREATE INDEX voice_states_session ON voice_states (session_id);
