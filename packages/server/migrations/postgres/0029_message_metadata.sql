-- The metadata a game attaches to a DM it sends through the Social SDK
-- (SendUserMessageWithMetadata; docs/social-dms.md): a JSON object of string to string, shown
-- with the message to its recipients. NULL for every other message.
ALTER TABLE messages ADD COLUMN metadata TEXT;
