-- Whether a person may see age-restricted content (the private user object's nsfw_allowed):
-- 1 allowed, 0 not; no row: not known, which an age-gated activity refuses as not allowed
-- (docs/activities.md#config). An operator sets it (`guildhall user nsfw-allowed`).
CREATE TABLE user_nsfw_allowed (
  user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  allowed INTEGER NOT NULL
);
