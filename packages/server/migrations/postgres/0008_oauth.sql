-- OAuth2 and OpenID Connect: authorizations, their tokens, codes, device codes and ID token keys.
-- Every token and code is stored as its SHA-256 hash only. Times are epoch ms.
ALTER TABLE applications ADD COLUMN public_client INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN identify_premium_approved INTEGER NOT NULL DEFAULT 0;

CREATE TABLE oauth_authorizations (
  id BIGINT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  scopes TEXT NOT NULL,
  integration_type INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE UNIQUE INDEX oauth_authorizations_pair ON oauth_authorizations (user_id, application_id);
CREATE INDEX oauth_authorizations_application ON oauth_authorizations (application_id);

CREATE TABLE oauth_tokens (
  hash TEXT PRIMARY KEY,
  authorization_id BIGINT NOT NULL REFERENCES oauth_authorizations (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  code_hash TEXT
);
CREATE INDEX oauth_tokens_authorization ON oauth_tokens (authorization_id);
CREATE INDEX oauth_tokens_code ON oauth_tokens (code_hash) WHERE code_hash IS NOT NULL;

CREATE TABLE oauth_codes (
  hash TEXT PRIMARY KEY,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  scopes TEXT NOT NULL,
  redirect_uri TEXT,
  code_challenge TEXT,
  nonce TEXT,
  auth_time BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

CREATE TABLE oauth_device_codes (
  hash TEXT PRIMARY KEY,
  user_code TEXT NOT NULL UNIQUE,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  scopes TEXT NOT NULL,
  status TEXT NOT NULL,
  user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  last_polled_at BIGINT,
  interval_seconds INTEGER NOT NULL
);

CREATE TABLE oauth_signing_keys (
  kid TEXT PRIMARY KEY,
  alg TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  private_jwk TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
