-- Durable target-user jobs. The ids of an uploaded file wait here, one row per batch, written in
-- the transaction that starts the job; any node writes them to invite_target_users batch by batch
-- and deletes each batch in the same transaction, so a job resumes where it stopped.
CREATE TABLE invite_target_job_batches (
  code TEXT NOT NULL REFERENCES invites (code) ON DELETE CASCADE,
  job_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  -- A JSON array of user ids (strings).
  user_ids TEXT NOT NULL,
  PRIMARY KEY (code, job_id, seq)
);

-- Which node runs a PROCESSING job, until when: another node takes it over only once the lease
-- has run out (or was released when its node stopped).
ALTER TABLE invite_target_jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE invite_target_jobs ADD COLUMN lease_until BIGINT;
CREATE INDEX invite_target_jobs_status ON invite_target_jobs (status);
