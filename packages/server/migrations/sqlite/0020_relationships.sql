-- Friends, friend requests and blocks (docs/social-friends.md). One row per (user, target, scope)
-- as the user sees it: a friendship or a pending request is two rows, one per side (FRIEND and
-- FRIEND, or PENDING_OUTGOING and PENDING_INCOMING); a block is one row, the blocker's.
-- application_id 0 is the platform-wide scope (a Discord friend); any other value is the
-- application whose game-scoped friends these are (the Social SDK's game friends; snowflakes are
-- never 0). type: 1 FRIEND, 2 BLOCKED, 3 PENDING_INCOMING, 4 PENDING_OUTGOING, 5 IMPLICIT.
-- since is epoch ms.
CREATE TABLE relationships (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  application_id INTEGER NOT NULL DEFAULT 0,
  type INTEGER NOT NULL,
  nickname TEXT,
  is_spam_request INTEGER NOT NULL DEFAULT 0,
  since INTEGER NOT NULL,
  PRIMARY KEY (user_id, application_id, target_id)
);
-- Who has a relationship with a user: the other side of a merge, block checks, fan-out.
CREATE INDEX relationships_target ON relationships (target_id, application_id);

-- Who may send a user direct messages from connected games (the "Connected games" setting):
-- 'everyone', 'friends' or 'nobody'. No row is the default, 'friends'.
CREATE TABLE user_message_privacy (
  user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  setting TEXT NOT NULL
);
