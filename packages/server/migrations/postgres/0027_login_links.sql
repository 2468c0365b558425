-- One-time login links (docs/web.md, Login links): `guildhall start` prints one for the demo
-- developer and `guildhall user login-link` makes one for any person. A link's code is a secret
-- kept only as its SHA-256 (hex); POST /auth/login-link deletes the row as it uses it, so a code
-- works once, and only until expires_at (epoch ms). A person has at most one unused link.
CREATE TABLE login_links (
  hash TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX login_links_user ON login_links (user_id);
CREATE INDEX login_links_expiry ON login_links (expires_at);
