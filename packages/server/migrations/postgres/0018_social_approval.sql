-- An operator's approval of an application for the Social SDK's communication features: while it
-- is 0, the pre-approval limits (docs/social.md#limits) count the app's lobby writes and DMs.
ALTER TABLE applications ADD COLUMN social_approved INTEGER NOT NULL DEFAULT 0;
