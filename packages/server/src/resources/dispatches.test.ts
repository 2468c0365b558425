import { ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import type {
  APIRole,
  GatewayChannelModifyDispatchData,
  GatewayGuildScheduledEventCreateDispatchData,
} from 'discord-api-types/v10';
import { expect, expectTypeOf, it } from 'vitest';
import {
  channelAsRest,
  createChannel,
  createEmoji,
  createRole,
  guildEvent,
  useDispatchWorld,
  type Case,
  type RefusedCase,
} from '../../test/support/dispatchWorld.js';
import { describeDrivers } from '../../test/support/drivers.js';
import type { channelDispatches } from './channels/dispatch.js';
import type { scheduledEventDispatches } from './scheduledEvents/dispatch.js';

// Compile time: the builders check their payloads against discord-api-types (`satisfies`), but
// channel and scheduled event payloads only through their serializers' per-type shapes; here,
// every field the library's unions require of them is present too.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Missing<Ours, Theirs> = Exclude<RequiredKeys<Theirs>, keyof Ours>;
type Data<F extends (...args: never[]) => { data: unknown }> = ReturnType<F>['data'];
expectTypeOf<
  Missing<Data<typeof channelDispatches.channel>, GatewayChannelModifyDispatchData>
>().toBeNever();
expectTypeOf<
  Missing<
    Data<typeof scheduledEventDispatches.scheduledEvent>,
    GatewayGuildScheduledEventCreateDispatchData
  >
>().toBeNever();

/** Guild, role and channel changes (members, bans, expressions, events: memberDispatches.test.ts). */
const CASES: Case[] = [
  {
    name: 'PATCH /guilds/{id} → GUILD_UPDATE (the guild as REST shows it)',
    request: (w) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}`,
      payload: { name: 'Renamed guild' },
    }),
    status: 200,
    expect: async (w) => [
      {
        ...guildEvent(w, 'GUILD_UPDATE', {
          ...(await w.get(`/guilds/${w.fx.guildId}`)),
          hub_type: null,
        }),
        exact: true,
      },
    ],
    audits: 1,
  },
  {
    name: 'POST /guilds/{id}/roles → GUILD_ROLE_CREATE, an UPDATE per role moved up',
    request: (w) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/roles`,
      payload: { name: 'Fresh', permissions: '0' },
    }),
    status: 200,
    expect: async (w) => {
      const roles = (await w.get(`/guilds/${w.fx.guildId}/roles`)) as unknown as APIRole[];
      const fresh = roles.find((r) => r.name === 'Fresh');
      const others = roles.filter((r) => r.id !== w.fx.guildId && r.name !== 'Fresh');
      return [
        { ...guildEvent(w, 'GUILD_ROLE_CREATE', { guild_id: w.fx.guildId, role: fresh }) },
        ...others.map((role) =>
          guildEvent(w, 'GUILD_ROLE_UPDATE', { guild_id: w.fx.guildId, role }),
        ),
      ];
    },
    audits: 1,
  },
  {
    name: 'PATCH /guilds/{id}/roles/{id} → GUILD_ROLE_UPDATE',
    setup: async (w) => ({ roleId: await createRole(w, 'Editable') }),
    request: (w, s) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}/roles/${s['roleId'] ?? ''}`,
      payload: { name: 'Edited', hoist: true },
    }),
    status: 200,
    expect: async (w, s) => [
      guildEvent(w, 'GUILD_ROLE_UPDATE', {
        guild_id: w.fx.guildId,
        role: await w.get(`/guilds/${w.fx.guildId}/roles/${s['roleId'] ?? ''}`),
      }),
    ],
    audits: 1,
  },
  {
    name: 'PATCH /guilds/{id}/roles (reorder) → one GUILD_ROLE_UPDATE per moved role',
    setup: async (w) => {
      const a = await createRole(w, 'Low');
      const b = await createRole(w, 'High');
      const roles = (await w.get(`/guilds/${w.fx.guildId}/roles`)) as unknown as APIRole[];
      const at = (id: string) => String(roles.find((r) => r.id === id)?.position);
      return { a, b, aAt: at(a), bAt: at(b) };
    },
    request: (w, s) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}/roles`,
      payload: [
        { id: s['a'], position: Number(s['bAt']) },
        { id: s['b'], position: Number(s['aAt']) },
      ],
    }),
    status: 200,
    expect: (w, s) => [
      guildEvent(w, 'GUILD_ROLE_UPDATE', { role: { id: s['a'], position: Number(s['bAt']) } }),
      guildEvent(w, 'GUILD_ROLE_UPDATE', { role: { id: s['b'], position: Number(s['aAt']) } }),
    ],
    audits: 2,
  },
  {
    name: 'DELETE /guilds/{id}/roles/{id} → GUILD_ROLE_DELETE, emoji list when one named it',
    setup: async (w) => {
      const roleId = await createRole(w, 'Doomed');
      const emojiId = await createEmoji(w, 'limited');
      await w.fx.call('PATCH', `/guilds/${w.fx.guildId}/emojis/${emojiId}`, {
        auth: w.owner,
        payload: { roles: [roleId] },
      });
      return { roleId, emojiId };
    },
    request: (w, s) => ({
      method: 'DELETE',
      path: `/guilds/${w.fx.guildId}/roles/${s['roleId'] ?? ''}`,
    }),
    status: 204,
    expect: (w, s) => [
      guildEvent(w, 'GUILD_ROLE_DELETE', { guild_id: w.fx.guildId, role_id: s['roleId'] }),
      guildEvent(w, 'GUILD_EMOJIS_UPDATE', {
        guild_id: w.fx.guildId,
        emojis: expect.arrayContaining([
          expect.objectContaining({ id: s['emojiId'], roles: [] }),
        ]) as unknown,
      }),
    ],
    audits: 1,
  },
  {
    name: 'POST /guilds/{id}/channels → CHANNEL_CREATE gated by the channel',
    request: (w) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/channels`,
      payload: { name: 'created', topic: 'hello' },
    }),
    status: 201,
    expect: async (w) => {
      const list = (await w.get(`/guilds/${w.fx.guildId}/channels`)) as unknown as {
        id: string;
        name: string;
      }[];
      const created = list.find((c) => c.name === 'created');
      return [await channelAsRest(w, 'CHANNEL_CREATE', created?.id ?? '')];
    },
    audits: 1,
  },
  {
    name: 'PATCH /channels/{id} → CHANNEL_UPDATE',
    request: (w) => ({
      method: 'PATCH',
      path: `/channels/${w.textId}`,
      payload: { topic: 'a new topic' },
    }),
    status: 200,
    expect: async (w) => [await channelAsRest(w, 'CHANNEL_UPDATE', w.textId)],
    audits: 1,
  },
  {
    name: 'PUT /channels/{id}/permissions/{id} → CHANNEL_UPDATE with the overwrite',
    setup: async (w) => ({ roleId: await createRole(w, 'Overwritten') }),
    request: (w, s) => ({
      method: 'PUT',
      path: `/channels/${w.textId}/permissions/${s['roleId'] ?? ''}`,
      payload: { type: 0, allow: '0', deny: String(P.SEND_MESSAGES) },
    }),
    status: 204,
    expect: async (w, s) => {
      const expected = await channelAsRest(w, 'CHANNEL_UPDATE', w.textId);
      expect(expected.data['permission_overwrites']).toContainEqual(
        expect.objectContaining({ id: s['roleId'], deny: String(P.SEND_MESSAGES) }),
      );
      return [{ ...expected, exact: false }];
    },
    audits: 1,
  },
  {
    name: 'DELETE /channels/{id}/permissions/{id} → CHANNEL_UPDATE without it',
    setup: async (w) => {
      const roleId = await createRole(w, 'Unwritten');
      await w.fx.call('PUT', `/channels/${w.textId}/permissions/${roleId}`, {
        auth: w.owner,
        payload: { type: 0, allow: '0', deny: String(P.ADD_REACTIONS) },
      });
      return { roleId };
    },
    request: (w, s) => ({
      method: 'DELETE',
      path: `/channels/${w.textId}/permissions/${s['roleId'] ?? ''}`,
    }),
    status: 204,
    expect: async (w) => [await channelAsRest(w, 'CHANNEL_UPDATE', w.textId)],
    audits: 1,
  },
  {
    name: 'PATCH /guilds/{id}/channels (move into a category, synced) → CHANNEL_UPDATE',
    setup: async (w) => ({
      categoryId: await createChannel(w, { name: 'cat', type: ChannelTypes.GUILD_CATEGORY }),
      channelId: await createChannel(w, { name: 'mover' }),
    }),
    request: (w, s) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}/channels`,
      payload: [{ id: s['channelId'], parent_id: s['categoryId'], lock_permissions: true }],
    }),
    status: 204,
    expect: async (w, s) => [await channelAsRest(w, 'CHANNEL_UPDATE', s['channelId'] ?? '')],
    audits: 1,
  },
  {
    name: 'DELETE /channels/{id} (a category) → CHANNEL_DELETE, its channels lose their parent',
    setup: async (w) => {
      const categoryId = await createChannel(w, {
        name: 'gone',
        type: ChannelTypes.GUILD_CATEGORY,
      });
      const childId = await createChannel(w, { name: 'child', parent_id: categoryId });
      return {
        categoryId,
        childId,
        before: JSON.stringify(await w.get(`/channels/${categoryId}`)),
      };
    },
    request: (_w, s) => ({ method: 'DELETE', path: `/channels/${s['categoryId'] ?? ''}` }),
    status: 200,
    expect: async (w, s) => [
      {
        type: 'CHANNEL_DELETE',
        guildId: w.fx.guildId,
        channelId: s['categoryId'] ?? '',
        data: JSON.parse(s['before'] ?? '{}') as Record<string, unknown>,
        exact: true,
      },
      await channelAsRest(w, 'CHANNEL_UPDATE', s['childId'] ?? ''),
    ],
    audits: 1,
  },
  {
    name: 'PUT /channels/{id}/voice-status → VOICE_CHANNEL_STATUS_UPDATE',
    request: (w) => ({
      method: 'PUT',
      path: `/channels/${w.voiceId}/voice-status`,
      payload: { status: 'Playing chess' },
    }),
    status: 204,
    expect: (w) => [
      {
        type: 'VOICE_CHANNEL_STATUS_UPDATE',
        guildId: w.fx.guildId,
        channelId: w.voiceId,
        data: { id: w.voiceId, guild_id: w.fx.guildId, status: 'Playing chess' },
        exact: true,
      },
    ],
    audits: 1,
  },
];

/** Requests that fail: they must announce nothing at all (no event, no audit entry). */
const REFUSED: RefusedCase[] = [
  {
    name: 'PATCH /guilds/{id} without MANAGE_GUILD',
    request: (w, p) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}`,
      auth: p.token,
      payload: { name: 'nope' },
    }),
  },
  {
    name: 'POST /guilds/{id}/roles without MANAGE_ROLES',
    request: (w, p) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/roles`,
      auth: p.token,
      payload: { name: 'nope' },
    }),
  },
  {
    name: 'PATCH /channels/{id} without MANAGE_CHANNELS',
    request: (w, p) => ({
      method: 'PATCH',
      path: `/channels/${w.textId}`,
      auth: p.token,
      payload: { topic: 'nope' },
    }),
  },
  {
    name: 'DELETE /guilds/{id}/members/{owner}',
    request: (w, p) => ({
      method: 'DELETE',
      path: `/guilds/${w.fx.guildId}/members/${w.fx.owner.userId}`,
      auth: p.token,
    }),
  },
  {
    name: 'PUT /guilds/{id}/bans/{id} without BAN_MEMBERS',
    request: (w, p) => ({
      method: 'PUT',
      path: `/guilds/${w.fx.guildId}/bans/${w.fx.owner.userId}`,
      auth: p.token,
      payload: {},
    }),
  },
  {
    name: 'POST /guilds/{id}/emojis with a bad image',
    request: (w) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/emojis`,
      payload: { name: 'bad', image: 'data:image/png;base64,AAAA' },
    }),
  },
  {
    name: 'POST /guilds/{id}/bulk-ban when nobody can be banned',
    request: (w) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/bulk-ban`,
      payload: { user_ids: [w.fx.owner.userId] },
    }),
  },
  {
    name: 'PATCH /users/@me with an invalid username',
    request: (_w, p) => ({
      method: 'PATCH',
      path: '/users/@me',
      auth: p.token,
      payload: { username: 'x' },
    }),
  },
];

describeDrivers('gateway dispatches of REST changes on $driver', (driver) => {
  const world = useDispatchWorld(driver);

  it.each(CASES)('$name', (c) => world.runCase(c));

  it.each(REFUSED)('announces nothing when refused: $name', (c) => world.runRefused(c));

  it('adding a bot, creating and deleting a guild announce membership', async () => {
    const { app } = world.w.server;
    const owner = world.w.fx.owner.userId;
    const created = await app.services.guilds.create({
      ownerId: owner,
      name: 'Second',
      channels: [{ name: 'general', type: 'text' }],
    });
    const guildId = created.guild.id;
    // On the guild's subject, and on the member's: the node serving the owner joins the guild.
    const joined = await world.flush();
    expect(joined.map((e) => e.subject)).toEqual([
      `dispatch.guild.${guildId}`,
      `dispatch.user.${owner}`,
    ]);
    for (const event of joined) {
      expect(event).toMatchObject({
        type: 'GUILD_MEMBER_ADD',
        guildId,
        userIds: [owner],
        data: { guild_id: guildId, user: { id: owner }, roles: [] },
      });
    }
    await app.services.guilds.addBot({
      guildId,
      applicationId: world.w.fx.bot.applicationId,
      permissions: 0n,
    });
    const added = await world.flush();
    expect(added.map((e) => `${e.type}@${e.subject}`)).toEqual([
      `GUILD_ROLE_CREATE@dispatch.guild.${guildId}`,
      `GUILD_MEMBER_ADD@dispatch.guild.${guildId}`,
      `GUILD_MEMBER_ADD@dispatch.user.${world.w.fx.bot.userId}`,
      `INTEGRATION_CREATE@dispatch.guild.${guildId}`,
      `GUILD_INTEGRATIONS_UPDATE@dispatch.guild.${guildId}`,
      `GUILD_AUDIT_LOG_ENTRY_CREATE@dispatch.guild.${guildId}`,
    ]);
    expect(added[1]?.data).toMatchObject({
      guild_id: guildId,
      user: { id: world.w.fx.bot.userId, bot: true },
    });
    const res = await world.send({ method: 'DELETE', path: `/guilds/${guildId}` });
    expect(res.statusCode).toBe(204);
    expect(await world.flush()).toEqual([
      {
        type: 'GUILD_DELETE',
        subject: `dispatch.guild.${guildId}`,
        guildId,
        channelId: null,
        userIds: [],
        data: { id: guildId },
      },
    ]);
  });
});
