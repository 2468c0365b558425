-- Moderation and guild settings (docs/automod.md, docs/guild-api.md). Times are epoch ms; JSON
-- columns are JSON text.

-- Auto-moderation rules: trigger_metadata is the rule's trigger metadata object, actions its list
-- of actions, exempt_roles and exempt_channels lists of ids (all as the wire has them).
CREATE TABLE automod_rules (
  id INTEGER PRIMARY KEY,
  guild_id INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  creator_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  event_type INTEGER NOT NULL,
  trigger_type INTEGER NOT NULL,
  trigger_metadata TEXT NOT NULL,
  actions TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  exempt_roles TEXT NOT NULL,
  exempt_channels TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX automod_rules_guild ON automod_rules (guild_id);

-- A guild's template (one per guild): source is the guild's snapshot when made or last synced.
CREATE TABLE guild_templates (
  code TEXT PRIMARY KEY,
  guild_id INTEGER NOT NULL UNIQUE REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  usage_count INTEGER NOT NULL DEFAULT 0,
  creator_id INTEGER NOT NULL,
  source TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- A guild's settings documents by name (widget, welcome_screen, onboarding, incident_actions,
-- new_member_welcome): each a JSON object its service parses.
CREATE TABLE guild_settings (
  guild_id INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (guild_id, name)
);

-- A guild's vanity invite code (unique across guilds) and the joins it brought.
CREATE TABLE guild_vanity_urls (
  guild_id INTEGER PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
  code TEXT NOT NULL UNIQUE,
  uses INTEGER NOT NULL DEFAULT 0
);

-- Requests to join a guild that reviews its members (STARTED, SUBMITTED, APPROVED, REJECTED).
CREATE TABLE guild_join_requests (
  id INTEGER PRIMARY KEY,
  guild_id INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  form_responses TEXT NOT NULL,
  rejection_reason TEXT,
  actioned_by_user_id INTEGER,
  actioned_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX guild_join_requests_user ON guild_join_requests (guild_id, user_id);
CREATE INDEX guild_join_requests_guild ON guild_join_requests (guild_id, id);
