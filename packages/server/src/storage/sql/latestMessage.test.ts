/**
 * A channel's newest message id is read on every message post (the access context) and every
 * channel read. On PostgreSQL it must come from the end of the channel's range of an index,
 * whatever the planner's statistics say: before messages_channel_latest (migration 0042), a
 * channel that grew before autovacuum had analyzed the table had all its messages read for it.
 * The test counts the message rows the query reads (EXPLAIN ANALYZE), before and after ANALYZE.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postgresAvailable,
  TEST_DATABASE_URL,
  uniqueSchema,
  dropSchema,
} from '../../../test/support/postgres.js';
import { createPostgresStorage } from '../postgres/index.js';
import type { Storage } from '../types/storage.js';
import { selectChannelsWithLatest } from './channels.js';
import type { Database } from './schema.js';

const MESSAGES = 20_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The message rows the scans of `messages` in the plan read: those handed up and those filtered. */
function messageRowsRead(node: PlanNode): number {
  const read = node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0);
  const own = node['Relation Name'] === 'messages' ? read * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + messageRowsRead(child), 0);
}

describe.skipIf(!postgresAvailable)('the newest message of a channel on PostgreSQL', () => {
  const schema = uniqueSchema('latest');
  let storage: Storage;
  let client: pg.Client;
  let db: Kysely<Database>;
  const channelId = '900000000000000001';

  beforeAll(async () => {
    storage = await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema });
    const options = `-c search_path=${schema}`;
    client = new pg.Client({ connectionString: TEST_DATABASE_URL, options });
    await client.connect();
    db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: TEST_DATABASE_URL, options, max: 1 }),
      }),
    });
    await client.query(`INSERT INTO users (id, username, created_at) VALUES (1, 'ann', 0)`);
    await client.query(`INSERT INTO guilds (id, name, owner_id, created_at) VALUES (2, 'g', 1, 0)`);
    // Fifteen channels of seven messages each; then one channel grows, before autovacuum has
    // analyzed the table (a new deployment): the planner guesses a few rows per channel.
    await client.query(
      `INSERT INTO channels (id, guild_id, type, name, position, created_at)
       SELECT $1::bigint + c, 2, 0, 'general', 0, 0 FROM generate_series(0, 14) AS c`,
      [channelId],
    );
    await client.query(
      `INSERT INTO messages (id, channel_id, guild_id, author_id, created_at)
       SELECT 100 + c * 7 + m, $1::bigint + c, 2, 1, 0
       FROM generate_series(0, 14) AS c, generate_series(0, 6) AS m`,
      [channelId],
    );
    await client.query(
      `INSERT INTO messages (id, channel_id, guild_id, author_id, created_at)
       SELECT 1000 + n, $1, 2, 1, 0 FROM generate_series(1, $2::int) AS n`,
      [channelId, MESSAGES],
    );
    // The newest is ephemeral: the walk goes past it.
    await client.query(`UPDATE messages SET ephemeral_user_id = 1 WHERE id = $1`, [
      1000 + MESSAGES,
    ]);
  });
  afterAll(async () => {
    await db.destroy();
    await client.end();
    await storage.close();
    await dropSchema(schema);
  });

  async function explain(): Promise<{ latest: unknown; rowsRead: number }> {
    const query = selectChannelsWithLatest(db).where('channels.id', '=', channelId).compile();
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`,
      [...query.parameters],
    );
    const plan = rows[0]?.['QUERY PLAN'][0].Plan;
    if (plan === undefined) throw new Error('no plan');
    const found = await client.query<{ latest_message_id: unknown }>(query.sql, [
      ...query.parameters,
    ]);
    return { latest: found.rows[0]?.latest_message_id, rowsRead: messageRowsRead(plan) };
  }

  it('reads two messages, not the channel, before and after ANALYZE', async () => {
    const stale = await explain();
    expect(stale.latest).toBe(String(1000 + MESSAGES - 1));
    expect(stale.rowsRead).toBeLessThanOrEqual(2);
    await client.query('ANALYZE messages');
    const fresh = await explain();
    expect(fresh.latest).toBe(String(1000 + MESSAGES - 1));
    expect(fresh.rowsRead).toBeLessThanOrEqual(2);
  });
});
