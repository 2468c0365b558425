import type { APIEmoji, APISticker } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import {
  DAY_MS,
  createEmoji,
  createEvent,
  createRole,
  emojiShape,
  guildEvent,
  iso,
  join,
  memberAsRest,
  personName,
  stickerForm,
  useDispatchWorld,
  withoutCreator,
  type Case,
} from '../../test/support/dispatchWorld.js';
import { describeDrivers } from '../../test/support/drivers.js';
import { PNG_1X1 } from '../../test/support/expressionFixtures.js';

/** Member, ban, emoji, sticker, scheduled event and user changes (the rest: dispatches.test.ts). */
const CASES: Case[] = [
  {
    name: 'PATCH /guilds/{id}/members/{id} → GUILD_MEMBER_UPDATE',
    setup: async (w) => ({ userId: (await join(w)).userId }),
    request: (w, s) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}/members/${s['userId'] ?? ''}`,
      payload: { nick: 'Nicked' },
    }),
    status: 200,
    expect: async (w, s) => [await memberAsRest(w, s['userId'] ?? '')],
    audits: 1,
  },
  {
    name: 'PUT /guilds/{id}/members/{id}/roles/{id} → GUILD_MEMBER_UPDATE',
    setup: async (w) => ({ userId: (await join(w)).userId, roleId: await createRole(w, 'Given') }),
    request: (w, s) => ({
      method: 'PUT',
      path: `/guilds/${w.fx.guildId}/members/${s['userId'] ?? ''}/roles/${s['roleId'] ?? ''}`,
    }),
    status: 204,
    expect: async (w, s) => {
      const expected = await memberAsRest(w, s['userId'] ?? '');
      expect(expected.data['roles']).toEqual([s['roleId']]);
      return [expected];
    },
    audits: 1,
  },
  {
    name: 'DELETE /guilds/{id}/members/{id}/roles/{id} → GUILD_MEMBER_UPDATE',
    setup: async (w) => {
      const roleId = await createRole(w, 'Taken');
      const person = await w.fx.join(personName('taken'), { roleIds: [roleId] });
      return { userId: person.userId, roleId };
    },
    request: (w, s) => ({
      method: 'DELETE',
      path: `/guilds/${w.fx.guildId}/members/${s['userId'] ?? ''}/roles/${s['roleId'] ?? ''}`,
    }),
    status: 204,
    expect: async (w, s) => [await memberAsRest(w, s['userId'] ?? '')],
    audits: 1,
  },
  {
    name: 'PATCH /guilds/{id}/members/@me → GUILD_MEMBER_UPDATE',
    setup: async (w) => {
      const person = await join(w);
      return { userId: person.userId, token: person.token };
    },
    request: (w, s) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}/members/@me`,
      auth: s['token'] ?? '',
      payload: { nick: 'Me myself' },
    }),
    status: 200,
    expect: async (w, s) => [await memberAsRest(w, s['userId'] ?? '')],
    audits: 1,
  },
  {
    name: 'DELETE /guilds/{id}/members/{id} (kick) → GUILD_MEMBER_REMOVE',
    setup: async (w) => ({ userId: (await join(w)).userId }),
    request: (w, s) => ({
      method: 'DELETE',
      path: `/guilds/${w.fx.guildId}/members/${s['userId'] ?? ''}`,
    }),
    status: 204,
    expect: async (w, s) => [
      {
        ...guildEvent(w, 'GUILD_MEMBER_REMOVE', {
          guild_id: w.fx.guildId,
          user: await w.get(`/users/${s['userId'] ?? ''}`),
        }),
        exact: true,
      },
    ],
    audits: 1,
  },
  {
    name: 'DELETE /users/@me/guilds/{id} (leave) → GUILD_MEMBER_REMOVE, no audit entry',
    setup: async (w) => {
      const person = await join(w);
      return { userId: person.userId, token: person.token };
    },
    request: (w, s) => ({
      method: 'DELETE',
      path: `/users/@me/guilds/${w.fx.guildId}`,
      auth: s['token'] ?? '',
    }),
    status: 204,
    expect: (w, s) => [
      guildEvent(w, 'GUILD_MEMBER_REMOVE', { guild_id: w.fx.guildId, user: { id: s['userId'] } }),
    ],
    audits: 0,
  },
  {
    name: 'POST /guilds/{id}/prune → one GUILD_MEMBER_REMOVE per pruned member',
    setup: async (w) => {
      const longAgo = Date.now() - 40 * DAY_MS;
      const a = await join(w, { joinedAt: longAgo });
      const b = await join(w, { joinedAt: longAgo });
      return { a: a.userId, b: b.userId };
    },
    request: (w) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/prune`,
      payload: { days: 30 },
    }),
    status: 200,
    expect: (w, s) =>
      [s['a'], s['b']]
        .sort()
        .map((id) =>
          guildEvent(w, 'GUILD_MEMBER_REMOVE', { guild_id: w.fx.guildId, user: { id } }),
        ),
    audits: 1,
  },
  {
    name: 'PUT /guilds/{id}/bans/{id} of a member → GUILD_BAN_ADD, GUILD_MEMBER_REMOVE',
    setup: async (w) => ({ userId: (await join(w)).userId }),
    request: (w, s) => ({
      method: 'PUT',
      path: `/guilds/${w.fx.guildId}/bans/${s['userId'] ?? ''}`,
      payload: {},
    }),
    status: 204,
    expect: async (w, s) => {
      const user = await w.get(`/users/${s['userId'] ?? ''}`);
      return [
        { ...guildEvent(w, 'GUILD_BAN_ADD', { guild_id: w.fx.guildId, user }), exact: true },
        { ...guildEvent(w, 'GUILD_MEMBER_REMOVE', { guild_id: w.fx.guildId, user }), exact: true },
      ];
    },
    audits: 1,
  },
  {
    name: 'POST /guilds/{id}/bulk-ban → a GUILD_BAN_ADD per banned user',
    setup: async (w) => ({ a: (await join(w)).userId, b: (await join(w)).userId }),
    request: (w, s) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/bulk-ban`,
      payload: { user_ids: [s['a'], s['b']] },
    }),
    status: 200,
    expect: (w, s) =>
      [s['a'], s['b']].flatMap((id) => [
        guildEvent(w, 'GUILD_BAN_ADD', { guild_id: w.fx.guildId, user: { id } }),
        guildEvent(w, 'GUILD_MEMBER_REMOVE', { guild_id: w.fx.guildId, user: { id } }),
      ]),
    audits: 2,
  },
  {
    name: 'DELETE /guilds/{id}/bans/{id} → GUILD_BAN_REMOVE',
    setup: async (w) => {
      const { userId } = await join(w);
      await w.fx.call('PUT', `/guilds/${w.fx.guildId}/bans/${userId}`, {
        auth: w.owner,
        payload: {},
      });
      return { userId };
    },
    request: (w, s) => ({
      method: 'DELETE',
      path: `/guilds/${w.fx.guildId}/bans/${s['userId'] ?? ''}`,
    }),
    status: 204,
    expect: (w, s) => [
      guildEvent(w, 'GUILD_BAN_REMOVE', { guild_id: w.fx.guildId, user: { id: s['userId'] } }),
    ],
    audits: 1,
  },
  {
    name: 'POST /guilds/{id}/emojis → GUILD_EMOJIS_UPDATE with the whole list',
    request: (w) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/emojis`,
      payload: { name: 'fresh', image: PNG_1X1 },
    }),
    status: 201,
    expect: async (w) => {
      const list = (await w.get(`/guilds/${w.fx.guildId}/emojis`)) as unknown as APIEmoji[];
      const emojis = list.map(withoutCreator);
      return [
        {
          ...guildEvent(w, 'GUILD_EMOJIS_UPDATE', { guild_id: w.fx.guildId, emojis }),
          exact: true,
        },
      ];
    },
    audits: 1,
  },
  {
    name: 'PATCH /guilds/{id}/emojis/{id} → GUILD_EMOJIS_UPDATE',
    setup: async (w) => ({ emojiId: await createEmoji(w, 'before') }),
    request: (w, s) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}/emojis/${s['emojiId'] ?? ''}`,
      payload: { name: 'after' },
    }),
    status: 200,
    expect: (w, s) => [
      guildEvent(w, 'GUILD_EMOJIS_UPDATE', {
        emojis: expect.arrayContaining([
          { ...emojiShape, id: s['emojiId'], name: 'after' },
        ]) as unknown,
      }),
    ],
    audits: 1,
  },
  {
    name: 'DELETE /guilds/{id}/emojis/{id} → GUILD_EMOJIS_UPDATE without it',
    setup: async (w) => ({ emojiId: await createEmoji(w, 'doomed') }),
    request: (w, s) => ({
      method: 'DELETE',
      path: `/guilds/${w.fx.guildId}/emojis/${s['emojiId'] ?? ''}`,
    }),
    status: 204,
    expect: (w, s) => [
      guildEvent(w, 'GUILD_EMOJIS_UPDATE', {
        emojis: expect.not.arrayContaining([
          expect.objectContaining({ id: s['emojiId'] }),
        ]) as unknown,
      }),
    ],
    audits: 1,
  },
  {
    name: 'POST /guilds/{id}/stickers → GUILD_STICKERS_UPDATE with the whole list',
    request: (w) => {
      const form = stickerForm('sticky');
      return {
        method: 'POST',
        path: `/guilds/${w.fx.guildId}/stickers`,
        payload: form.body,
        headers: { 'content-type': form.type },
      };
    },
    status: 201,
    expect: async (w) => {
      const list = (await w.get(`/guilds/${w.fx.guildId}/stickers`)) as unknown as APISticker[];
      const stickers = list.map(withoutCreator);
      return [
        {
          ...guildEvent(w, 'GUILD_STICKERS_UPDATE', { guild_id: w.fx.guildId, stickers }),
          exact: true,
        },
      ];
    },
    audits: 1,
  },
  {
    name: 'POST /guilds/{id}/scheduled-events → GUILD_SCHEDULED_EVENT_CREATE gated by its channel',
    request: (w) => ({
      method: 'POST',
      path: `/guilds/${w.fx.guildId}/scheduled-events`,
      payload: {
        name: 'Created event',
        privacy_level: 2,
        entity_type: 2,
        channel_id: w.voiceId,
        scheduled_start_time: iso(Date.now() + DAY_MS),
      },
    }),
    status: 200,
    expect: async (w) => {
      const list = (await w.get(`/guilds/${w.fx.guildId}/scheduled-events`)) as unknown as {
        id: string;
        name: string;
      }[];
      const created = list.find((e) => e.name === 'Created event');
      return [
        {
          type: 'GUILD_SCHEDULED_EVENT_CREATE',
          guildId: w.fx.guildId,
          channelId: w.voiceId,
          data: await w.get(`/guilds/${w.fx.guildId}/scheduled-events/${created?.id ?? ''}`),
          exact: true,
        },
      ];
    },
    audits: 1,
  },
  {
    name: 'PATCH /guilds/{id}/scheduled-events/{id} → GUILD_SCHEDULED_EVENT_UPDATE',
    setup: async (w) => ({ eventId: await createEvent(w) }),
    request: (w, s) => ({
      method: 'PATCH',
      path: `/guilds/${w.fx.guildId}/scheduled-events/${s['eventId'] ?? ''}`,
      payload: { name: 'Renamed event' },
    }),
    status: 200,
    expect: async (w, s) => [
      {
        type: 'GUILD_SCHEDULED_EVENT_UPDATE',
        guildId: w.fx.guildId,
        channelId: w.voiceId,
        data: await w.get(`/guilds/${w.fx.guildId}/scheduled-events/${s['eventId'] ?? ''}`),
        exact: true,
      },
    ],
    audits: 1,
  },
  {
    name: 'DELETE /guilds/{id}/scheduled-events/{id} → GUILD_SCHEDULED_EVENT_DELETE',
    setup: async (w) => ({ eventId: await createEvent(w) }),
    request: (w, s) => ({
      method: 'DELETE',
      path: `/guilds/${w.fx.guildId}/scheduled-events/${s['eventId'] ?? ''}`,
    }),
    status: 204,
    expect: (w, s) => [
      {
        type: 'GUILD_SCHEDULED_EVENT_DELETE',
        guildId: w.fx.guildId,
        channelId: w.voiceId,
        data: { id: s['eventId'], guild_id: w.fx.guildId, name: 'Voice hangout' },
      },
    ],
    audits: 1,
  },
  {
    name: 'PATCH /users/@me → USER_UPDATE to the user alone',
    setup: async (w) => {
      const person = await join(w);
      return { userId: person.userId, token: person.token };
    },
    request: (_w, s) => ({
      method: 'PATCH',
      path: '/users/@me',
      auth: s['token'] ?? '',
      payload: { global_name: 'Shiny' },
    }),
    status: 200,
    expect: async (w, s) => {
      const me = await w.server.app.http.inject({
        method: 'GET',
        url: '/api/v10/users/@me',
        headers: { authorization: s['token'] ?? '' },
      });
      return [
        {
          type: 'USER_UPDATE',
          guildId: null,
          channelId: null,
          userIds: [s['userId'] ?? ''],
          data: me.json<Record<string, unknown>>(),
          exact: true,
        },
      ];
    },
    audits: 0,
  },
];

describeDrivers('gateway dispatches of REST changes on $driver', (driver) => {
  const world = useDispatchWorld(driver);

  it.each(CASES)('$name', (c) => world.runCase(c));
});
