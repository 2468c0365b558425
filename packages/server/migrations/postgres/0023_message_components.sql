-- What interactions and incoming webhooks add to a message (docs/interactions.md).
-- components: JSON array of wire components, as validated (components v1 or v2).
ALTER TABLE messages ADD COLUMN components TEXT;
-- interaction_metadata: JSON wire object of the interaction a response or followup answers.
ALTER TABLE messages ADD COLUMN interaction_metadata TEXT;
-- webhook_author: JSON {username, avatar} shown as the author of a webhook's message (the name
-- and avatar it had, or the ones the execute asked for).
ALTER TABLE messages ADD COLUMN webhook_author TEXT;
-- An ephemeral interaction message (flag 64) is visible to this user only; null for the rest.
ALTER TABLE messages ADD COLUMN ephemeral_user_id BIGINT;
