-- One live login link per person (docs/web.md, Login links): the person's row is replaced in one
-- statement (INSERT ... ON CONFLICT (user_id)), so two links made at once cannot both stay live.
-- Of rows two such links left behind, the newest stays.
DELETE FROM login_links
WHERE EXISTS (
  SELECT 1 FROM login_links newer
  WHERE newer.user_id = login_links.user_id
    AND (newer.created_at > login_links.created_at
      OR (newer.created_at = login_links.created_at AND newer.hash > login_links.hash))
);
DROP INDEX login_links_user;
CREATE UNIQUE INDEX login_links_person ON login_links (user_id);

-- The expired credentials sweep (resources/auth/sweep.ts) finds expired tokens by these.
CREATE INDEX tokens_expiry ON tokens (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at) WHERE expires_at IS NOT NULL;

-- Resumable gateway sessions are kept per node (gateway/sessionStore.ts): each row names the node
-- serving it, and each node's heartbeat is in gateway_nodes. The sessions of a node not heard from
-- for longer than the resume window can no longer be resumed anywhere, and are swept. Rows
-- written by an earlier version (which does not name the node) belong to 'before-0036', taken
-- for alive for a day after this migration, so a rolling upgrade does not lose them.
ALTER TABLE gateway_sessions ADD COLUMN node TEXT NOT NULL DEFAULT 'before-0036';
CREATE INDEX gateway_sessions_node ON gateway_sessions (node);
CREATE TABLE gateway_nodes (
  id TEXT PRIMARY KEY,
  seen_at INTEGER NOT NULL
);
INSERT INTO gateway_nodes (id, seen_at)
VALUES ('before-0036', CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 86400000);
