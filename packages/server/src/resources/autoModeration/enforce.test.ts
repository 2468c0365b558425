import { AuditLogActions } from '@guildhall/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { autoModGuild, type AutoModGuild } from '../../../test/support/autoModFixture.js';
import type { GuildFixture, Person } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';
import { QUARANTINED_FLAG } from './index.js';

describeDrivers('auto-moderation enforcement on $driver', (driver) => {
  let server: TestServer;
  let mod: AutoModGuild;
  let g: GuildFixture;
  let general: string;
  let alerts: string;

  beforeAll(async () => {
    // An ample budget: a garbage collection in the middle of a check (this process runs other
    // files' servers too) must not fail a rule closed. A backtracking engine would still spend it.
    server = await startTestServer({ storage: driver, config: { autoModerationBudgetMs: 5000 } });
    mod = await autoModGuild(server);
    ({ g, general, alerts } = mod);
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (person: Person, content: string, channelId = general) =>
    g.call('POST', `/channels/${channelId}/messages`, { auth: person.token, payload: { content } });

  it('blocks a keyword with 200000, alerts and times out; allow list, exemptions pass', async () => {
    const ruleId = await mod.createRule({
      name: 'No cats',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['cat*', 'bad word'], allow_list: ['category'] },
      actions: [
        { type: 1 },
        { type: 2, metadata: { channel_id: alerts } },
        { type: 3, metadata: { duration_seconds: 600 } },
      ],
    });
    const ann = await g.join('ann');
    const blocked = await post(ann, 'my Catnip is here');
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json()).toMatchObject({ code: 200000 });
    expectOpenApiResponse(blocked, 'POST', `/channels/${general}/messages`);
    expect(await server.app.storage.messages.list(general, { limit: 10 })).toEqual([]);
    // The alert: a type 24 message by the member, naming the rule and what matched.
    const [alert] = await mod.alertMessages();
    expect(alert).toMatchObject({ type: 24, authorId: ann.userId });
    expect(JSON.stringify(alert?.embeds)).toContain('"keyword_matched_content","value":"Catnip"');
    expect(JSON.stringify(alert?.embeds)).toContain('"rule_name","value":"No cats"');
    const member = await server.app.storage.members.find(g.guildId, ann.userId);
    expect(member?.communicationDisabledUntil).toBeGreaterThan(Date.now());
    for (const action of [
      AuditLogActions.AUTO_MODERATION_BLOCK_MESSAGE,
      AuditLogActions.AUTO_MODERATION_FLAG_TO_CHANNEL,
      AuditLogActions.AUTO_MODERATION_USER_COMMUNICATION_DISABLED,
    ]) {
      const [entry] = await mod.audit(action);
      expect(entry).toMatchObject({
        userId: ann.userId,
        options: { auto_moderation_rule_name: 'No cats', auto_moderation_rule_trigger_type: '1' },
      });
    }
    // Timed out now: the platform's 50013 before any rule runs.
    expect((await post(ann, 'hello')).json()).toMatchObject({ code: 50013 });

    const bob = await g.join('bob');
    for (const fine of ['a category of things', 'concat is no prefix', 'bad words', 'scat']) {
      const res = await post(bob, fine);
      expect(res.statusCode, fine).toBe(200);
    }
    expect((await post(bob, 'this is a BAD WORD.')).json()).toMatchObject({ code: 200000 });
    // The owner, and members with MANAGE_GUILD, are never checked.
    expect((await post(g.owner, 'cats')).statusCode).toBe(200);
    // Exempt channels (and their categories) and exempt roles pass.
    const role = (
      await g.call('POST', `/guilds/${g.guildId}/roles`, {
        auth: g.owner.token,
        payload: { name: 'trusted' },
      })
    ).json<{ id: string }>();
    const cat = await g.join('cat-lover', { roleIds: [role.id] });
    await g.call('PATCH', `${mod.rulesUrl}/${ruleId}`, {
      auth: g.bot.token,
      payload: { exempt_roles: [role.id], exempt_channels: [alerts] },
    });
    expect((await post(cat, 'cats!')).statusCode).toBe(200);
    const carl = await g.join('carl');
    expect((await post(carl, 'cats!', alerts)).statusCode).toBe(200);
    expect((await post(carl, 'cats!')).json()).toMatchObject({ code: 200000 });
    // The block timed carl out too; a disabled rule checks nothing.
    const dan = await g.join('dan');
    await g.call('PATCH', `${mod.rulesUrl}/${ruleId}`, {
      auth: g.bot.token,
      payload: { enabled: false },
    });
    expect((await post(dan, 'cats!')).statusCode).toBe(200);
    await mod.dropRule(ruleId);
  });

  it('alerts without blocking: the message is written and the alert names it', async () => {
    const ruleId = await mod.createRule({
      name: 'Watch regex',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { regex_patterns: ['d[o0]gs?\\b'], allow_list: ['dogs'] },
      actions: [{ type: 2, metadata: { channel_id: alerts } }],
    });
    const dee = await g.join('dee');
    const before = (await mod.alertMessages()).length;
    expect((await post(dee, 'I have dogs')).statusCode).toBe(200);
    expect(await mod.alertMessages()).toHaveLength(before);
    const res = await post(dee, 'my d0g barks');
    expect(res.statusCode).toBe(200);
    const after = await mod.alertMessages();
    expect(after).toHaveLength(before + 1);
    expect(JSON.stringify(after[0]?.embeds)).toContain('"keyword","value":"d[o0]gs?\\\\b"');
    // Edits are checked too: an edit into a blocked word is refused, the message unchanged.
    const blocking = await mod.createRule({
      name: 'No birds',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['bird'] },
      actions: [{ type: 1 }],
    });
    const id = res.json<{ id: string }>().id;
    const edit = await g.call('PATCH', `/channels/${general}/messages/${id}`, {
      auth: dee.token,
      payload: { content: 'a bird' },
    });
    expect(edit.json()).toMatchObject({ code: 200000 });
    expect((await server.app.storage.messages.findById(general, id))?.content).toBe('my d0g barks');
    await mod.dropRule(blocking);
    await mod.dropRule(ruleId);
  });

  it('runs patterns in linear time: no pattern is given up on, none lets a match through', async () => {
    const ruleId = await mod.createRule({
      name: 'Slow',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { regex_patterns: ['a*a*a*a*a*a*a*a*a*a*a*a*b', '.*.*.*.*.*.*.*.*!'] },
      actions: [{ type: 1 }, { type: 2, metadata: { channel_id: alerts } }],
    });
    const eve = await g.join('eve');
    expect((await post(eve, 'a'.repeat(60))).statusCode).toBe(200);
    expect((await post(eve, 'aab')).json()).toMatchObject({ code: 200000 });
    // A backtracking engine needs about n^8 steps to find that the first line holds no "!":
    // given up on, it let the second line's match through.
    expect((await post(eve, 'a'.repeat(1990) + '\n!')).json()).toMatchObject({ code: 200000 });
    expect((await post(eve, 'a'.repeat(1990) + '\n.')).statusCode).toBe(200);
    const [alert] = await mod.alertMessages();
    expect(JSON.stringify(alert?.embeds)).toContain('"keyword","value":".*.*.*.*.*.*.*.*!"');
    expect(JSON.stringify(alert?.embeds)).not.toContain('check_timed_out');
    await mod.dropRule(ruleId);
  });

  it('matches many wildcard keywords against a long word once, allow list included', async () => {
    // 40 keywords that all match inside a 2,000-letter word, each let through by the last entry
    // of the allow list: matched keyword by keyword, occurrence by occurrence, this took minutes;
    // word by word it is well within the budget, so nothing fails closed.
    const keywords = Array.from({ length: 40 }, (_, i) => `*${'a'.repeat(i + 1)}*`);
    const ruleId = await mod.createRule({
      name: 'Many wildcards',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: {
        keyword_filter: keywords,
        allow_list: [...Array.from({ length: 20 }, (_, i) => `*${'b'.repeat(i + 1)}*`), '*aaaa*'],
      },
      actions: [{ type: 1 }, { type: 2, metadata: { channel_id: alerts } }],
    });
    const ivy = await g.join('ivy');
    expect((await post(ivy, 'a'.repeat(2000))).statusCode).toBe(200);
    expect((await post(ivy, `${'a'.repeat(999)} ${'a'.repeat(1000)}`)).statusCode).toBe(200);
    expect((await post(ivy, 'xyz '.repeat(500))).statusCode).toBe(200);
    const blocked = await post(ivy, `${'a'.repeat(1500)} zaaaz Baa`);
    expect(blocked.json()).toMatchObject({ code: 200000 });
    // The first keyword of the list that matches, and the first word it matches.
    const [alert] = await mod.alertMessages();
    expect(JSON.stringify(alert?.embeds)).toContain('"keyword","value":"*a*"');
    expect(JSON.stringify(alert?.embeds)).toContain('"keyword_matched_content","value":"zaaaz"');
    await mod.dropRule(ruleId);
  });

  it('mention spam, keyword presets and repeated content', async () => {
    const ids = [
      await mod.createRule({
        name: 'Mentions',
        event_type: 1,
        trigger_type: 5,
        trigger_metadata: { mention_total_limit: 2 },
        actions: [{ type: 1 }],
      }),
      await mod.createRule({
        name: 'Presets',
        event_type: 1,
        trigger_type: 4,
        trigger_metadata: { presets: [1], allow_list: ['damn'] },
        actions: [{ type: 1 }],
      }),
      await mod.createRule({
        name: 'Spam',
        event_type: 1,
        trigger_type: 3,
        actions: [{ type: 1 }],
      }),
    ];
    const fay = await g.join('fay');
    const [a, b, c] = [g.owner.userId, g.bot.userId, fay.userId];
    expect((await post(fay, `<@${a}> <@${b}> <@!${a}>`)).statusCode).toBe(200);
    expect((await post(fay, `<@${a}> <@${b}> <@${c}>`)).json()).toMatchObject({ code: 200000 });
    expect((await post(fay, 'well damn')).statusCode).toBe(200);
    expect((await post(fay, 'oh SHIT.')).json()).toMatchObject({ code: 200000 });
    expect((await post(fay, 'buy now')).statusCode).toBe(200);
    expect((await post(fay, 'buy now')).statusCode).toBe(200);
    expect((await post(fay, 'Buy now ')).json()).toMatchObject({ code: 200000 });
    for (const id of ids) await mod.dropRule(id);
  });

  it('a profile rule quarantines a member whose nickname matches, until it no longer does', async () => {
    const ruleId = await mod.createRule({
      name: 'Names',
      event_type: 2,
      trigger_type: 6,
      trigger_metadata: { keyword_filter: ['*admin*'] },
      actions: [{ type: 4 }, { type: 2, metadata: { channel_id: alerts } }],
    });
    const gus = await g.join('gus');
    const nick = (value: string) =>
      g.call('PATCH', `/guilds/${g.guildId}/members/@me`, {
        auth: gus.token,
        payload: { nick: value },
      });
    const bad = await nick('the-Admin');
    expect(bad.statusCode).toBe(200);
    expect(bad.json<{ flags: number }>().flags & QUARANTINED_FLAG).toBe(QUARANTINED_FLAG);
    expect(await mod.audit(AuditLogActions.AUTO_MODERATION_QUARANTINE_USER)).toHaveLength(1);
    expect((await post(gus, 'hello')).json()).toMatchObject({ code: 200000 });
    const good = await nick('gus');
    expect(good.json<{ flags: number }>().flags & QUARANTINED_FLAG).toBe(0);
    expect((await post(gus, 'hello')).statusCode).toBe(200);
    // Names are checked on joining too.
    const invite = await g.call('POST', `/channels/${general}/invites`, {
      auth: g.owner.token,
      payload: {},
    });
    const joiner = await server.app.services.auth.register({
      email: 'sysadmin@example.test',
      username: 'sysadmin',
      password: 'correct horse battery',
    });
    await g.call('POST', `/invites/${invite.json<{ code: string }>().code}`, joiner.token);
    const joined = await server.app.storage.members.find(g.guildId, joiner.user_id);
    expect((joined?.flags ?? 0) & QUARANTINED_FLAG).toBe(QUARANTINED_FLAG);
    await mod.dropRule(ruleId);
  });
});
