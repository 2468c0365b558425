-- An application accepts the device authorization grant (RFC 8628) only once its owner turns it
-- on (PATCH /applications/{id} with device_flow_enabled, docs/oauth.md).
ALTER TABLE applications ADD COLUMN device_flow_enabled INTEGER NOT NULL DEFAULT 0;
