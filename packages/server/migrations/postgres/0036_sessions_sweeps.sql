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
