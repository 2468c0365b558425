import {
  ApplicationFlags,
  GatewayIntentBits as I,
  PermissionFlags as P,
} from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { GATEWAY_FIXTURE_NOW as NOW, useGatewayFixture } from './support/gatewayFixture.js';

const VIEW = P.VIEW_CHANNEL.toString();

describeDrivers('gateway privacy on $driver', (driver) => {
  const gw = useGatewayFixture({ driver });
  let generalId: string;

  beforeEach(async () => {
    const channels = await gw.server.app.storage.channels.listByGuild(gw.guild.guildId);
    generalId = channels.find((c) => c.name === 'general')?.id ?? '';
  });

  const session = (token: string, intents: number) => gw.session({ token, intents });
  const owner = (path: string, method: 'POST' | 'PUT' | 'DELETE', payload?: unknown) =>
    gw.guild.call(method, path, { auth: gw.guild.owner.token, payload });
  const role = async (permissions: bigint) => {
    const made = await owner(`/guilds/${gw.guild.guildId}/roles`, 'POST', {
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
    const channelManager = await gw.guild.join('channelmanager');
    const overwrite = await owner(
      `/channels/${generalId}/permissions/${channelManager.userId}`,
      'PUT',
      { type: 1, allow: P.MANAGE_CHANNELS.toString(), deny: '0' },
    );
    expect(overwrite.statusCode).toBe(204);
    const guildManager = await gw.guild.join('guildmanager', {
      roleIds: [await role(P.MANAGE_GUILD)],
    });
    const plain = await gw.guild.join('plain');
    const allowed = [
      await session(gw.guild.owner.token, intents),
      await session(channelManager.token, intents),
      await session(guildManager.token, intents),
    ];
    const denied = [
      await session(plain.token, intents),
      await session(gw.guild.bot.token, intents),
    ];

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
      const made = await owner(`/guilds/${gw.guild.guildId}/channels`, 'POST', {
        name,
        type: 2,
        permission_overwrites: hidden
          ? [{ id: gw.guild.guildId, type: 0, allow: '0', deny: VIEW }]
          : [],
      });
      expect(made.statusCode).toBe(201);
      return made.json<{ id: string }>().id;
    };
    const start = new Date(NOW + 3_600_000).toISOString();
    const event = async (body: Record<string, unknown>) => {
      const made = await owner(`/guilds/${gw.guild.guildId}/scheduled-events`, 'POST', {
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
    const bot = await session(gw.guild.bot.token, I.GUILDS | I.GUILD_SCHEDULED_EVENTS);
    expect(ids(bot.guild)).toEqual([open, external].sort());
    const everyone = await session(gw.guild.owner.token, I.GUILDS | I.GUILD_SCHEDULED_EVENTS);
    expect(ids(everyone.guild)).toEqual([open, secret, external].sort());
  });

  it('GUILD_MEMBERS_CHUNK presences follow the custom-status privacy rule', async () => {
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags:
        ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED | ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
    });
    const watcher = await session(
      gw.guild.bot.token,
      I.GUILDS | I.GUILD_MEMBERS | I.GUILD_PRESENCES,
    );
    const sender = await session(gw.guild.bot.token, I.GUILDS);
    const activities = [
      { type: 4, name: 'Custom Status', state: 'hi' },
      { type: 0, name: 'a game' },
    ];
    const chunkActivities = async (nonce: string) => {
      const seen = watcher.client.frames.at(-1)?.s ?? 0;
      sender.client.send(3, { status: 'online', activities, since: null, afk: false });
      await watcher.client.next((f: Frame) => f.t === 'PRESENCE_UPDATE' && (f.s ?? 0) > seen);
      watcher.client.send(8, {
        guild_id: gw.guild.guildId,
        user_ids: [gw.guild.bot.userId],
        presences: true,
        nonce,
      });
      const chunk = await watcher.client.next(
        (f) => f.t === 'GUILD_MEMBERS_CHUNK' && (f.d as { nonce?: string }).nonce === nonce,
      );
      const presences = (
        chunk.d as { presences: { user: { id: string }; activities: unknown[] }[] }
      ).presences;
      return presences.find((p) => p.user.id === gw.guild.bot.userId)?.activities;
    };
    // Everyone may see it by default; under Friends Only the custom status is left out.
    expect(await chunkActivities('open')).toEqual(activities);
    await gw.server.app.storage.gateway.setProfilePrivacy(gw.guild.bot.userId, 'friends');
    expect(await chunkActivities('friends')).toEqual([{ type: 0, name: 'a game' }]);
  });
});
