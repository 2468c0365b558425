-- Webhook events: each application's subscription (event types and status beside the existing
-- event_webhooks_url), and the durable outbox the delivery worker drains. An event row is written
-- in the same transaction as the change it reports; each delivery attempt is kept for the owner.
ALTER TABLE applications ADD COLUMN event_webhooks_types TEXT NOT NULL DEFAULT '[]';
-- 1 disabled, 2 enabled, 3 disabled by the platform (ApplicationEventWebhooksStatus).
ALTER TABLE applications ADD COLUMN event_webhooks_status INTEGER NOT NULL DEFAULT 1;
UPDATE applications SET event_webhooks_status = 2 WHERE event_webhooks_url IS NOT NULL;

CREATE TABLE outbox_events (
  id BIGINT PRIMARY KEY,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  -- The event object {type, timestamp, data} as JSON text, exactly as it goes into the envelope.
  event TEXT NOT NULL,
  -- pending, delivered or failed.
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  -- When a worker may next claim it; a claim moves it a lease ahead.
  next_attempt_at BIGINT NOT NULL,
  give_up_at BIGINT NOT NULL,
  finished_at BIGINT,
  last_error TEXT
);
CREATE INDEX outbox_events_due ON outbox_events (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_events_application ON outbox_events (application_id, id);

CREATE TABLE outbox_attempts (
  outbox_id BIGINT NOT NULL REFERENCES outbox_events (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at BIGINT NOT NULL,
  duration_ms INTEGER NOT NULL,
  http_status INTEGER,
  error TEXT,
  PRIMARY KEY (outbox_id, attempt)
);
