-- Game stats (Application Identity Profiles), guild tags and the primary guild users show.
-- Times are epoch ms; metadata and data are JSON text.

-- The identity a game's backend writes stats into with its bot token (provider type NONE): one
-- per (application, user), keyed outside by the game's own provider_issued_user_id, which no
-- other user of the application may hold.
CREATE TABLE application_identity_profiles (
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider_type TEXT NOT NULL,
  provider_issued_user_id TEXT NOT NULL,
  username TEXT,
  metadata TEXT,
  data TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, user_id)
);
CREATE UNIQUE INDEX application_identity_profiles_external
  ON application_identity_profiles (application_id, provider_type, provider_issued_user_id);
CREATE INDEX application_identity_profiles_user ON application_identity_profiles (user_id);

-- A guild's tag (1 to 4 letters or digits) and its badge.
CREATE TABLE guild_tags (
  guild_id INTEGER PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  badge TEXT,
  updated_at INTEGER NOT NULL
);

-- The guild whose tag a user wears. It holds only while the user is still the member who chose it
-- (members.joined_at <= updated_at); enabled = 0 once the user hides it or the guild drops its tag.
CREATE TABLE user_primary_guilds (
  user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  guild_id INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX user_primary_guilds_guild ON user_primary_guilds (guild_id);
