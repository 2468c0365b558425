-- What the developer portal sets on an application (docs/applications.md): its install links,
-- its Social SDK settings, its rich presence art and its game-stats widget layout.

-- The platform's Default Install Settings: install_params is {"scopes": [...], "permissions": "…"}
-- (JSON text, NULL when unset); integration_types_config is keyed by the enabled installation
-- contexts ("0" guild, "1" user), each {"oauth2_install_params": {...}} or {}.
ALTER TABLE applications ADD COLUMN custom_install_url TEXT;
ALTER TABLE applications ADD COLUMN install_params TEXT;
ALTER TABLE applications ADD COLUMN integration_types_config TEXT NOT NULL DEFAULT '{"0":{},"1":{}}';
-- Accepting the Social SDK terms lets the app ask for relationships.read without approval.
ALTER TABLE applications ADD COLUMN social_sdk_terms_accepted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN connection_entrypoint_url TEXT;

-- Rich presence art (type 1 small, 2 large). The image is the blob app-assets/{application_id}/{id};
-- extension is the format it was uploaded in (png, jpg, gif or webp).
CREATE TABLE application_assets (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  name TEXT NOT NULL,
  extension TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX application_assets_name ON application_assets (application_id, name);

-- The game-stats widget layout an application shows on its players' profiles (JSON text,
-- docs/social-stats.md#widget-layouts).
CREATE TABLE application_game_stats_layouts (
  application_id INTEGER PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  layout TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
