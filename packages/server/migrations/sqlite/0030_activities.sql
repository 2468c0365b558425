-- Activities (docs/activities-server.md): an application's embedded activity config, the
-- instances people launch in a voice channel or a DM, and who takes part in each.

-- The activity config the developer portal sets. url_mappings is JSON text, an array of
-- {"prefix": "/…", "target": "host[:port][/path]"} (the proxy host's routing table);
-- supported_platforms a JSON array of "web", "ios", "android"; orientation lock states are
-- 1 unlocked, 2 portrait, 3 landscape (NULL: the platform default).
CREATE TABLE application_activity_configs (
  application_id INTEGER PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  url_mappings TEXT NOT NULL,
  supported_platforms TEXT NOT NULL,
  default_orientation_lock_state INTEGER,
  tablet_default_orientation_lock_state INTEGER,
  requires_age_gate INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);

-- One launch of an application's activity in a channel. id is the platform's instance id,
-- i-<launch_id>-gc-<guild_id>-<channel_id> or i-<launch_id>-pc-<channel_id>; location_kind is
-- "gc" (guild channel) or "pc" (private channel). An instance ends (ended_at) when its last
-- participant leaves; at most one live instance per application and channel.
CREATE TABLE activity_instances (
  id TEXT PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  launch_id INTEGER NOT NULL,
  location_kind TEXT NOT NULL,
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  guild_id INTEGER,
  launched_by INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE UNIQUE INDEX activity_instances_live ON activity_instances (application_id, channel_id)
  WHERE ended_at IS NULL;
CREATE INDEX activity_instances_channel ON activity_instances (channel_id, ended_at);

CREATE TABLE activity_participants (
  instance_id TEXT NOT NULL REFERENCES activity_instances (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (instance_id, user_id)
);
CREATE INDEX activity_participants_user ON activity_participants (user_id);
