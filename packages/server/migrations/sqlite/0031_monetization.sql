-- Monetization: SKUs, subscriptions and entitlements (docs/monetization.md).
-- Times are epoch ms; flags are the SKU flag bits.

-- What an application sells: durable (2), consumable (3), subscription (5), subscription group (6).
CREATE TABLE skus (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  flags INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX skus_slug ON skus (application_id, slug);

-- A user's subscription to a subscription SKU (guild_id set for a guild subscription). Statuses:
-- 0 active, 1 inactive, 2 ending. renewal_sku_ids is a JSON array or null.
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  sku_id INTEGER NOT NULL REFERENCES skus (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  guild_id INTEGER REFERENCES guilds (id) ON DELETE CASCADE,
  renewal_sku_ids TEXT,
  current_period_start INTEGER NOT NULL,
  current_period_end INTEGER NOT NULL,
  status INTEGER NOT NULL,
  canceled_at INTEGER,
  country TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX subscriptions_sku ON subscriptions (sku_id, id);

-- What a user (or a guild, through the user who bought it) may use of an application's SKUs.
CREATE TABLE entitlements (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  sku_id INTEGER NOT NULL REFERENCES skus (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  guild_id INTEGER REFERENCES guilds (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  starts_at INTEGER,
  ends_at INTEGER,
  consumed INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  subscription_id INTEGER REFERENCES subscriptions (id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX entitlements_application ON entitlements (application_id, id);
CREATE INDEX entitlements_user ON entitlements (user_id, application_id);
CREATE INDEX entitlements_guild ON entitlements (guild_id);
CREATE INDEX entitlements_subscription ON entitlements (subscription_id);
