import { ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import type {
  APIEmoji,
  APIOverwrite,
  APIRole,
  APISticker,
  APIUser,
  GatewayChannelModifyDispatchData,
  GatewayGuildAuditLogEntryCreateDispatchData,
  GatewayGuildBanModifyDispatchData,
  GatewayGuildDeleteDispatchData,
  GatewayGuildEmojisUpdateDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayGuildModifyDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleModifyDispatchData,
  GatewayGuildScheduledEventCreateDispatchData,
  GatewayGuildStickersUpdateDispatchData,
  GatewayUserUpdateDispatchData,
  GatewayVoiceChannelStatusUpdateDispatchData,
} from 'discord-api-types/v10';
import { afterAll, beforeAll, expect, expectTypeOf, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { PNG_1X1 } from '../../test/support/expressionFixtures.js';
import { guildFixture, type GuildFixture, type Person } from '../../test/support/guildMembers.js';
import { startTestServer, type TestServer } from '../../test/support/testServer.js';
import type { DispatchEnvelope } from '../events/dispatcher.js';
import type { dispatches } from './dispatches.js';

// Compile time: every field discord-api-types requires of each payload is present.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Missing<Ours, Theirs> = Exclude<RequiredKeys<Theirs>, keyof Ours>;
type Data<K extends keyof typeof dispatches> = ReturnType<(typeof dispatches)[K]>['data'];
expectTypeOf<Missing<Data<'guildUpdate'>, GatewayGuildModifyDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'guildDelete'>, GatewayGuildDeleteDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'roleCreate'>, GatewayGuildRoleModifyDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'roleCreate'>['role'], APIRole>>().toBeNever();
expectTypeOf<Missing<Data<'roleDelete'>, GatewayGuildRoleDeleteDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'channel'>, GatewayChannelModifyDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'channel'>['permission_overwrites'][number], APIOverwrite>>().toBeNever();
expectTypeOf<Missing<Data<'memberAdd'>, GatewayGuildMemberAddDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'memberAdd'>['user'], APIUser>>().toBeNever();
expectTypeOf<Missing<Data<'memberUpdate'>, GatewayGuildMemberUpdateDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'memberRemove'>, GatewayGuildMemberRemoveDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'banAdd'>, GatewayGuildBanModifyDispatchData>>().toBeNever();
expectTypeOf<
  Missing<Data<'auditLogEntryCreate'>, GatewayGuildAuditLogEntryCreateDispatchData>
>().toBeNever();
expectTypeOf<Missing<Data<'emojisUpdate'>, GatewayGuildEmojisUpdateDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'emojisUpdate'>['emojis'][number], APIEmoji>>().toBeNever();
expectTypeOf<Missing<Data<'stickersUpdate'>, GatewayGuildStickersUpdateDispatchData>>().toBeNever();
expectTypeOf<Missing<Data<'stickersUpdate'>['stickers'][number], APISticker>>().toBeNever();
expectTypeOf<
  Missing<Data<'scheduledEvent'>, GatewayGuildScheduledEventCreateDispatchData>
>().toBeNever();
expectTypeOf<Missing<Data<'userUpdate'>, GatewayUserUpdateDispatchData>>().toBeNever();
expectTypeOf<
  Missing<Data<'voiceChannelStatusUpdate'>, GatewayVoiceChannelStatusUpdateDispatchData>
>().toBeNever();

/** One dispatch as a gateway node receives it from the bus. */
interface Seen {
  type: string;
  subject: string;
  guildId: string | null;
  channelId: string | null;
  userIds: readonly string[];
  data: Record<string, unknown>;
}

/** A dispatch a case expects; `data` is matched as a subset unless `exact`. */
interface Expected {
  type: string;
  guildId: string | null;
  channelId?: string | null;
  userIds?: string[];
  data: Record<string, unknown>;
  exact?: boolean;
}

interface World {
  server: TestServer;
  fx: GuildFixture;
  owner: string;
  textId: string;
  voiceId: string;
  /** GET as the owner, parsed. */
  get(path: string): Promise<Record<string, unknown>>;
}

type Setup = Record<string, string>;

interface Request {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth?: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

interface Case {
  name: string;
  setup?: (w: World) => Promise<Setup>;
  request: (w: World, s: Setup) => Request;
  status: number;
  /** The dispatches in order, audit entries left out; may read REST to compare payloads. */
  expect: (w: World, s: Setup) => Expected[] | Promise<Expected[]>;
  /** How many GUILD_AUDIT_LOG_ENTRY_CREATE the change announces. */
  audits: number;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const png = Buffer.from(PNG_1X1.split(',')[1] ?? '', 'base64');

/** A multipart/form-data sticker upload as client libraries send it. */
function stickerForm(name: string) {
  const boundary = 'guildhall-dispatch-boundary';
  const field = (key: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('name', name) + field('tags', 'smile') + field('description', '')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

let people = 0;
const join = (w: World, options: { joinedAt?: number } = {}): Promise<Person> =>
  w.fx.join(`person${String((people += 1))}`, options);

const createRole = async (w: World, name: string) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/roles`, {
    auth: w.owner,
    payload: { name },
  });
  return res.json<{ id: string }>().id;
};

const createChannel = async (w: World, payload: Record<string, unknown>) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/channels`, {
    auth: w.owner,
    payload,
  });
  return res.json<{ id: string }>().id;
};

const createEmoji = async (w: World, name: string) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/emojis`, {
    auth: w.owner,
    payload: { name, image: PNG_1X1 },
  });
  return res.json<{ id: string }>().id;
};

const createEvent = async (w: World) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/scheduled-events`, {
    auth: w.owner,
    payload: {
      name: 'Voice hangout',
      privacy_level: 2,
      entity_type: 2,
      channel_id: w.voiceId,
      scheduled_start_time: iso(Date.now() + DAY_MS),
    },
  });
  return res.json<{ id: string }>().id;
};

/** Gateway emoji and stickers do not name their creator. */
const withoutCreator = (item: object) =>
  Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'user'));

const guildEvent = (w: World, type: string, data: Record<string, unknown>): Expected => ({
  type,
  guildId: w.fx.guildId,
  channelId: null,
  data,
});

/** The dispatch of a channel as REST shows it after the change (the payloads must agree). */
const channelAsRest = async (w: World, type: string, channelId: string): Promise<Expected> => ({
  type,
  guildId: w.fx.guildId,
  channelId,
  data: await w.get(`/channels/${channelId}`),
  exact: true,
});

const memberAsRest = async (w: World, userId: string): Promise<Expected> => ({
  ...guildEvent(w, 'GUILD_MEMBER_UPDATE', {
    guild_id: w.fx.guildId,
    ...(await w.get(`/guilds/${w.fx.guildId}/members/${userId}`)),
  }),
  exact: true,
});

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
      const person = await w.fx.join(`taken${String((people += 1))}`, { roleIds: [roleId] });
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

const emojiShape = {
  require_colons: true,
  managed: false,
  animated: false,
  available: true,
  roles: [],
};

/** Requests that fail: they must announce nothing at all (no event, no audit entry). */
const REFUSED: { name: string; request: (w: World, stranger: Person) => Request }[] = [
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
  let w: World;
  const seen: Seen[] = [];
  let flushes = 0;

  /** Waits until everything published so far has reached the collector. */
  const flush = async () => {
    const marker = `flush-${String((flushes += 1))}`;
    const arrived = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (seen.some((e) => e.type === marker)) {
          clearInterval(check);
          resolve();
        }
      }, 2);
    });
    await w.server.app.bus.publish('dispatch.test.flush', {
      type: marker,
      topic: 'dispatch.test.flush',
      data: { guildId: null, channelId: null, userIds: [], data: {} },
      publishedAt: Date.now(),
    });
    await arrived;
    const index = seen.findIndex((e) => e.type === marker);
    return seen.splice(0).slice(0, index);
  };

  const send = (request: Request) =>
    w.server.app.http.inject({
      method: request.method,
      url: `/api/v10${request.path}`,
      headers: { authorization: request.auth ?? w.owner, ...request.headers },
      ...(request.payload === undefined ? {} : { payload: request.payload as object }),
    });

  beforeAll(async () => {
    const server = await startTestServer({ storage: driver });
    const fx = await guildFixture(server, { botPermissions: 0n });
    const [text] = await server.app.storage.channels.listByGuild(fx.guildId);
    const voice = await server.app.storage.channels.create({
      id: String(BigInt(text?.id ?? '0') + 1n),
      guildId: fx.guildId,
      type: ChannelTypes.GUILD_VOICE,
      name: 'Lounge',
      position: 1,
      parentId: null,
      topic: null,
      nsfw: false,
      rateLimitPerUser: 0,
      bitrate: 64000,
      userLimit: 0,
      flags: 0,
      lastMessageId: null,
      createdAt: Date.now(),
    });
    w = {
      server,
      fx,
      owner: fx.owner.token,
      textId: text?.id ?? '',
      voiceId: voice.id,
      async get(path) {
        const res = await server.app.http.inject({
          method: 'GET',
          url: `/api/v10${path}`,
          headers: { authorization: fx.owner.token },
        });
        expect(res.statusCode, `GET ${path}`).toBe(200);
        return res.json<Record<string, unknown>>();
      },
    };
    await server.app.bus.subscribe('dispatch.>', (event, subject) => {
      const envelope = event.data as DispatchEnvelope;
      seen.push({
        type: event.type,
        subject,
        guildId: envelope.guildId,
        channelId: envelope.channelId,
        userIds: envelope.userIds,
        data: envelope.data as Record<string, unknown>,
      });
    });
  });
  afterAll(async () => {
    await w.server.close();
  });

  it.each(CASES)('$name', async (c) => {
    const s = (await c.setup?.(w)) ?? {};
    await flush();
    const res = await send(c.request(w, s));
    expect(res.statusCode, res.body).toBe(c.status);
    const got = await flush();
    const audits = got.filter((e) => e.type === 'GUILD_AUDIT_LOG_ENTRY_CREATE');
    const events = got.filter((e) => e.type !== 'GUILD_AUDIT_LOG_ENTRY_CREATE');
    const expected = await c.expect(w, s);
    expect(events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
    for (const [i, want] of expected.entries()) {
      const event = events[i];
      if (event === undefined) continue;
      expect(event.guildId).toBe(want.guildId);
      expect(event.subject).toBe(
        want.guildId === null
          ? `dispatch.user.${want.userIds?.[0] ?? ''}`
          : `dispatch.guild.${want.guildId}`,
      );
      if (want.channelId !== undefined) expect(event.channelId).toBe(want.channelId);
      if (want.userIds !== undefined) expect(event.userIds).toEqual(want.userIds);
      if (want.exact === true) expect(event.data).toEqual(want.data);
      else expect(event.data).toMatchObject(want.data);
    }
    // Every audit entry the change wrote is announced, as GET /audit-logs shows it.
    expect(audits).toHaveLength(c.audits);
    if (c.audits > 0) {
      const log = (await w.get(`/guilds/${w.fx.guildId}/audit-logs?limit=${String(c.audits)}`)) as {
        audit_log_entries: Record<string, unknown>[];
      };
      const entries = log.audit_log_entries.map((entry) => ({ ...entry, guild_id: w.fx.guildId }));
      expect(audits.map((e) => e.data).reverse()).toEqual(entries);
      for (const audit of audits) {
        expect(audit.guildId).toBe(w.fx.guildId);
        expect(audit.channelId).toBeNull();
      }
    }
  });

  it.each(REFUSED)('announces nothing when refused: $name', async (c) => {
    const stranger = await join(w);
    await flush();
    const res = await send(c.request(w, stranger));
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await flush()).toEqual([]);
  });

  it('adding a bot, creating and deleting a guild announce membership', async () => {
    const { app } = w.server;
    const owner = w.fx.owner.userId;
    const created = await app.services.guilds.create({
      ownerId: owner,
      name: 'Second',
      channels: [{ name: 'general', type: 'text' }],
    });
    const guildId = created.guild.id;
    const [joined] = await flush();
    expect(joined).toMatchObject({
      type: 'GUILD_MEMBER_ADD',
      guildId,
      data: { guild_id: guildId, user: { id: owner }, roles: [] },
    });
    await app.services.guilds.addBot({
      guildId,
      applicationId: w.fx.bot.applicationId,
      permissions: 0n,
    });
    const added = await flush();
    expect(added.map((e) => e.type)).toEqual([
      'GUILD_ROLE_CREATE',
      'GUILD_MEMBER_ADD',
      'GUILD_AUDIT_LOG_ENTRY_CREATE',
    ]);
    expect(added[1]?.data).toMatchObject({
      guild_id: guildId,
      user: { id: w.fx.bot.userId, bot: true },
    });
    const res = await send({ method: 'DELETE', path: `/guilds/${guildId}` });
    expect(res.statusCode).toBe(204);
    expect(await flush()).toEqual([
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
