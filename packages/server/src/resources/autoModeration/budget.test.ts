import { AuditLogActions } from '@guildhall/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { autoModGuild, type AutoModGuild } from '../../../test/support/autoModFixture.js';
import type { GuildFixture } from '../../../test/support/guildMembers.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';
import { QUARANTINED_FLAG } from './index.js';

describeDrivers('auto-moderation CPU budget on $driver', (driver) => {
  let server: TestServer;
  let mod: AutoModGuild;
  let g: GuildFixture;
  let general: string;
  let alerts: string;
  /** How far the stopwatch moves at each reading: 0 stops time; 100 spends the 50 ms at once. */
  let tick = 0;
  let elapsedMs = 0;

  beforeAll(async () => {
    server = await startTestServer({
      storage: driver,
      autoModeration: {
        stopwatch: () => {
          elapsedMs += tick;
          return elapsedMs;
        },
      },
    });
    mod = await autoModGuild(server);
    ({ g, general, alerts } = mod);
  });
  afterAll(async () => {
    await server.close();
  });

  it('a rule left unchecked when the budget runs out fails closed, its alert says so', async () => {
    const rules = [
      await mod.createRule({
        name: 'No dogs',
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { regex_patterns: ['d[o0]g'] },
        actions: [
          { type: 1 },
          { type: 2, metadata: { channel_id: alerts } },
          { type: 3, metadata: { duration_seconds: 600 } },
        ],
      }),
      await mod.createRule({
        name: 'Watch birds',
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: ['bird*'] },
        actions: [{ type: 2, metadata: { channel_id: alerts } }],
      }),
      // Counting mentions costs next to nothing: it is not held to the budget.
      await mod.createRule({
        name: 'Mentions',
        event_type: 1,
        trigger_type: 5,
        trigger_metadata: { mention_total_limit: 5 },
        actions: [{ type: 2, metadata: { channel_id: alerts } }],
      }),
    ];
    const hal = await g.join('hal');
    const post = (content: string) =>
      g.call('POST', `/channels/${general}/messages`, { auth: hal.token, payload: { content } });

    tick = 0;
    expect((await post('a fine message')).statusCode).toBe(200);
    expect(await mod.alertMessages()).toEqual([]);

    // Every reading of the stopwatch 100 ms on: the budget is spent before the first rule.
    tick = 100;
    const blocked = await post('a fine message');
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json()).toMatchObject({ code: 200000 });
    expect(await server.app.storage.messages.list(general, { limit: 10 })).toHaveLength(1);
    // Each keyword rule acts as if it matched, its alert saying the check timed out; the
    // mention rule ran as usual (and did not match).
    const posted = await mod.alertMessages();
    expect(posted).toHaveLength(2);
    for (const alert of posted) {
      const embeds = JSON.stringify(alert.embeds);
      expect(embeds).toContain('"check_timed_out","value":"true"');
      expect(embeds).not.toContain('"keyword"');
    }
    expect(
      posted.map((m) => /"rule_name","value":"([^"]+)"/.exec(JSON.stringify(m.embeds))?.[1]),
    ).toEqual(expect.arrayContaining(['No dogs', 'Watch birds']));
    expect(await mod.audit(AuditLogActions.AUTO_MODERATION_BLOCK_MESSAGE)).toHaveLength(1);
    // Nothing says the member wrote anything wrong: no timeout.
    expect(await mod.audit(AuditLogActions.AUTO_MODERATION_USER_COMMUNICATION_DISABLED)).toEqual(
      [],
    );
    const member = await server.app.storage.members.find(g.guildId, hal.userId);
    expect(member?.communicationDisabledUntil ?? null).toBeNull();

    tick = 0;
    expect((await post('a fine message again')).statusCode).toBe(200);
    expect((await post('my d0g')).json()).toMatchObject({ code: 200000 });
    for (const id of rules) await mod.dropRule(id);
  });

  it('a profile rule left unchecked quarantines until a check completes', async () => {
    const ruleId = await mod.createRule({
      name: 'Names',
      event_type: 2,
      trigger_type: 6,
      trigger_metadata: { keyword_filter: ['*admin*'] },
      actions: [{ type: 4 }],
    });
    const ida = await g.join('ida');
    const nick = (value: string) =>
      g.call('PATCH', `/guilds/${g.guildId}/members/@me`, {
        auth: ida.token,
        payload: { nick: value },
      });
    tick = 100;
    const unchecked = await nick('ida');
    expect(unchecked.statusCode).toBe(200);
    expect(unchecked.json<{ flags: number }>().flags & QUARANTINED_FLAG).toBe(QUARANTINED_FLAG);
    tick = 0;
    const checked = await nick('ida b');
    expect(checked.json<{ flags: number }>().flags & QUARANTINED_FLAG).toBe(0);
    await mod.dropRule(ruleId);
  });
});
