-- Application commands (docs/commands.md): an application's global commands (guild_id NULL) and
-- its commands of one guild. Names are unique per application, scope and type; the service
-- checks that with the application's row locked (every write to its commands goes one by one).
-- name_localizations, description_localizations: JSON objects of locale to text, or NULL.
-- options: JSON array of the validated wire options. contexts, integration_types: JSON arrays
-- of integers (contexts NULL when never set). version: a snowflake made anew on every change.
CREATE TABLE application_commands (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  guild_id INTEGER REFERENCES guilds (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  name TEXT NOT NULL,
  name_localizations TEXT,
  description TEXT NOT NULL,
  description_localizations TEXT,
  options TEXT NOT NULL,
  default_member_permissions TEXT,
  dm_permission INTEGER NOT NULL DEFAULT 1,
  contexts TEXT,
  integration_types TEXT NOT NULL,
  nsfw INTEGER NOT NULL DEFAULT 0,
  handler INTEGER,
  version INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX application_commands_scope ON application_commands (application_id, guild_id);

-- The permission overwrites of a command in a guild: a JSON array of {id, type, permission}.
-- command_id is a command's id, or the application's id for the application-wide overwrites
-- (so it references neither table; deleting a command deletes its rows).
CREATE TABLE application_command_permissions (
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  guild_id INTEGER NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  command_id INTEGER NOT NULL,
  permissions TEXT NOT NULL,
  PRIMARY KEY (application_id, guild_id, command_id)
);
CREATE INDEX application_command_permissions_command ON application_command_permissions (command_id);
