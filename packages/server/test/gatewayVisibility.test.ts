import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/domain/clock.js';
import { createBusDispatcher } from '../src/events/dispatcher.js';
import { identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { startTestServer, type TestServer } from './support/testServer.js';

const BEFORE = Date.UTC(2026, 5, 1);
const AFTER = Date.UTC(2026, 10, 20);
const VIEW = (1n << 10n).toString();
const OBFUSCATED = 1 << 17;

interface Channel {
  id: string;
  name: string;
  flags: number;
  topic?: string | null;
  permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
}

describe('gateway visibility: VIEW_CHANNEL, obfuscation, MESSAGE_CONTENT', () => {
  let server: TestServer;
  let fixture: GuildFixture;
  const clients: GatewayClient[] = [];

  const setup = async (nowMs: number) => {
    const clock = manualClock(nowMs);
    server = await startTestServer({
      listen: true,
      clock,
      gateway: { identifiesPerBucket: 1000 },
    });
    fixture = await guildFixture(server, { botPermissions: 0n, nowMs: () => clock.now() });
    const role = await fixture.call('POST', `/guilds/${fixture.guildId}/roles`, {
      auth: fixture.owner.token,
      payload: { name: 'insiders' },
    });
    const roleId = role.json<{ id: string }>().id;
    const secret = await fixture.call('POST', `/guilds/${fixture.guildId}/channels`, {
      auth: fixture.owner.token,
      payload: {
        name: 'secret',
        topic: 'plans',
        permission_overwrites: [
          { id: fixture.guildId, type: 0, allow: '0', deny: VIEW },
          { id: roleId, type: 0, allow: VIEW, deny: '0' },
        ],
      },
    });
    expect(secret.statusCode).toBe(201);
    const channels = await server.app.storage.channels.listByGuild(fixture.guildId);
    const general = channels.find((c) => c.name === 'general');
    return {
      clock,
      roleId,
      secretId: secret.json<{ id: string }>().id,
      generalId: general?.id ?? '',
    };
  };
  const session = async (extra: Record<string, unknown> = {}, intents = I.GUILDS) => {
    const { client } = await identifyGateway(server.app.gatewayUrl(), {
      token: fixture.bot.token,
      intents,
      ...extra,
    });
    clients.push(client);
    const guild = (await client.dispatch('GUILD_CREATE')).d as { channels: Channel[] };
    return { client, guild };
  };
  const lastSeq = (client: GatewayClient) => client.frames.at(-1)?.s ?? 0;

  afterEach(async () => {
    for (const c of clients.splice(0)) c.raw.terminate();
    await server.close();
  });

  it('before November 16, 2026: hidden channels are left out unless the session opts in', async () => {
    const { secretId } = await setup(BEFORE);
    const plain = await session();
    expect(plain.guild.channels.map((c) => c.id)).not.toContain(secretId);
    const optedIn = await session({ capabilities: 1 << 15 });
    const hidden = optedIn.guild.channels.find((c) => c.id === secretId);
    expect(hidden).toMatchObject({
      name: '___hidden___',
      topic: null,
      permission_overwrites: [{ id: fixture.guildId, type: 0, allow: '0', deny: VIEW }],
    });
    expect((hidden?.flags ?? 0) & OBFUSCATED).toBe(OBFUSCATED);
    // The app-level toggle does the same.
    await server.app.storage.gateway.setPrivateChannelObfuscation(fixture.bot.applicationId, true);
    const toggled = await session();
    expect(toggled.guild.channels.find((c) => c.id === secretId)?.name).toBe('___hidden___');
  });

  it('from November 16, 2026 every bot gets hidden channels obfuscated; access changes update', async () => {
    const { secretId, roleId } = await setup(AFTER);
    const { client, guild } = await session();
    expect(guild.channels.find((c) => c.id === secretId)?.name).toBe('___hidden___');
    let seen = lastSeq(client);
    const added = await fixture.call(
      'PUT',
      `/guilds/${fixture.guildId}/members/${fixture.bot.userId}/roles/${roleId}`,
      fixture.owner.token,
    );
    expect(added.statusCode).toBe(204);
    const gained = (
      await client.next(
        (f) => f.t === 'CHANNEL_UPDATE' && (f.s ?? 0) > seen && (f.d as Channel).id === secretId,
      )
    ).d as Channel;
    expect(gained).toMatchObject({ id: secretId, name: 'secret', topic: 'plans' });
    seen = lastSeq(client);
    await fixture.call(
      'DELETE',
      `/guilds/${fixture.guildId}/members/${fixture.bot.userId}/roles/${roleId}`,
      fixture.owner.token,
    );
    const lost = (
      await client.next(
        (f) => f.t === 'CHANNEL_UPDATE' && (f.s ?? 0) > seen && (f.d as Channel).id === secretId,
      )
    ).d as Channel;
    expect(lost.name).toBe('___hidden___');
  });

  it('events of a channel the session cannot view are not sent; content needs the intent', async () => {
    const { clock, secretId, generalId } = await setup(BEFORE);
    await server.app.storage.applications.update(fixture.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    const reader = await session({}, I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    const blind = await session({}, I.GUILDS | I.GUILD_MESSAGES);
    const events = createBusDispatcher({ bus: server.app.bus, clock, onError: () => undefined });
    const message = (id: string, channelId: string, mentions: string[] = []) => ({
      type: 'MESSAGE_CREATE',
      guildId: fixture.guildId,
      channelId,
      data: {
        id,
        channel_id: channelId,
        guild_id: fixture.guildId,
        author: { id: fixture.owner.userId },
        content: `hello ${id}`,
        embeds: [],
        attachments: [],
        mentions: mentions.map((m) => ({ id: m })),
      },
    });
    events.dispatch([
      message('1', secretId),
      message('2', generalId),
      message('3', generalId, [fixture.bot.userId]),
    ]);
    const content = async (client: GatewayClient, id: string) =>
      (
        (await client.next((f) => f.t === 'MESSAGE_CREATE' && (f.d as { id: string }).id === id))
          .d as { content: string }
      ).content;
    expect(await content(reader.client, '2')).toBe('hello 2');
    expect(await content(blind.client, '2')).toBe('');
    expect(await content(blind.client, '3')).toBe('hello 3');
    const ids = (client: GatewayClient) =>
      client.frames.filter((f) => f.t === 'MESSAGE_CREATE').map((f) => (f.d as { id: string }).id);
    expect(ids(reader.client)).toEqual(['2', '3']);
    expect(ids(blind.client)).toEqual(['2', '3']);
  });
});
