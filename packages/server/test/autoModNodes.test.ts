/**
 * Auto-moderation rules are held in memory by each node (resources/autoModeration/ruleCache.ts)
 * and a message create reads no storage for them. Across two nodes sharing PostgreSQL and a bus,
 * a rule created, modified or deleted through node A is in force on node B by the time A has
 * answered, though B held the guild's earlier rules (the revocations carry the guild).
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../src/bus/memory/index.js';
import { autoModGuild, type AutoModGuild } from './support/autoModFixture.js';
import type { Person } from './support/guildMembers.js';
import { apiRequest } from './support/inject.js';
import { dropSchema, postgresAvailable, uniqueSchema } from './support/postgres.js';
import { startTestServer, type TestServer } from './support/testServer.js';

/** The platform's code for a message a rule blocked. */
const BLOCKED = 200_000;

describe.skipIf(!postgresAvailable)('auto-moderation rules across nodes', () => {
  const schema = uniqueSchema('automod');
  const servers: TestServer[] = [];
  let a: TestServer;
  let b: TestServer;
  let mod: AutoModGuild;
  let member: Person;

  beforeAll(async () => {
    const bus = new MemoryBus();
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startTestServer({
          storage: 'postgres',
          database: schema,
          bus,
          processId: i,
        }),
      );
    }
    [a, b] = servers as [TestServer, TestServer];
    mod = await autoModGuild(a);
    member = await mod.g.join('poster');
  });
  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
    await dropSchema(schema);
  });

  /** Posts `content` in the general channel through node B, as a member rules apply to. */
  const postOnB = async (content: string) => {
    const res = await apiRequest(b.app, `POST /channels/${mod.general}/messages`, {
      auth: member.token,
      payload: { content },
    });
    return { status: res.statusCode, code: res.json<{ code?: number }>().code };
  };

  const rule = {
    name: 'No cats',
    event_type: 1,
    trigger_type: 1,
    trigger_metadata: { keyword_filter: ['cat'] },
    actions: [{ type: 1 }],
  };

  it('enforces on node B a rule created, changed and deleted through node A at once', async () => {
    // B reads the guild's rules (none) and holds them.
    expect(await postOnB('a cat')).toMatchObject({ status: 200 });
    expect(await postOnB('another cat')).toMatchObject({ status: 200 });

    const id = await mod.createRule(rule);
    expect(await postOnB('a cat again')).toEqual({ status: 400, code: BLOCKED });
    expect(await postOnB('a dog')).toMatchObject({ status: 200 });

    const disabled = await mod.g.call('PATCH', `${mod.rulesUrl}/${id}`, {
      auth: mod.g.bot.token,
      payload: { enabled: false },
    });
    expect(disabled.statusCode).toBe(200);
    expect(await postOnB('a cat, allowed')).toMatchObject({ status: 200 });

    const enabled = await mod.g.call('PATCH', `${mod.rulesUrl}/${id}`, {
      auth: mod.g.bot.token,
      payload: { enabled: true, trigger_metadata: { keyword_filter: ['dog'] } },
    });
    expect(enabled.statusCode).toBe(200);
    expect(await postOnB('a dog')).toEqual({ status: 400, code: BLOCKED });
    expect(await postOnB('a cat')).toMatchObject({ status: 200 });

    expect((await mod.dropRule(id)).statusCode).toBe(204);
    expect(await postOnB('a dog after all')).toMatchObject({ status: 200 });
  });
});
