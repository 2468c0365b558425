import {
  ApplicationFlags,
  GatewayIntentBits as I,
  PermissionFlags as P,
} from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/domain/clock.js';
import { identifyGateway, type Frame, type GatewayClient } from './support/gatewayClient.js';
import { DRIVERS } from './support/drivers.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { startTestServer, type TestServer } from './support/testServer.js';

const NOW = Date.UTC(2026, 5, 1);
const VIEW = P.VIEW_CHANNEL.toString();

describe.each(DRIVERS)('gateway privacy on $driver', ({ driver, skip }) => {
  let server: TestServer;
  let fixture: GuildFixture;
  let generalId: string;
  const clients: GatewayClient[] = [];

  beforeEach(async (ctx) => {
    if (skip) {
      ctx.skip();
      return;
    }
    const clock = manualClock(NOW);
    server = await startTestServer({
      storage: driver,
      listen: true,
      clock,
      gateway: { identifiesPerBucket: 1000 },
    });
    fixture = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
    const channels = await server.app.storage.channels.listByGuild(fixture.guildId);
    generalId = channels.find((c) => c.name === 'general')?.id ?? '';
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.raw.terminate();
    await server.close();
  });

  const session = async (token: string, intents: number) => {
    const { client } = await identifyGateway(server.app.gatewayUrl(), { token, intents });
    clients.push(client);
    const guild = (await client.dispatch('GUILD_CREATE')).d as Record<string, unknown>;
    return { client, guild };
  };
  const owner = (path: string, method: 'POST' | 'PUT' | 'DELETE', payload?: unknown) =>
    fixture.call(method, path, { auth: fixture.owner.token, payload });
  const role = async (permissions: bigint) => {
    const made = await owner(`/guilds/${fixture.guildId}/roles`, 'POST', {
      name: `r${permissions}`,
      permissions: permissions.toString(),
    });
    expect(made.statusCode).toBe(200);
    return made.json<{ id: string }>().id;
  };
  const invitesOf = (client: GatewayClient) =>
    client.frames.filter((f) => f.t === 'INVITE_CREATE' || f.t === 'INVITE_DELETE').map((f) => f.t);

  it('INVITE_CREATE/DELETE reach only those who may manage the channel invites', async () => {
    const intents = I.GUILDS | I.GUILD_INVITES;
    const channelManager = await fixture.join('channelmanager');
    const overwrite = await owner(
      `/channels/${generalId}/permissions/${channelManager.userId}`,
      'PUT',
      { type: 1, allow: P.MANAGE_CHANNELS.toString(), deny: '0' },
    );
    expect(overwrite.statusCode).toBe(204);
    const guildManager = await fixture.join('guildmanager', {
      roleIds: [await role(P.MANAGE_GUILD)],
    });
    const plain = await fixture.join('plain');
    const allowed = [
      await session(fixture.owner.token, intents),
      await session(channelManager.token, intents),
      await session(guildManager.token, intents),
    ];
    const denied = [await session(plain.token, intents), await session(fixture.bot.token, intents)];

    const invite = await owner(`/channels/${generalId}/invites`, 'POST', {});
    expect(invite.statusCode).toBe(200);
    const code = invite.json<{ code: string }>().code;
    expect((await owner(`/invites/${code}`, 'DELETE')).statusCode).toBe(200);
    for (const { client } of allowed) {
      await client.dispatch('INVITE_DELETE');
      expect(invitesOf(client)).toEqual(['INVITE_CREATE', 'INVITE_DELETE']);
    }
    // A later dispatch every session gets: the invite events, earlier on the bus, were not sent.
    await role(0n);
    for (const { client } of denied) {
      await client.dispatch('GUILD_ROLE_CREATE');
      expect(invitesOf(client)).toEqual([]);
    }
  });

  it('GUILD_CREATE carries the scheduled events of channels the session may view', async () => {
    const voice = async (name: string, hidden: boolean) => {
      const made = await owner(`/guilds/${fixture.guildId}/channels`, 'POST', {
        name,
        type: 2,
        permission_overwrites: hidden
          ? [{ id: fixture.guildId, type: 0, allow: '0', deny: VIEW }]
          : [],
      });
      expect(made.statusCode).toBe(201);
      return made.json<{ id: string }>().id;
    };
    const start = new Date(NOW + 3_600_000).toISOString();
    const event = async (body: Record<string, unknown>) => {
      const made = await owner(`/guilds/${fixture.guildId}/scheduled-events`, 'POST', {
        scheduled_start_time: start,
        privacy_level: 2,
        ...body,
      });
      expect(made.statusCode).toBe(200);
      return made.json<{ id: string }>().id;
    };
    const open = await event({
      name: 'open',
      entity_type: 2,
      channel_id: await voice('open', false),
    });
    const secret = await event({
      name: 'secret',
      entity_type: 2,
      channel_id: await voice('secret', true),
    });
    const external = await event({
      name: 'outside',
      entity_type: 3,
      entity_metadata: { location: 'the park' },
      scheduled_end_time: new Date(NOW + 7_200_000).toISOString(),
    });
    const ids = (guild: Record<string, unknown>) =>
      (guild['guild_scheduled_events'] as { id: string }[]).map((e) => e.id).sort();
    const bot = await session(fixture.bot.token, I.GUILDS | I.GUILD_SCHEDULED_EVENTS);
    expect(ids(bot.guild)).toEqual([open, external].sort());
    const everyone = await session(fixture.owner.token, I.GUILDS | I.GUILD_SCHEDULED_EVENTS);
    expect(ids(everyone.guild)).toEqual([open, secret, external].sort());
  });

  it('GUILD_MEMBERS_CHUNK presences follow the custom-status privacy rule', async () => {
    await server.app.storage.applications.update(fixture.bot.applicationId, {
      flags:
        ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED | ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
    });
    const watcher = await session(
      fixture.bot.token,
      I.GUILDS | I.GUILD_MEMBERS | I.GUILD_PRESENCES,
    );
    const sender = await session(fixture.bot.token, I.GUILDS);
    const activities = [
      { type: 4, name: 'Custom Status', state: 'hi' },
      { type: 0, name: 'a game' },
    ];
    const chunkActivities = async (nonce: string) => {
      const seen = watcher.client.frames.at(-1)?.s ?? 0;
      sender.client.send(3, { status: 'online', activities, since: null, afk: false });
      await watcher.client.next((f: Frame) => f.t === 'PRESENCE_UPDATE' && (f.s ?? 0) > seen);
      watcher.client.send(8, {
        guild_id: fixture.guildId,
        user_ids: [fixture.bot.userId],
        presences: true,
        nonce,
      });
      const chunk = await watcher.client.next(
        (f) => f.t === 'GUILD_MEMBERS_CHUNK' && (f.d as { nonce?: string }).nonce === nonce,
      );
      const presences = (
        chunk.d as { presences: { user: { id: string }; activities: unknown[] }[] }
      ).presences;
      return presences.find((p) => p.user.id === fixture.bot.userId)?.activities;
    };
    // Everyone may see it by default; under Friends Only the custom status is left out.
    expect(await chunkActivities('open')).toEqual(activities);
    await server.app.storage.gateway.setProfilePrivacy(fixture.bot.userId, 'friends');
    expect(await chunkActivities('friends')).toEqual([{ type: 0, name: 'a game' }]);
  });
});
