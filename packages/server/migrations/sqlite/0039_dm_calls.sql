-- DM and group-DM calls (issue 33, docs/voice.md#dm-and-group-dm-calls): a private channel's
-- ongoing call, who it rings, and its recipients in it. A call starts when its first recipient
-- joins (gateway op 4 with guild_id null and the channel's id) and ends with its last; its
-- system message (type 3 CALL) keeps the participants and the end in messages.call.
CREATE TABLE dm_calls (
  channel_id INTEGER PRIMARY KEY REFERENCES channels (id) ON DELETE CASCADE,
  -- The call's system message (type 3).
  message_id INTEGER NOT NULL,
  region TEXT NOT NULL,
  -- JSON arrays of user ids: who is being rung now, and everyone who joined.
  ringing TEXT NOT NULL,
  participants TEXT NOT NULL,
  started_at INTEGER NOT NULL
);

-- A recipient in its channel's call: one DM call per user at a time, from one gateway session.
CREATE TABLE dm_voice_states (
  user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  self_mute INTEGER NOT NULL DEFAULT 0,
  self_deaf INTEGER NOT NULL DEFAULT 0,
  self_video INTEGER NOT NULL DEFAULT 0,
  joined_at INTEGER NOT NULL
);
CREATE INDEX dm_voice_states_channel ON dm_voice_states (channel_id);
CREATE INDEX dm_voice_states_session ON dm_voice_states (session_id);

-- A CALL message's call: {"participants": [ids], "ended_at": epoch ms or null}.
ALTER TABLE messages ADD COLUMN call TEXT;
