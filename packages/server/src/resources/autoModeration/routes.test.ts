import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  guildFixture,
  type GuildFixture,
  type Person,
} from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

describeDrivers('auto-moderation rules on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let member: Person;
  let channelId: string;

  // The worker's plain server: each test makes a guild of its own on it.
  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_GUILD | P.MODERATE_MEMBERS });
    member = await g.join('mod-member');
    const [general] = await server.app.storage.channels.listByGuild(g.guildId);
    channelId = general?.id ?? '';
  });

  const rulesUrl = () => `/guilds/${g.guildId}/auto-moderation/rules`;
  const audit = (actionType: number) =>
    server.app.storage.auditLog.list(g.guildId, { actionType, limit: 100 });
  const keywordRule = (extra: object = {}) => ({
    name: 'No cats',
    event_type: 1,
    trigger_type: 1,
    trigger_metadata: {
      keyword_filter: ['cat*'],
      regex_patterns: ['d[o0]g'],
      allow_list: ['category'],
    },
    actions: [{ type: 1, metadata: { custom_message: 'Not here.' } }],
    enabled: true,
    ...extra,
  });

  it('creates, lists, reads, modifies and deletes a rule, each audited', async () => {
    const created = await g.call('POST', rulesUrl(), {
      auth: g.bot.token,
      payload: keywordRule({
        actions: [
          { type: 1 },
          { type: 2, metadata: { channel_id: channelId } },
          { type: 3, metadata: { duration_seconds: 60 } },
        ],
        exempt_channels: [channelId],
      }),
      reason: 'tidy',
    });
    expect(created.statusCode).toBe(200);
    expectOpenApiResponse(created, 'POST', rulesUrl());
    const rule = created.json<{ id: string }>();
    expect(rule).toMatchObject({
      guild_id: g.guildId,
      creator_id: g.bot.userId,
      trigger_type: 1,
      trigger_metadata: {
        keyword_filter: ['cat*'],
        regex_patterns: ['d[o0]g'],
        allow_list: ['category'],
      },
      actions: [
        { type: 1, metadata: {} },
        { type: 2, metadata: { channel_id: channelId } },
        { type: 3, metadata: { duration_seconds: 60 } },
      ],
      exempt_roles: [],
      exempt_channels: [channelId],
      enabled: true,
    });
    const [entry] = await audit(AuditLogActions.AUTO_MODERATION_RULE_CREATE);
    expect(entry).toMatchObject({ targetId: rule.id, userId: g.bot.userId, reason: 'tidy' });

    const listed = await g.call('GET', rulesUrl(), g.bot.token);
    expect(listed.statusCode).toBe(200);
    expectOpenApiResponse(listed, 'GET', rulesUrl());
    expect(listed.json()).toEqual([created.json()]);

    const one = await g.call('GET', `${rulesUrl()}/${rule.id}`, g.bot.token);
    expect(one.statusCode).toBe(200);
    expectOpenApiResponse(one, 'GET', `${rulesUrl()}/${rule.id}`);

    const patched = await g.call('PATCH', `${rulesUrl()}/${rule.id}`, {
      auth: g.bot.token,
      payload: { name: 'No cats at all', enabled: false, exempt_channels: [] },
    });
    expect(patched.statusCode).toBe(200);
    expectOpenApiResponse(patched, 'PATCH', `${rulesUrl()}/${rule.id}`);
    expect(patched.json()).toMatchObject({
      name: 'No cats at all',
      enabled: false,
      exempt_channels: [],
    });
    const [update] = await audit(AuditLogActions.AUTO_MODERATION_RULE_UPDATE);
    expect(update?.changes).toEqual(
      expect.arrayContaining([{ key: 'name', old_value: 'No cats', new_value: 'No cats at all' }]),
    );
    // The trigger type never changes.
    const retype = await g.call('PATCH', `${rulesUrl()}/${rule.id}`, {
      auth: g.bot.token,
      payload: { trigger_type: 5 },
    });
    expect(retype.statusCode).toBe(400);
    expectOpenApiResponse(retype, 'PATCH', `${rulesUrl()}/${rule.id}`);

    const deleted = await g.call('DELETE', `${rulesUrl()}/${rule.id}`, g.bot.token);
    expect(deleted.statusCode).toBe(204);
    expectOpenApiResponse(deleted, 'DELETE', `${rulesUrl()}/${rule.id}`);
    expect(await audit(AuditLogActions.AUTO_MODERATION_RULE_DELETE)).toHaveLength(1);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const gone = await g.call(method, `${rulesUrl()}/${rule.id}`, {
        auth: g.bot.token,
        payload: {},
      });
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ message: 'Unknown Auto Moderation Rule' });
      expectOpenApiResponse(gone, method, `${rulesUrl()}/${rule.id}`);
    }
  });

  it('refuses bad rules with the field at fault, and writes nothing', async () => {
    const audits = await g.auditCount();
    const cases: [object, string][] = [
      [{ ...keywordRule(), name: '' }, 'name'],
      [{ ...keywordRule(), trigger_type: 2 }, 'trigger_type'],
      [{ ...keywordRule(), event_type: 2 }, 'event_type'],
      [{ ...keywordRule(), actions: [] }, 'actions'],
      [{ ...keywordRule(), actions: [{ type: 4 }] }, 'actions'],
      [{ ...keywordRule(), actions: [{ type: 2, metadata: { channel_id: '1' } }] }, 'actions'],
      [{ ...keywordRule(), actions: [{ type: 3 }] }, 'actions'],
      [{ ...keywordRule(), trigger_metadata: { regex_patterns: ['(?=x)a'] } }, 'trigger_metadata'],
      [{ ...keywordRule(), trigger_metadata: { regex_patterns: ['(a)\\1'] } }, 'trigger_metadata'],
      [
        { ...keywordRule(), trigger_metadata: { regex_patterns: ['(unclosed'] } },
        'trigger_metadata',
      ],
      [
        { ...keywordRule(), trigger_metadata: { keyword_filter: ['x'.repeat(61)] } },
        'trigger_metadata',
      ],
      [{ ...keywordRule(), trigger_metadata: {} }, 'trigger_metadata'],
      [
        { ...keywordRule(), trigger_metadata: { keyword_filter: ['a'], presets: [1] } },
        'trigger_metadata',
      ],
      [{ ...keywordRule(), exempt_roles: ['1'] }, 'exempt_roles'],
      [{ ...keywordRule(), trigger_type: 5, trigger_metadata: {} }, 'trigger_metadata'],
      [
        { ...keywordRule(), trigger_type: 4, trigger_metadata: { presets: [7] } },
        'trigger_metadata',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await g.call('POST', rulesUrl(), { auth: g.bot.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expectOpenApiResponse(res, 'POST', rulesUrl());
      const body = res.json<{ code: number; errors: Record<string, unknown> }>();
      expect(body.code).toBe(50035);
      expect(Object.keys(body.errors)).toContain(field);
    }
    expect(await g.auditCount()).toBe(audits);
    expect(await server.app.storage.autoModRules.listByGuild(g.guildId)).toEqual([]);
  });

  it('refuses duplicate keywords, patterns and allow-list entries', async () => {
    const audits = await g.auditCount();
    // The same keyword 40 times, let through by the allow list: refused, not matched 40 times.
    const cases: [object, (string | number)[]][] = [
      [
        { keyword_filter: Array<string>(40).fill('*a*'), allow_list: ['*a*'] },
        ['keyword_filter', 1],
      ],
      [{ keyword_filter: ['cat', 'dog', 'CAT'] }, ['keyword_filter', 2]],
      [{ keyword_filter: ['cat'], allow_list: ['ok', 'Ok'] }, ['allow_list', 1]],
      [{ regex_patterns: ['d[o0]g', 'd[o0]g'] }, ['regex_patterns', 1]],
    ];
    for (const [metadata, path] of cases) {
      const res = await g.call('POST', rulesUrl(), {
        auth: g.bot.token,
        payload: keywordRule({ trigger_metadata: metadata }),
      });
      expect(res.statusCode, JSON.stringify(metadata)).toBe(400);
      expectOpenApiResponse(res, 'POST', rulesUrl());
      const body = res.json<{ code: number; errors: Record<string, unknown> }>();
      expect(body.code).toBe(50035);
      expect(body.errors).toMatchObject({
        trigger_metadata: {
          [String(path[0])]: {
            [String(path[1])]: {
              _errors: [
                {
                  code: 'AUTO_MODERATION_DUPLICATE_KEYWORD',
                  message: expect.any(String) as string,
                },
              ],
            },
          },
        },
      });
    }
    // Distinct entries that only share letters are fine (and so is a pattern RE2 runs in linear
    // time, however it nests; with no allow list, no match of it is passed over).
    const fine = await g.call('POST', rulesUrl(), {
      auth: g.bot.token,
      payload: keywordRule({
        trigger_metadata: {
          keyword_filter: ['cat', 'cat*', '*cat', '*cat*'],
          regex_patterns: ['(a+)+$'],
        },
      }),
    });
    expect(fine.statusCode, fine.body).toBe(200);
    const id = fine.json<{ id: string }>().id;
    // A PATCH is held to the same rules, and changes nothing when refused.
    const patch = await g.call('PATCH', `${rulesUrl()}/${id}`, {
      auth: g.bot.token,
      payload: { trigger_metadata: { keyword_filter: ['x', 'X'] } },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toMatchObject({ code: 50035 });
    expect((await server.app.storage.autoModRules.find(g.guildId, id))?.triggerMetadata).toEqual(
      fine.json<{ trigger_metadata: object }>().trigger_metadata,
    );
    expect((await g.call('DELETE', `${rulesUrl()}/${id}`, g.bot.token)).statusCode).toBe(204);
    expect(await g.auditCount()).toBe(audits + 2);
  });

  it("refuses patterns that cannot be checked within a message's budget, saying why", async () => {
    // Each pattern compiles to about 160 instructions, which RE2 may all run at each character:
    // ten of them may cost far more per message than the 50 ms all of a guild's rules have.
    const heavy = Array.from({ length: 10 }, (_, i) => `[a-z]{160}${String(i)}`);
    const refused = await g.call('POST', rulesUrl(), {
      auth: g.bot.token,
      payload: keywordRule({ trigger_metadata: { regex_patterns: heavy } }),
    });
    expect(refused.statusCode).toBe(400);
    expectOpenApiResponse(refused, 'POST', rulesUrl());
    expect(refused.json()).toMatchObject({
      code: 50035,
      errors: {
        trigger_metadata: {
          _errors: [
            {
              code: 'AUTO_MODERATION_RULE_TOO_EXPENSIVE',
              message: expect.stringMatching(/50 ms/) as string,
            },
          ],
        },
      },
    });
    expect(await server.app.storage.autoModRules.listByGuild(g.guildId)).toEqual([]);
    // One such pattern fits; the guild's rules share the budget, so a rule that would take the
    // guild past it is refused even though it fits alone.
    const one = await g.call('POST', rulesUrl(), {
      auth: g.bot.token,
      payload: keywordRule({ trigger_metadata: { regex_patterns: heavy.slice(0, 1) } }),
    });
    expect(one.statusCode, one.body).toBe(200);
    const rules: string[] = [one.json<{ id: string }>().id];
    let last = one;
    for (let i = 1; i < 6 && last.statusCode === 200; i += 1) {
      last = await g.call('POST', rulesUrl(), {
        auth: g.bot.token,
        payload: keywordRule({ trigger_metadata: { regex_patterns: heavy.slice(i, i + 1) } }),
      });
      if (last.statusCode === 200) rules.push(last.json<{ id: string }>().id);
    }
    expect(last.statusCode).toBe(400);
    expect(JSON.stringify(last.json())).toMatch(/other rules/);
    for (const id of rules) {
      expect((await g.call('DELETE', `${rulesUrl()}/${id}`, g.bot.token)).statusCode).toBe(204);
    }
  });

  it('refuses keyword lists that cannot be compiled within the budget of a message', async () => {
    // A thousand 60-character infix keywords take milliseconds to compile, and a message whose
    // rules the server does not keep compiled pays for it within its budget.
    const infix = (tag: string) =>
      Array.from({ length: 1000 }, (_, i) => `*${tag}${String(i).padStart(57, 'q')}*`);
    // Each fits alone; the guild's rules share the budget, so the third is refused.
    const saved: string[] = [];
    let last;
    for (const tag of ['a', 'b', 'c']) {
      last = await g.call('POST', rulesUrl(), {
        auth: g.bot.token,
        payload: keywordRule({ trigger_metadata: { keyword_filter: infix(tag) } }),
      });
      if (last.statusCode === 200) saved.push(last.json<{ id: string }>().id);
    }
    expect(saved).toHaveLength(2);
    expect(last?.statusCode).toBe(400);
    expect(last?.json()).toMatchObject({
      code: 50035,
      errors: {
        trigger_metadata: { _errors: [{ code: 'AUTO_MODERATION_RULE_TOO_EXPENSIVE' }] },
      },
    });
    expect(JSON.stringify(last?.json())).toMatch(/other rules/);
    const rules = await server.app.storage.autoModRules.listByGuild(g.guildId);
    expect(rules.map((r) => r.id).sort()).toEqual([...saved].sort());
    for (const id of saved) {
      expect((await g.call('DELETE', `${rulesUrl()}/${id}`, g.bot.token)).statusCode).toBe(204);
    }
  });

  it('refuses a pattern whose passed-over matches could each be searched again to the end', async () => {
    // `a[^z]*z|a` on `aaa…`: each `a` matches (and the allow list lets it through), but the
    // search reads to the end first, looking for a `z`: the searches grow with the square of
    // the length.
    const refused = await g.call('POST', rulesUrl(), {
      auth: g.bot.token,
      payload: keywordRule({
        trigger_metadata: { regex_patterns: ['a[^z]*z|a'], allow_list: ['a'] },
      }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 50035,
      errors: {
        trigger_metadata: { _errors: [{ code: 'AUTO_MODERATION_RULE_TOO_EXPENSIVE' }] },
      },
    });
    expect(await server.app.storage.autoModRules.listByGuild(g.guildId)).toEqual([]);
    // Without an allow list no match is passed over; with bounded repetition a search reads
    // only a few characters past a match: both are saved.
    for (const trigger_metadata of [
      { regex_patterns: ['a[^z]*z|a'] },
      { regex_patterns: ['a[^z]{0,3}z|a'], allow_list: ['a'] },
    ]) {
      const saved = await g.call('POST', rulesUrl(), {
        auth: g.bot.token,
        payload: keywordRule({ trigger_metadata }),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const id = saved.json<{ id: string }>().id;
      expect((await g.call('DELETE', `${rulesUrl()}/${id}`, g.bot.token)).statusCode).toBe(204);
    }
  });

  it('limits rules per trigger type', async () => {
    const spam = { name: 'Spam', event_type: 1, trigger_type: 3, actions: [{ type: 1 }] };
    const first = await g.call('POST', rulesUrl(), { auth: g.bot.token, payload: spam });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ trigger_metadata: {}, enabled: false });
    const second = await g.call('POST', rulesUrl(), { auth: g.bot.token, payload: spam });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({
      code: 50035,
      errors: {
        trigger_type: { _errors: [{ code: 'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED' }] },
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await g.call('POST', rulesUrl(), { auth: g.bot.token, payload: keywordRule() });
      expect(res.statusCode).toBe(200);
      ids.push(res.json<{ id: string }>().id);
    }
    const seventh = await g.call('POST', rulesUrl(), { auth: g.bot.token, payload: keywordRule() });
    expect(seventh.statusCode).toBe(400);
    for (const id of [first.json<{ id: string }>().id, ...ids]) {
      expect((await g.call('DELETE', `${rulesUrl()}/${id}`, g.bot.token)).statusCode).toBe(204);
    }
  });

  it('answers the platform errors for callers without access', async () => {
    const denied: [string, string, string, number, number][] = [
      ['GET', rulesUrl(), member.token, 403, 50013],
      ['POST', rulesUrl(), member.token, 403, 50013],
      ['GET', `${rulesUrl()}/123`, member.token, 403, 50013],
      ['GET', '/guilds/1/auto-moderation/rules', g.bot.token, 404, 10004],
      ['GET', rulesUrl(), '', 401, 0],
    ];
    for (const [method, url, auth, status, code] of denied) {
      const res = await g.call(method, url, { auth, payload: keywordRule() });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expectOpenApiResponse(res, method, url);
    }
    // A timeout action needs MODERATE_MEMBERS of whoever sets it up.
    const lesser = await g.join('lesser');
    const role = (
      await g.call('POST', `/guilds/${g.guildId}/roles`, {
        auth: g.owner.token,
        payload: { name: 'managers', permissions: String(P.MANAGE_GUILD) },
      })
    ).json<{ id: string }>();
    await server.app.storage.members.addRole(g.guildId, lesser.userId, role.id);
    const timeout = await g.call('POST', rulesUrl(), {
      auth: lesser.token,
      payload: keywordRule({ actions: [{ type: 3, metadata: { duration_seconds: 5 } }] }),
    });
    expect(timeout.statusCode).toBe(403);
    expect(timeout.json()).toMatchObject({ code: 50013 });
  });
});
