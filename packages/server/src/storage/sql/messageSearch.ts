/**
 * @module Guild message search over the database's own full-text index (migration
 * 0011_message_search): FTS5 on SQLite, a tsvector with a GIN index on PostgreSQL. Every value
 * reaches the database as a bound parameter; content words are quoted (SQLite) or parsed as plain
 * text (PostgreSQL), so no search operator a caller types is ever interpreted.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type {
  MessageSearchQuery,
  MessageSearchRepository,
  SearchAuthorType,
  SearchHasKind,
} from '../types/search.js';
import type { StorageDialect } from '../types/storage.js';
import { id, int } from './rows.js';
import type { Database } from './schema.js';

type Condition = RawBuilder<unknown>;

const TRUE: Condition = sql`1 = 1`;
const FALSE: Condition = sql`1 = 0`;

interface IndexRow {
  backfill_after: string | bigint;
  backfill_through: string | bigint;
  documents_indexed: number | bigint | string;
}

/** `%`, `_` and the escape character itself, escaped for `LIKE … ESCAPE '\'`. */
function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const list = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`));
const and = (conditions: readonly Condition[]) =>
  conditions.length === 0 ? TRUE : sql`(${sql.join(conditions, sql` AND `)})`;
const or = (conditions: readonly Condition[]) =>
  conditions.length === 0 ? FALSE : sql`(${sql.join(conditions, sql` OR `)})`;

/** The few places the two SQL dialects differ. */
interface Dialect {
  /** `expr` matches a LIKE pattern without regard to (ASCII) case. */
  ilike(expr: Condition, pattern: string): Condition;
  /** A JSON array of strings in `column` holds any of `values`. */
  jsonArrayHasAny(column: Condition, values: readonly string[]): Condition;
  /** An embed in m.embeds whose `path` (type, or provider name) is one of `values`. */
  embedFieldIn(path: 'type' | 'provider', values: readonly string[]): Condition;
  /** FROM clause, content condition and relevance score for a content search. */
  fullText(terms: readonly string[]): { from: Condition; match: Condition; score: Condition };
}

const sqliteDialect: Dialect = {
  // SQLite's LIKE ignores ASCII case already.
  ilike: (expr, pattern) => sql`${expr} LIKE ${pattern} ESCAPE '\\'`,
  jsonArrayHasAny: (column, values) =>
    sql`EXISTS (SELECT 1 FROM json_each(${column}) j WHERE j.value IN (${list(values)}))`,
  embedFieldIn: (path, values) => {
    const jsonPath = path === 'type' ? '$.type' : '$.provider.name';
    return sql`EXISTS (SELECT 1 FROM json_each(m.embeds) e WHERE json_extract(e.value, ${jsonPath}) IN (${list(values)}))`;
  },
  fullText(terms) {
    // Each word a quoted FTS5 string ("" escapes a quote), so `*`, `-`, NEAR, AND, OR and
    // column filters in the caller's text are plain words. Juxtaposed strings must all match.
    const match = terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' ');
    return {
      from: sql`message_search JOIN messages m ON m.id = message_search.rowid`,
      match: sql`message_search MATCH ${match}`,
      // bm25 is lower for better matches: negate it so higher is better on both drivers.
      score: sql`-bm25(message_search)`,
    };
  },
};

const postgresDialect: Dialect = {
  ilike: (expr, pattern) => sql`${expr} ILIKE ${pattern} ESCAPE '\\'`,
  jsonArrayHasAny: (column, values) =>
    sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${column}::jsonb) j WHERE j IN (${list(values)}))`,
  embedFieldIn: (path, values) => {
    const field = path === 'type' ? sql`e ->> 'type'` : sql`e -> 'provider' ->> 'name'`;
    return sql`EXISTS (SELECT 1 FROM jsonb_array_elements(m.embeds::jsonb) e WHERE ${field} IN (${list(values)}))`;
  },
  fullText(terms) {
    // plainto_tsquery reads its text as plain words joined by AND, never as tsquery syntax.
    const query = sql`plainto_tsquery('simple'::regconfig, ${terms.join(' ')})`;
    return {
      from: sql`messages m JOIN message_search s ON s.message_id = m.id`,
      match: sql`s.document @@ ${query}`,
      score: sql`ts_rank(s.document, ${query})`,
    };
  },
};

const isBotAuthor = sql`(m.webhook_id IS NULL AND EXISTS (SELECT 1 FROM users u WHERE u.id = m.author_id AND u.bot = 1))`;
const AUTHOR_TYPE: Record<SearchAuthorType, Condition> = {
  webhook: sql`m.webhook_id IS NOT NULL`,
  bot: isBotAuthor,
  user: sql`(m.webhook_id IS NULL AND NOT ${isBotAuthor})`,
};

const attachmentWhere = (condition: Condition) =>
  sql`EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = m.id AND ${condition})`;

/** Characters that may follow a host name in a link; '' is the end of the text. */
const HOST_ENDINGS = ['', '/', ':', '?', '#', ' ', '\n', ')', '>'];

function hasCondition(dialect: Dialect, kind: SearchHasKind): Condition {
  const contentType = (prefix: string) =>
    attachmentWhere(dialect.ilike(sql`a.content_type`, prefix));
  switch (kind) {
    case 'file':
      return attachmentWhere(TRUE);
    case 'image':
      return or([contentType('image/%'), dialect.embedFieldIn('type', ['image', 'gifv'])]);
    case 'video':
      return or([contentType('video/%'), dialect.embedFieldIn('type', ['video', 'gifv'])]);
    case 'sound':
      return contentType('audio/%');
    case 'embed':
      return sql`m.embeds <> '[]'`;
    case 'link':
      return or([
        dialect.ilike(sql`m.content`, '%http://%'),
        dialect.ilike(sql`m.content`, '%https://%'),
      ]);
    case 'snapshot':
      return sql`(m.snapshots IS NOT NULL AND m.snapshots <> '[]')`;
    case 'sticker':
    case 'poll':
      // Messages carry neither stickers nor polls here: no message has one.
      return FALSE;
  }
}

function conditions(dialect: Dialect, q: MessageSearchQuery): Condition[] {
  const where: Condition[] = [
    sql`m.guild_id = ${q.guildId}`,
    sql`m.channel_id IN (${list(q.channelIds)})`,
    // An ephemeral message is seen only by its user, never found by a search.
    sql`m.ephemeral_user_id IS NULL`,
  ];
  const some = <T>(values: readonly T[] | undefined): values is readonly T[] =>
    values !== undefined && values.length > 0;
  if (q.minId !== undefined) where.push(sql`m.id > ${q.minId}`);
  if (q.maxId !== undefined) where.push(sql`m.id < ${q.maxId}`);
  if (some(q.authorIds)) where.push(sql`m.author_id IN (${list(q.authorIds)})`);
  if (q.authorTypes !== undefined) {
    const { include, exclude } = q.authorTypes;
    if (include.length > 0) where.push(or(include.map((type) => AUTHOR_TYPE[type])));
    for (const type of exclude) where.push(sql`NOT ${AUTHOR_TYPE[type]}`);
  }
  if (some(q.mentions)) where.push(dialect.jsonArrayHasAny(sql`m.mention_user_ids`, q.mentions));
  if (some(q.mentionRoleIds)) {
    where.push(dialect.jsonArrayHasAny(sql`m.mention_role_ids`, q.mentionRoleIds));
  }
  if (q.mentionEveryone !== undefined) {
    where.push(sql`m.mention_everyone = ${q.mentionEveryone ? 1 : 0}`);
  }
  // Replies are type 19 with a default (type 0) reference.
  const reply = sql`m.type = 19 AND m.reference_type = 0`;
  if (some(q.repliedToMessageIds)) {
    where.push(sql`(${reply} AND m.reference_message_id IN (${list(q.repliedToMessageIds)}))`);
  }
  if (some(q.repliedToUserIds)) {
    where.push(
      sql`(${reply} AND EXISTS (SELECT 1 FROM messages r WHERE r.id = m.reference_message_id AND r.author_id IN (${list(q.repliedToUserIds)})))`,
    );
  }
  if (q.pinned !== undefined) {
    where.push(q.pinned ? sql`m.pinned_at IS NOT NULL` : sql`m.pinned_at IS NULL`);
  }
  for (const kind of q.has?.include ?? []) where.push(hasCondition(dialect, kind));
  for (const kind of q.has?.exclude ?? []) where.push(sql`NOT ${hasCondition(dialect, kind)}`);
  if (some(q.embedTypes)) where.push(dialect.embedFieldIn('type', q.embedTypes));
  if (some(q.embedProviders)) where.push(dialect.embedFieldIn('provider', q.embedProviders));
  if (some(q.linkHostnames)) {
    where.push(
      or(
        q.linkHostnames.flatMap((host) =>
          HOST_ENDINGS.map((end) =>
            dialect.ilike(sql`m.content`, `%://${likeEscape(host)}${end === '' ? '' : `${end}%`}`),
          ),
        ),
      ),
    );
  }
  if (some(q.attachmentFilenames)) {
    where.push(
      attachmentWhere(
        or(q.attachmentFilenames.map((name) => dialect.ilike(sql`a.filename`, likeEscape(name)))),
      ),
    );
  }
  if (some(q.attachmentExtensions)) {
    where.push(
      attachmentWhere(
        or(
          q.attachmentExtensions.map((ext) =>
            dialect.ilike(sql`a.filename`, `%.${likeEscape(ext)}`),
          ),
        ),
      ),
    );
  }
  return where;
}

export function createMessageSearchRepository(
  db: Kysely<Database>,
  context: { dialect: StorageDialect; inTransaction: boolean },
): MessageSearchRepository {
  const dialect = context.dialect === 'postgres' ? postgresDialect : sqliteDialect;
  const postgres = context.dialect === 'postgres';
  /** Runs `fn` in a transaction: the caller's, or a new one. */
  const inTransaction = <T>(fn: (tx: Kysely<Database>) => Promise<T>): Promise<T> =>
    context.inTransaction ? fn(db) : db.transaction().execute(fn);

  const indexRow = async (tx: Kysely<Database>, guildId: string, lock: boolean) => {
    const { rows } =
      await sql<IndexRow>`SELECT backfill_after, backfill_through, documents_indexed FROM guild_search_index WHERE guild_id = ${guildId}${lock && postgres ? sql` FOR UPDATE` : sql``}`.execute(
        tx,
      );
    return rows[0] ?? null;
  };

  return {
    async status(guildId) {
      const row = await indexRow(db, guildId, false);
      if (row === null) return { ready: true, documentsIndexed: 0 };
      return {
        ready: BigInt(row.backfill_after) >= BigInt(row.backfill_through),
        documentsIndexed: int(row.documents_indexed),
      };
    },

    async pendingGuildIds() {
      const { rows } = await sql<{
        guild_id: string | bigint;
      }>`SELECT guild_id FROM guild_search_index WHERE backfill_after < backfill_through ORDER BY started_at`.execute(
        db,
      );
      return rows.map((row) => id(row.guild_id));
    },

    backfill(guildId, { batchSize, nowMs }) {
      return inTransaction(async (tx) => {
        const row = await indexRow(tx, guildId, true);
        if (row === null) return { indexed: 0, done: true };
        const after = id(row.backfill_after);
        const through = id(row.backfill_through);
        if (BigInt(after) >= BigInt(through)) return { indexed: 0, done: true };
        const { rows: batch } = await sql<{
          id: string | bigint;
        }>`SELECT id FROM messages WHERE guild_id = ${guildId} AND id > ${after} AND id <= ${through} ORDER BY id LIMIT ${batchSize}`.execute(
          tx,
        );
        const last = batch.at(-1);
        // A short batch is the last one: whatever lies beyond it in the range was deleted.
        const upTo = last === undefined || batch.length < batchSize ? through : id(last.id);
        if (batch.length > 0) {
          const range = sql`guild_id = ${guildId} AND id > ${after} AND id <= ${upTo}`;
          await (
            postgres
              ? sql`INSERT INTO message_search (message_id, document) SELECT id, message_search_document(content) FROM messages WHERE ${range} ON CONFLICT (message_id) DO NOTHING`
              : sql`INSERT INTO message_search (rowid, content) SELECT id, content FROM messages WHERE ${range}`
          ).execute(tx);
        }
        const done = upTo === through;
        await sql`UPDATE guild_search_index SET backfill_after = ${upTo}, documents_indexed = documents_indexed + ${batch.length}, completed_at = ${done ? nowMs : null} WHERE guild_id = ${guildId}`.execute(
          tx,
        );
        return { indexed: batch.length, done };
      });
    },

    reindex(guildId, nowMs) {
      return inTransaction(async (tx) => {
        const row = await indexRow(tx, guildId, true);
        if (postgres) {
          await sql`DELETE FROM message_search WHERE message_id IN (SELECT id FROM messages WHERE guild_id = ${guildId})`.execute(
            tx,
          );
        } else {
          // An FTS5 'delete' must name exactly what was indexed: skip the range not indexed yet.
          const pending =
            row === null
              ? FALSE
              : sql`(id > ${id(row.backfill_after)} AND id <= ${id(row.backfill_through)})`;
          await sql`INSERT INTO message_search (message_search, rowid, content) SELECT 'delete', id, content FROM messages WHERE guild_id = ${guildId} AND NOT ${pending}`.execute(
            tx,
          );
        }
        const { rows } = await sql<{
          through: string | bigint | null;
        }>`SELECT MAX(id) AS through FROM messages WHERE guild_id = ${guildId}`.execute(tx);
        const through = id(rows[0]?.through ?? '0');
        const completedAt = through === '0' ? nowMs : null;
        await sql`INSERT INTO guild_search_index (guild_id, backfill_after, backfill_through, documents_indexed, started_at, completed_at) VALUES (${guildId}, 0, ${through}, 0, ${nowMs}, ${completedAt}) ON CONFLICT (guild_id) DO UPDATE SET backfill_after = 0, backfill_through = excluded.backfill_through, documents_indexed = 0, started_at = excluded.started_at, completed_at = excluded.completed_at`.execute(
          tx,
        );
      });
    },

    async search(q) {
      const where = conditions(dialect, q);
      const text = q.terms === null ? null : dialect.fullText(q.terms);
      const from = text?.from ?? sql`messages m`;
      if (text !== null) where.push(text.match);
      const filter = and(where);
      const direction = q.sortOrder === 'asc' ? sql`ASC` : sql`DESC`;
      const order =
        q.sortBy === 'relevance' && text !== null
          ? sql`${text.score} ${direction}, m.id DESC`
          : sql`m.id ${direction}`;
      const [page, count] = await Promise.all([
        sql<{
          id: string | bigint;
        }>`SELECT m.id AS id FROM ${from} WHERE ${filter} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(
          db,
        ),
        sql<{
          total: number | bigint | string;
        }>`SELECT COUNT(*) AS total FROM ${from} WHERE ${filter}`.execute(db),
      ]);
      return {
        messageIds: page.rows.map((row) => id(row.id)),
        total: int(count.rows[0]?.total ?? 0),
      };
    },
  };
}
