import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { inflateSync } from 'node:zlib';
import { beforeEach, expect, it } from 'vitest';
import { registration, uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  guildFixture,
  type GuildFixture,
  type Person,
} from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { WIDGET_IMAGE_SIZES } from './index.js';

describeDrivers('guild settings on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let member: Person;
  let general: string;

  // The worker's plain server: each test makes a guild of its own on it.
  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_GUILD | P.KICK_MEMBERS });
    member = await g.join('plain');
    const [channel] = await server.app.storage.channels.listByGuild(g.guildId);
    general = channel?.id ?? '';
  });

  const url = (tail: string) => `/guilds/${g.guildId}${tail}`;
  const audit = (actionType: number) =>
    server.app.storage.auditLog.list(g.guildId, { actionType, limit: 100 });
  const checked = async (
    method: 'GET' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    options: { auth: string; payload?: unknown },
  ) => {
    const res = await g.call(method, path, options);
    expectOpenApiResponse(res, method, path);
    return res;
  };
  const makeChannel = async (name: string, type: number) =>
    (
      await g.call('POST', url('/channels'), { auth: g.owner.token, payload: { name, type } })
    ).json<{ id: string }>().id;

  it('widget: settings, widget.json with its invite, and widget.png in every style', async () => {
    const bot = { auth: g.bot.token };
    expect((await checked('GET', url('/widget'), bot)).json()).toEqual({
      enabled: false,
      channel_id: null,
    });
    const off = await checked('GET', url('/widget.json'), { auth: '' });
    expect(off.json()).toMatchObject({ code: 50004 });
    const voice = await makeChannel('Lounge', 2);
    const on = await checked('PATCH', url('/widget'), {
      auth: g.bot.token,
      payload: { enabled: true, channel_id: general },
    });
    expect(on.json()).toEqual({ enabled: true, channel_id: general });
    const [entry] = await audit(AuditLogActions.GUILD_UPDATE);
    expect(entry?.changes).toEqual([
      { key: 'widget_enabled', old_value: false, new_value: true },
      { key: 'widget_channel_id', new_value: general },
    ]);
    const guild = await checked('GET', url(''), bot);
    expect(guild.json()).toMatchObject({ widget_enabled: true, widget_channel_id: general });

    const json = await checked('GET', url('/widget.json'), { auth: '' });
    expect(json.json()).toMatchObject({
      id: g.guildId,
      name: 'Fixture guild',
      channels: [{ id: voice, name: 'Lounge' }],
      members: [],
      presence_count: 0,
    });
    const invite = json.json<{ instant_invite: string }>().instant_invite;
    expect(invite).toMatch(/\/invite\/\w+$/);
    // The widget's invite is made once and reused.
    expect((await g.call('GET', url('/widget.json'), '')).json()).toMatchObject({
      instant_invite: invite,
    });
    const code = invite.split('/').at(-1) ?? '';
    expect(await server.app.storage.invites.find(code)).toMatchObject({
      channelId: general,
      inviterId: null,
    });

    for (const [style, size] of Object.entries(WIDGET_IMAGE_SIZES)) {
      const png = await g.call('GET', url(`/widget.png?style=${style}`), '');
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      const bytes = png.rawPayload;
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([size.width, size.height]);
      const idat = bytes.indexOf('IDAT');
      const pixels = inflateSync(bytes.subarray(idat + 4, idat + 4 + bytes.readUInt32BE(idat - 4)));
      expect(pixels.length).toBe((size.width * 3 + 1) * size.height);
    }
    const bad = await checked('GET', url('/widget.png?style=poster'), { auth: '' });
    expect(bad.json()).toMatchObject({ code: 50035 });
    for (const path of [url('/widget'), url('/widget.json')]) {
      const unknown = await checked('GET', path.replace(g.guildId, '1'), bot);
      expect(unknown.json()).toMatchObject({ code: 10004 });
    }
    const denied = await checked('PATCH', url('/widget'), { auth: member.token, payload: {} });
    expect(denied.json()).toMatchObject({ code: 50013 });
  });

  it('welcome screen: unknown until set, then shown to members once enabled', async () => {
    expect(
      (await checked('GET', url('/welcome-screen'), { auth: g.bot.token })).json(),
    ).toMatchObject({ code: 10069 });
    const set = await checked('PATCH', url('/welcome-screen'), {
      auth: g.bot.token,
      payload: {
        description: 'Hello!',
        welcome_channels: [{ channel_id: general, description: 'Chat here', emoji_name: '👋' }],
      },
    });
    expect(set.json()).toEqual({
      description: 'Hello!',
      welcome_channels: [
        { channel_id: general, description: 'Chat here', emoji_id: null, emoji_name: '👋' },
      ],
    });
    expect(
      (await checked('GET', url('/welcome-screen'), { auth: member.token })).json(),
    ).toMatchObject({ code: 50013 });
    await checked('PATCH', url('/welcome-screen'), {
      auth: g.bot.token,
      payload: { enabled: true },
    });
    const shown = await checked('GET', url('/welcome-screen'), { auth: member.token });
    expect(shown.json()).toMatchObject({ description: 'Hello!' });
    const bad = await checked('PATCH', url('/welcome-screen'), {
      auth: g.bot.token,
      payload: { welcome_channels: [{ channel_id: '1', description: 'x' }] },
    });
    expect(bad.json()).toMatchObject({ code: 50035 });
  });

  it('onboarding: prompts kept with ids, requirements to enable, audit entries', async () => {
    const owner = { auth: g.owner.token };
    const empty = await checked('GET', url('/onboarding'), { auth: member.token });
    expect(empty.json()).toEqual({
      guild_id: g.guildId,
      prompts: [],
      default_channel_ids: [],
      enabled: false,
      mode: 0,
    });
    const prompt = {
      id: '1000',
      title: 'What brings you here?',
      options: [{ title: 'Chat', channel_ids: [general], emoji_name: '💬' }],
    };
    const saved = await checked('PUT', url('/onboarding'), {
      ...owner,
      payload: { prompts: [prompt], default_channel_ids: [general] },
    });
    const option = saved.json<{ prompts: { options: { id: string }[] }[] }>().prompts[0]
      ?.options[0];
    expect(option).toMatchObject({
      title: 'Chat',
      description: '',
      emoji: { id: null, name: '💬', animated: false },
      channel_ids: [general],
      role_ids: [],
    });
    expect(option?.id).toMatch(/^\d+$/);
    expect(await audit(AuditLogActions.ONBOARDING_CREATE)).toHaveLength(1);
    expect(await audit(AuditLogActions.ONBOARDING_PROMPT_CREATE)).toHaveLength(1);

    // Enabling needs 7 default channels, 5 of them open to @everyone for chat.
    const refused = await checked('PUT', url('/onboarding'), {
      ...owner,
      payload: { enabled: true },
    });
    expect(refused.json()).toMatchObject({ code: 350000 });
    const channels = [general];
    for (let i = 0; i < 6; i += 1) channels.push(await makeChannel(`room-${String(i)}`, 0));
    const enabled = await checked('PUT', url('/onboarding'), {
      ...owner,
      payload: { enabled: true, default_channel_ids: channels, prompts: [] },
    });
    expect(enabled.json()).toMatchObject({ enabled: true, prompts: [] });
    expect(await audit(AuditLogActions.ONBOARDING_PROMPT_DELETE)).toHaveLength(1);
    expect(await audit(AuditLogActions.ONBOARDING_UPDATE)).toHaveLength(1);

    const bad = await checked('PUT', url('/onboarding'), {
      ...owner,
      payload: { default_channel_ids: ['1'] },
    });
    expect(bad.json()).toMatchObject({ code: 50035 });
    // The bot has MANAGE_GUILD but not MANAGE_ROLES.
    const denied = await checked('PUT', url('/onboarding'), { auth: g.bot.token, payload: {} });
    expect(denied.json()).toMatchObject({ code: 50013 });
  });

  it('new-member welcome, preview, vanity URL and incident actions', async () => {
    expect(
      (await checked('GET', url('/new-member-welcome'), { auth: member.token })).statusCode,
    ).toBe(204);
    await g.call('PUT', url('/new-member-welcome'), {
      auth: g.bot.token,
      payload: {
        enabled: true,
        welcome_message: { author_ids: [g.owner.userId], message: 'Welcome aboard' },
        new_member_actions: [
          { channel_id: general, action_type: 1, title: 'Say hi', description: 'In general' },
        ],
        resource_channels: [{ channel_id: general, title: 'Rules', description: 'Read them' }],
      },
    });
    const home = await checked('GET', url('/new-member-welcome'), { auth: member.token });
    expect(home.json()).toMatchObject({ guild_id: g.guildId, enabled: true });
    expect(await audit(AuditLogActions.HOME_SETTINGS_CREATE)).toHaveLength(1);

    const preview = await checked('GET', url('/preview'), { auth: member.token });
    expect(preview.json()).toMatchObject({ id: g.guildId, approximate_member_count: 3 });
    const outsider = await server.app.services.auth.register(registration('outsider'));
    const hidden = await checked('GET', url('/preview'), { auth: outsider.token });
    expect(hidden.json()).toMatchObject({ code: 10004 });
    await server.app.storage.guilds.update(g.guildId, { features: ['DISCOVERABLE'] });
    expect((await checked('GET', url('/preview'), { auth: outsider.token })).statusCode).toBe(200);

    // A code of its own: vanity codes are unique on the (shared) server.
    const code = uniqueName('fixture').replace('_', '-');
    const vanity = await checked('GET', url('/vanity-url'), { auth: g.bot.token });
    expect(vanity.json()).toEqual({ code: null, uses: 0 });
    const noFeature = await g.call('PATCH', url('/vanity-url'), {
      auth: g.bot.token,
      payload: { code },
    });
    expect(noFeature.json()).toMatchObject({ code: 50013 });
    await server.app.storage.guilds.update(g.guildId, { features: ['DISCOVERABLE', 'VANITY_URL'] });
    await g.call('PATCH', url('/vanity-url'), { auth: g.bot.token, payload: { code } });
    expect((await checked('GET', url('/vanity-url'), { auth: g.bot.token })).json()).toEqual({
      code,
      uses: 0,
    });
    expect((await checked('GET', url(''), { auth: g.bot.token })).json()).toMatchObject({
      vanity_url_code: code,
    });
    // The vanity code works as an invite, counting its joins.
    const joiner = await server.app.services.auth.register(registration('vanity-joiner'));
    const shown = await g.call('GET', `/invites/${code}`, joiner.token);
    expect(shown.json()).toMatchObject({ code, guild: { id: g.guildId } });
    const joined = await g.call('POST', `/invites/${code}`, joiner.token);
    expect(joined.statusCode).toBe(200);
    expect(await server.app.storage.members.find(g.guildId, joiner.user_id)).not.toBeNull();
    expect((await checked('GET', url('/vanity-url'), { auth: g.bot.token })).json()).toEqual({
      code,
      uses: 1,
    });
    const other = await app2Guild();
    await server.app.storage.guilds.update(other, { features: ['VANITY_URL'] });
    const taken = await g.call('PATCH', `/guilds/${other}/vanity-url`, {
      auth: g.owner.token,
      payload: { code },
    });
    expect(taken.json()).toMatchObject({ code: 50020 });
    const badCode = await g.call('PATCH', url('/vanity-url'), {
      auth: g.bot.token,
      payload: { code: 'Not OK' },
    });
    expect(badCode.json()).toMatchObject({ code: 50035 });

    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const paused = await checked('PUT', url('/incident-actions'), {
      auth: g.bot.token,
      payload: { invites_disabled_until: soon, dms_disabled_until: null },
    });
    expect(paused.json()).toEqual({ invites_disabled_until: soon, dms_disabled_until: null });
    expect((await checked('GET', url(''), { auth: g.bot.token })).json()).toMatchObject({
      incidents_data: { invites_disabled_until: soon },
    });
    // Paused invites: neither made nor accepted.
    const invite = () =>
      g.call('POST', `/channels/${general}/invites`, { auth: g.owner.token, payload: {} });
    expect((await invite()).json()).toMatchObject({ code: 40006 });
    const tooFar = await checked('PUT', url('/incident-actions'), {
      auth: g.bot.token,
      payload: { dms_disabled_until: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    });
    expect(tooFar.json()).toMatchObject({ code: 50035 });
    const lifted = await checked('PUT', url('/incident-actions'), {
      auth: g.bot.token,
      payload: { invites_disabled_until: null },
    });
    expect(lifted.json()).toEqual({ invites_disabled_until: null, dms_disabled_until: null });
    expect((await invite()).statusCode).toBe(200);
  });

  /** Another guild the owner holds, for the vanity conflict. */
  const app2Guild = async () =>
    (
      await server.app.services.guilds.create({
        ownerId: g.owner.userId,
        name: 'Second',
        channels: [{ name: 'general', type: 'text' }],
      })
    ).guild.id;

  it('join requests: apply, list, approve and reject', async () => {
    const apply = (person: Person) =>
      g.call('PUT', url('/requests/@me'), {
        auth: person.token,
        payload: {
          form_responses: [
            { field_type: 'TERMS', label: 'Rules', values: ['Be kind'], response: true },
            { field_type: 'MULTIPLE_CHOICE', label: 'Why?', choices: ['Fun', 'Work'], response: 1 },
          ],
        },
      });
    const register = async (name: string): Promise<Person> => {
      const session = await server.app.services.auth.register({
        email: `${name}@example.test`,
        username: name,
        password: 'correct horse battery',
      });
      return { userId: session.user_id, token: session.token, username: name };
    };
    const ann = await register('applicant-ann');
    const bob = await register('applicant-bob');
    expect((await apply(ann)).json()).toMatchObject({ code: 10004 });
    await server.app.storage.guilds.update(g.guildId, {
      features: ['MEMBER_VERIFICATION_GATE_ENABLED'],
    });
    const submitted = await apply(ann);
    expect(submitted.json()).toMatchObject({
      application_status: 'SUBMITTED',
      user_id: ann.userId,
    });
    await apply(bob);
    const list = await checked('GET', url('/requests'), { auth: g.bot.token });
    expect(list.json()).toMatchObject({ total: 2 });
    const [newest, oldest] = list.json<{ guild_join_requests: { id: string }[] }>()
      .guild_join_requests;
    const approved = await checked('PATCH', url(`/requests/${oldest?.id ?? ''}`), {
      auth: g.bot.token,
      payload: { action: 'APPROVED' },
    });
    expect(approved.json()).toMatchObject({
      application_status: 'APPROVED',
      actioned_by_user: { id: g.bot.userId },
    });
    expect(await server.app.storage.members.find(g.guildId, ann.userId)).not.toBeNull();
    const rejected = await checked('PATCH', url(`/requests/${newest?.id ?? ''}`), {
      auth: g.bot.token,
      payload: { action: 'REJECTED', rejection_reason: 'Not now' },
    });
    expect(rejected.json()).toMatchObject({
      application_status: 'REJECTED',
      rejection_reason: 'Not now',
    });
    expect(await server.app.storage.members.find(g.guildId, bob.userId)).toBeNull();
    const again = await checked('PATCH', url(`/requests/${newest?.id ?? ''}`), {
      auth: g.bot.token,
      payload: { action: 'APPROVED' },
    });
    expect(again.json()).toMatchObject({ code: 50035 });
    const filtered = await checked('GET', url('/requests?status=REJECTED'), { auth: g.bot.token });
    expect(filtered.json()).toMatchObject({ total: 1 });
    const unknown = await checked('PATCH', url('/requests/1'), {
      auth: g.bot.token,
      payload: { action: 'APPROVED' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await checked('GET', url('/requests'), { auth: member.token })).json()).toMatchObject({
      code: 50013,
    });
  });

  it('integrations: the installed bot, removed with its role', async () => {
    const list = await checked('GET', url('/integrations'), { auth: g.owner.token });
    const listed =
      list.json<{ type: string; id: string; application: { bot?: { id: string } } }[]>();
    expect(listed.map((i) => [i.type, i.id, i.application.bot?.id])).toEqual([
      ['discord', g.bot.applicationId, g.bot.userId],
    ]);
    const path = url(`/integrations/${g.bot.applicationId}`);
    expect((await checked('DELETE', path, { auth: g.owner.token })).statusCode).toBe(204);
    expect(await server.app.storage.members.find(g.guildId, g.bot.userId)).toBeNull();
    const roles = await server.app.storage.roles.listByGuild(g.guildId);
    expect(roles.filter((r) => r.managed)).toEqual([]);
    expect(await audit(AuditLogActions.INTEGRATION_DELETE)).toHaveLength(1);
    expect((await checked('DELETE', path, { auth: g.owner.token })).json()).toMatchObject({
      code: 10005,
    });
    expect((await checked('GET', url('/integrations'), { auth: g.owner.token })).json()).toEqual(
      [],
    );
  });
});
