-- Provisional accounts, external identities, platform account bans, OpenID provider settings and
-- publisher-level application links. Times are epoch ms.

-- One external identity (application, auth type, subject) points at one user: a provisional
-- account (provisional = 1) or, after a merge, a full account. A user holds at most one external
-- identity per application (error 530023). `restricted_by` names the banned platform account whose
-- ban created this provisional account: merges fail with 530017 while that ban lasts.
CREATE TABLE external_identities (
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  auth_type TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provisional INTEGER NOT NULL,
  restricted_by BIGINT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (application_id, auth_type, subject)
);
CREATE UNIQUE INDEX external_identities_user_app ON external_identities (user_id, application_id);

-- Operator bans of platform accounts; expires_at NULL is a permanent ban.
CREATE TABLE user_bans (
  user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  reason TEXT,
  expires_at BIGINT,
  created_at BIGINT NOT NULL
);

-- An application's OpenID Connect identity provider. validation: 'strict' when saved under the
-- current issuer rules, 'legacy' for a configuration imported from before them (kept working).
CREATE TABLE oidc_providers (
  application_id BIGINT PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  issuer TEXT NOT NULL,
  client_id TEXT NOT NULL,
  validation TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- Operator-approved publisher links: a parent application's tokens exchange for a child's.
CREATE TABLE application_links (
  parent_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  child_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  approved_at BIGINT NOT NULL,
  PRIMARY KEY (parent_id, child_id)
);
