-- Message search (issue 4): GET /guilds/{id}/messages/search runs on a tsvector with a GIN index.
--
-- message_search holds one tsvector per guild message, kept in step by a trigger on insert and on
-- content edits (deletes cascade). A guild whose messages existed before its index (every guild
-- with messages when this migration runs, or one an operator reindexes) gets a guild_search_index
-- row: its messages with backfill_after < id <= backfill_through may not be indexed yet, and a
-- background job indexes them in batches, moving backfill_after up, until backfill_after =
-- backfill_through and completed_at is set. Until then search answers 202 with code 110000. A
-- guild without a row has every message indexed.

-- Search without a content query walks a guild's messages newest first.
CREATE INDEX messages_guild_search ON messages (guild_id, id) WHERE guild_id IS NOT NULL;

CREATE TABLE guild_search_index (
  guild_id BIGINT PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
  backfill_after BIGINT NOT NULL DEFAULT 0,
  backfill_through BIGINT NOT NULL,
  -- Messages indexed by the backfill so far (the 202 body's documents_indexed).
  documents_indexed INTEGER NOT NULL DEFAULT 0,
  started_at BIGINT NOT NULL,
  completed_at BIGINT
);

INSERT INTO guild_search_index (guild_id, backfill_after, backfill_through, started_at)
SELECT guild_id, 0, MAX(id), (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT
FROM messages
WHERE guild_id IN (SELECT id FROM guilds)
GROUP BY guild_id;

-- The text as both drivers tokenise it: punctuation and spaces split words (so example.com is
-- "example" and "com", as in SQLite's unicode61), the simple configuration folds case and keeps
-- every word (no stemming, no stop words).
CREATE FUNCTION message_search_document(content TEXT) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT to_tsvector('simple'::regconfig, regexp_replace(content, '[[:punct:][:space:][:cntrl:]]+', ' ', 'g')) $$;

CREATE TABLE message_search (
  message_id BIGINT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
  document tsvector NOT NULL
);
CREATE INDEX message_search_document_gin ON message_search USING GIN (document);

CREATE FUNCTION message_search_sync() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NEW.guild_id IS NOT NULL THEN
    INSERT INTO message_search (message_id, document)
    VALUES (NEW.id, message_search_document(NEW.content))
    ON CONFLICT (message_id) DO UPDATE SET document = EXCLUDED.document;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER message_search_insert AFTER INSERT ON messages
FOR EACH ROW EXECUTE FUNCTION message_search_sync();

CREATE TRIGGER message_search_update AFTER UPDATE OF content ON messages
FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content) EXECUTE FUNCTION message_search_sync();
