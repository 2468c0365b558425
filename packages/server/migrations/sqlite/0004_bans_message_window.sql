-- A ban keeps the message-deletion window it asked for (delete_message_seconds, 0 to 604800):
-- messages arrive with a later issue, which deletes the banned user's recent messages from it.
ALTER TABLE bans ADD COLUMN delete_message_seconds INTEGER NOT NULL DEFAULT 0;
