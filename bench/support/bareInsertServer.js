/**
 * Child process of bench/http.js: a bare Fastify 5 server whose POST
 * /api/v10/channels/{id}/messages inserts the message row Guildhall would insert (same columns
 * and values), one durable commit per request, and answers with Guildhall's body for the same
 * request. The database is made by Guildhall's own migrations, so the table, its indexes and its
 * triggers are the same.
 *
 * - `sqlite <file> <setup>`: better-sqlite3, opened as Guildhall opens it (WAL,
 *   synchronous=FULL, foreign keys on), one prepared statement;
 * - `postgres <url> <schema> <setup>`: pg with a pool of 10 connections (Guildhall's default),
 *   one parameterized autocommit INSERT per request, in a schema of its own dropped on exit.
 *
 * `setup` is a JSON object {guildId, channelId, authorId, body}. Talks to the parent through
 * childIpc.js.
 */
import console from 'node:console';
import process from 'node:process';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
// eslint-disable-next-line no-restricted-imports -- a benchmark picks its driver, as app.ts does
import { createPostgresStorage } from '../../packages/server/dist/storage/postgres/index.js';
// eslint-disable-next-line no-restricted-imports -- a benchmark picks its driver, as app.ts does
import { createSqliteStorage } from '../../packages/server/dist/storage/sqlite/index.js';
import { serveParent } from './childIpc.js';

/** The pool size of the PostgreSQL route: Guildhall's default `maxConnections`. */
const POSTGRES_POOL_SIZE = 10;

const args = process.argv.slice(2);
const [dialect] = args;
const rawSetup = args.at(-1);
const valid =
  (dialect === 'sqlite' && args.length === 3) || (dialect === 'postgres' && args.length === 4);
if (!valid || rawSetup === undefined || process.send === undefined) {
  console.error(
    'bareInsertServer.js is started by bench/http.js ("sqlite <file> <setup>" or ' +
      '"postgres <url> <schema> <setup>", and IPC)',
  );
  process.exit(2);
}
const { guildId, channelId, authorId, body } = JSON.parse(rawSetup);
const [, location, schema] = args;

// Migrate with Guildhall's schema, and add the user, guild and channel the rows refer to.
const storage =
  dialect === 'sqlite'
    ? createSqliteStorage({ filename: location })
    : await createPostgresStorage({ connectionString: location, schema, maxConnections: 1 });
const now = Date.now();
await storage.users.create({ id: authorId, username: 'bench-bot', bot: true, createdAt: now });
await storage.guilds.create({
  id: guildId,
  name: 'Bench guild',
  icon: null,
  description: null,
  ownerId: authorId,
  features: [],
  preferredLocale: 'en-US',
  createdAt: now,
});
await storage.channels.create({
  id: channelId,
  guildId,
  type: 0,
  name: 'general',
  position: 0,
  parentId: null,
  topic: null,
  nsfw: false,
  rateLimitPerUser: 0,
  bitrate: null,
  userLimit: null,
  flags: 0,
  lastMessageId: null,
  createdAt: now,
});
await storage.close();

const COLUMNS = `(id, channel_id, guild_id, author_id, type, content, embeds, flags, tts,
     mention_everyone, mention_user_ids, mention_role_ids, reference_type, reference_channel_id,
     reference_message_id, reference_guild_id, snapshots, nonce, application_id, webhook_id,
     created_at)`;

/** The database side: `insert(values)` commits one row durably; `close()` lets go. */
function openSqlite() {
  const db = new Database(location);
  db.defaultSafeIntegers(true);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const statement = db.prepare(
    `INSERT INTO messages ${COLUMNS}
     VALUES (?, ?, ?, ?, 0, ?, '[]', 0, 0, 0, '[]', '[]', NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, ?)`,
  );
  return {
    insert: (values) => statement.run(...values),
    close: async () => db.close(),
  };
}

function openPostgres() {
  const pool = new pg.Pool({
    connectionString: location,
    max: POSTGRES_POOL_SIZE,
    options: `-c search_path="${schema}"`,
  });
  const text = `INSERT INTO messages ${COLUMNS}
     VALUES ($1, $2, $3, $4, 0, $5, '[]', 0, 0, 0, '[]', '[]', NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, $6)`;
  return {
    insert: (values) => pool.query(text, values.map(String)),
    async close() {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

const database = dialect === 'sqlite' ? openSqlite() : openPostgres();

// Snowflake-shaped ids (milliseconds since the platform epoch, then a sequence), always rising.
const EPOCH = 1420070400000n;
let lastId = 0n;
const nextId = (ms) => {
  const candidate = (BigInt(ms) - EPOCH) << 22n;
  lastId = candidate > lastId ? candidate : lastId + 1n;
  return lastId;
};

const app = Fastify({ logger: false });
app.post('/api/v10/channels/:channel_id/messages', async (request) => {
  const ms = Date.now();
  const id = nextId(ms);
  const content = String(request.body?.content ?? '');
  await database.insert([id, request.params.channel_id, guildId, authorId, content, ms]);
  return { ...body, id: id.toString(), content, timestamp: new Date(ms).toISOString() };
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
serveParent({ apiUrl: `${address}/api/v10`, channelId }, async () => {
  await app.close();
  await database.close();
});
