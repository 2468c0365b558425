-- Snowflake worker ids leased by the processes sharing the database, so two never mint the same
-- id (docs/operations.md, Worker ids). A slot is a (worker id, process id) pair of the snowflake;
-- a row is live until expires_at (epoch ms), moved forward by its holder while it runs and deleted
-- when it stops cleanly. A slot whose row has expired is free to take.
CREATE TABLE worker_leases (
  worker_id INTEGER NOT NULL,
  process_id INTEGER NOT NULL,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (worker_id, process_id)
);
