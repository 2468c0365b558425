import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';

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
  const gw = useGatewayFixture({ manualStart: true });

  const setup = async (nowMs: number) => {
    await gw.start({ nowMs });
    const role = await gw.guild.call('POST', `/guilds/${gw.guild.guildId}/roles`, {
      auth: gw.guild.owner.token,
      payload: { name: 'insiders' },
    });
    const roleId = role.json<{ id: string }>().id;
    const secret = await gw.guild.call('POST', `/guilds/${gw.guild.guildId}/channels`, {
      auth: gw.guild.owner.token,
      payload: {
        name: 'secret',
        topic: 'plans',
        permission_overwrites: [
          { id: gw.guild.guildId, type: 0, allow: '0', deny: VIEW },
          { id: roleId, type: 0, allow: VIEW, deny: '0' },
        ],
      },
    });
    expect(secret.statusCode).toBe(201);
    const channels = await gw.server.app.storage.channels.listByGuild(gw.guild.guildId);
    const general = channels.find((c) => c.name === 'general');
    return {
      roleId,
      secretId: secret.json<{ id: string }>().id,
      generalId: general?.id ?? '',
    };
  };
  const session = async (extra: Record<string, unknown> = {}, intents = I.GUILDS) => {
    const { client, guild } = await gw.session({ token: gw.guild.bot.token, intents, ...extra });
    return { client, guild: guild as { channels: Channel[] } };
  };

  it('before November 16, 2026: hidden channels are left out unless the session opts in', async () => {
    const { secretId } = await setup(BEFORE);
    const plain = await session();
    expect(plain.guild.channels.map((c) => c.id)).not.toContain(secretId);
    const optedIn = await session({ capabilities: 1 << 15 });
    const hidden = optedIn.guild.channels.find((c) => c.id === secretId);
    expect(hidden).toMatchObject({
      name: '___hidden___',
      topic: null,
      permission_overwrites: [{ id: gw.guild.guildId, type: 0, allow: '0', deny: VIEW }],
    });
    expect((hidden?.flags ?? 0) & OBFUSCATED).toBe(OBFUSCATED);
    // The app-level toggle does the same.
    await gw.server.app.storage.gateway.setPrivateChannelObfuscation(
      gw.guild.bot.applicationId,
      true,
    );
    const toggled = await session();
    expect(toggled.guild.channels.find((c) => c.id === secretId)?.name).toBe('___hidden___');
  });

  it('from November 16, 2026 every bot gets hidden channels obfuscated; access changes update', async () => {
    const { secretId, roleId } = await setup(AFTER);
    const { client, guild } = await session();
    expect(guild.channels.find((c) => c.id === secretId)?.name).toBe('___hidden___');
    let seen = gw.lastSeq(client);
    const added = await gw.guild.call(
      'PUT',
      `/guilds/${gw.guild.guildId}/members/${gw.guild.bot.userId}/roles/${roleId}`,
      gw.guild.owner.token,
    );
    expect(added.statusCode).toBe(204);
    const gained = (
      await client.next(
        (f) => f.t === 'CHANNEL_UPDATE' && (f.s ?? 0) > seen && (f.d as Channel).id === secretId,
      )
    ).d as Channel;
    expect(gained).toMatchObject({ id: secretId, name: 'secret', topic: 'plans' });
    seen = gw.lastSeq(client);
    await gw.guild.call(
      'DELETE',
      `/guilds/${gw.guild.guildId}/members/${gw.guild.bot.userId}/roles/${roleId}`,
      gw.guild.owner.token,
    );
    const lost = (
      await client.next(
        (f) => f.t === 'CHANNEL_UPDATE' && (f.s ?? 0) > seen && (f.d as Channel).id === secretId,
      )
    ).d as Channel;
    expect(lost.name).toBe('___hidden___');
  });

  it('events of a channel the session cannot view are not sent; content needs the intent', async () => {
    const { secretId, generalId } = await setup(BEFORE);
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    const reader = await session({}, I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    const blind = await session({}, I.GUILDS | I.GUILD_MESSAGES);
    const message = (id: string, channelId: string, mentions: string[] = []) => ({
      type: 'MESSAGE_CREATE',
      guildId: gw.guild.guildId,
      channelId,
      data: {
        id,
        channel_id: channelId,
        guild_id: gw.guild.guildId,
        author: { id: gw.guild.owner.userId },
        content: `hello ${id}`,
        embeds: [],
        attachments: [],
        mentions: mentions.map((m) => ({ id: m })),
      },
    });
    gw.events.dispatch([
      message('1', secretId),
      message('2', generalId),
      message('3', generalId, [gw.guild.bot.userId]),
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
