-- Invites with target users (and the asynchronous jobs that replace a target list from a CSV
-- file), and the connected accounts of users (GET /users/@me/connections).
CREATE TABLE invites (
  code TEXT PRIMARY KEY,
  guild_id INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  inviter_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
  max_age INTEGER NOT NULL,
  max_uses INTEGER NOT NULL,
  uses INTEGER NOT NULL DEFAULT 0,
  temporary INTEGER NOT NULL DEFAULT 0,
  target_type INTEGER,
  target_user_id INTEGER,
  target_application_id INTEGER,
  role_ids TEXT NOT NULL DEFAULT '[]',
  -- Whether only listed target users may accept (set once a target list is given).
  targeted INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  expires_at INTEGER
);
CREATE INDEX invites_guild ON invites (guild_id);
CREATE INDEX invites_channel ON invites (channel_id);

CREATE TABLE invite_target_users (
  code TEXT NOT NULL REFERENCES invites (code) ON DELETE CASCADE,
  user_id INTEGER NOT NULL,
  PRIMARY KEY (code, user_id)
);

CREATE TABLE invite_target_jobs (
  code TEXT PRIMARY KEY REFERENCES invites (code) ON DELETE CASCADE,
  -- Which run owns the row: a newer upload replaces it and the older run stops.
  job_id TEXT NOT NULL,
  status INTEGER NOT NULL,
  total_users INTEGER NOT NULL,
  processed_users INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  completed_at INTEGER,
  error_message TEXT
);

CREATE TABLE user_connections (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT,
  verified INTEGER NOT NULL DEFAULT 0,
  friend_sync INTEGER NOT NULL DEFAULT 0,
  show_activity INTEGER NOT NULL DEFAULT 1,
  two_way_link INTEGER NOT NULL DEFAULT 0,
  visibility INTEGER NOT NULL DEFAULT 0,
  revoked INTEGER NOT NULL DEFAULT 0,
  -- 'A' or 'B' for the two game-publisher kinds of the spec; NULL otherwise.
  publisher_kind TEXT,
  -- 1 for a connection made through the Social SDK and application identities (a "new" one).
  application_identity INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, type, id)
);
