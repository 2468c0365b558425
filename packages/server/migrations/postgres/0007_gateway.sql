-- The gateway: voice states (op 4), voice session start times (VOICE_CHANNEL_START_TIME_UPDATE,
-- CHANNEL_INFO), privileged intent approvals (spec, Authentication item 9), an application's
-- gateway settings (Private Channel Obfuscation toggle) and resumable sessions with a bounded
-- replay buffer that any gateway node can read.
CREATE TABLE voice_states (
  guild_id BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  channel_id BIGINT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  self_mute INTEGER NOT NULL DEFAULT 0,
  self_deaf INTEGER NOT NULL DEFAULT 0,
  self_video INTEGER NOT NULL DEFAULT 0,
  joined_at BIGINT NOT NULL,
  PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX voice_states_channel ON voice_states (channel_id);

CREATE TABLE voice_channel_start_times (
  channel_id BIGINT PRIMARY KEY REFERENCES channels (id) ON DELETE CASCADE,
  started_at BIGINT NOT NULL
);

-- status: 'approved' (valid until expires_at, a year after approval) or 'pending' (in review).
CREATE TABLE privileged_intent_approvals (
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  intent TEXT NOT NULL,
  status TEXT NOT NULL,
  approved_at BIGINT,
  expires_at BIGINT,
  PRIMARY KEY (application_id, intent)
);

CREATE TABLE application_gateway_settings (
  application_id BIGINT PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  private_channel_obfuscation INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE gateway_sessions (
  id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  state TEXT NOT NULL,
  seq BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE gateway_replay (
  session_id TEXT NOT NULL REFERENCES gateway_sessions (id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);

-- A user's Profile Privacy Setting for custom status in PRESENCE_UPDATE (spec, Gateway events):
-- 'everyone' (the default, no row), 'friends' or 'friends_and_small_servers'.
CREATE TABLE user_profile_privacy (
  user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  setting TEXT NOT NULL
);
