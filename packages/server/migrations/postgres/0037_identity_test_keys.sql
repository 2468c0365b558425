-- An application's external identity providers other than OpenID (Steam, Epic Online Services,
-- Unity, Apple, PlayStation) in test mode (docs/provisional-accounts.md, Test identity providers):
-- the developer's public key (SPKI PEM) that test credentials for that provider are signed with.
CREATE TABLE identity_test_keys (
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  public_key TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (application_id, provider)
);
