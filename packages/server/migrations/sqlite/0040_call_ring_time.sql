-- When a DM or group-DM call last started ringing someone (its start, or a ring request), epoch
-- ms: ringing stops by itself a while after it (docs/voice.md#dm-and-group-dm-calls).
ALTER TABLE dm_calls ADD COLUMN rang_at INTEGER NOT NULL DEFAULT 0;
