-- Message search (issue 4): GET /guilds/{id}/messages/search runs on SQLite's FTS5.
--
-- message_search is an external-content FTS5 table over messages.content (rowid = message id):
-- it keeps only the index, the text stays in messages. Triggers keep it in step with every insert,
-- content edit and delete. A guild whose messages existed before its index (every guild with
-- messages when this migration runs, or one an operator reindexes) gets a guild_search_index row:
-- its messages with backfill_after < id <= backfill_through are not indexed yet, and a background
-- job indexes them in batches, moving backfill_after up, until backfill_after = backfill_through
-- and completed_at is set. Until then search answers 202 with code 110000. A guild without a row
-- has every message indexed. The triggers leave the not-yet-indexed range alone: an FTS5 'delete'
-- must name exactly what was indexed, and the backfill reads the current text when it gets there.

-- Search without a content query walks a guild's messages newest first.
CREATE INDEX messages_guild_search ON messages (guild_id, id) WHERE guild_id IS NOT NULL;

CREATE TABLE guild_search_index (
  guild_id INTEGER PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
  backfill_after INTEGER NOT NULL DEFAULT 0,
  backfill_through INTEGER NOT NULL,
  -- Messages indexed by the backfill so far (the 202 body's documents_indexed).
  documents_indexed INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL,
  completed_at INTEGER
);

INSERT INTO guild_search_index (guild_id, backfill_after, backfill_through, started_at)
SELECT guild_id, 0, MAX(id), CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM messages
WHERE guild_id IN (SELECT id FROM guilds)
GROUP BY guild_id;

-- unicode61 folds case and (remove_diacritics 2) accents; letters and digits make tokens.
CREATE VIRTUAL TABLE message_search USING fts5(
  content,
  content = 'messages',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER message_search_insert AFTER INSERT ON messages
WHEN new.guild_id IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM guild_search_index g
  WHERE g.guild_id = new.guild_id AND new.id > g.backfill_after AND new.id <= g.backfill_through
)
BEGIN
  INSERT INTO message_search (rowid, content) VALUES (new.id, new.content);
END;

CREATE TRIGGER message_search_delete AFTER DELETE ON messages
WHEN old.guild_id IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM guild_search_index g
  WHERE g.guild_id = old.guild_id AND old.id > g.backfill_after AND old.id <= g.backfill_through
)
BEGIN
  INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.id, old.content);
END;

CREATE TRIGGER message_search_update AFTER UPDATE OF content ON messages
WHEN old.guild_id IS NOT NULL AND old.content IS NOT new.content AND NOT EXISTS (
  SELECT 1 FROM guild_search_index g
  WHERE g.guild_id = old.guild_id AND old.id > g.backfill_after AND old.id <= g.backfill_through
)
BEGIN
  INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.id, old.content);
  INSERT INTO message_search (rowid, content) VALUES (new.id, new.content);
END;
