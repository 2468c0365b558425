-- A channel's newest message id (ephemeral messages left out) is read on every message post's
-- access check and every channel read. With the ephemeral filter on messages_channel, PostgreSQL
-- could not see that the newest entry answers, and where its statistics lagged a growing channel
-- it read all of the channel's messages for it. Over the messages that count, the newest entry of
-- the channel's range is the answer, whatever the statistics say.
CREATE INDEX IF NOT EXISTS messages_channel_latest ON messages (channel_id, id) WHERE ephemeral_user_id IS NULL;
