-- Secrets the server makes at first start and every node shares (the attachment URL signing key).
-- A row is written once and never changed; a second node starting at the same moment keeps the
-- first row (INSERT ... ON CONFLICT DO NOTHING, then read back).
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
