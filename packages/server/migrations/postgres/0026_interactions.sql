-- Interactions people invoke (POST /interactions) and apps answer (docs/interactions.md).
-- The token is never stored: token_hash is the sha256 (hex) of it. payload is the JSON of the
-- interaction object as delivered to the app, without its token. response_type is null until the
-- app's initial response acknowledged it (set once: the 40060 rule); failed_at is set when no
-- response came by ack_deadline_at (3 s), and the two exclude each other. modal is the JSON modal
-- an app showed in answer (MODAL callback), which a later MODAL_SUBMIT must match by
-- modal_custom_id. A row lives until expires_at (15 minutes: the token's life), then is swept.
CREATE TABLE interactions (
  id BIGINT PRIMARY KEY,
  application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  token_hash TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  guild_id BIGINT,
  channel_id BIGINT NOT NULL,
  -- The message a component interaction was clicked on.
  message_id BIGINT,
  -- The client's nonce, handed back in INTERACTION_SUCCESS / INTERACTION_FAILURE.
  nonce TEXT,
  payload TEXT NOT NULL,
  -- A modal submit's triggering_interaction_metadata: the JSON metadata of the interaction whose
  -- MODAL response showed the modal (that row may be swept first).
  triggering_metadata TEXT,
  modal TEXT,
  modal_custom_id TEXT,
  response_type INTEGER,
  original_message_id BIGINT,
  failed_at BIGINT,
  created_at BIGINT NOT NULL,
  ack_deadline_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  UNIQUE (application_id, token_hash)
);
CREATE INDEX interactions_expires ON interactions (expires_at);
CREATE INDEX interactions_pending ON interactions (ack_deadline_at) WHERE response_type IS NULL AND failed_at IS NULL;
CREATE INDEX interactions_modal ON interactions (application_id, user_id, modal_custom_id) WHERE modal_custom_id IS NOT NULL;
