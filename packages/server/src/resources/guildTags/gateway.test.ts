import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useGatewayFixture } from '../../../test/support/gatewayFixture.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

describeDrivers('primary_guild on the gateway and on messages ($driver)', (driver) => {
  const fx = useGatewayFixture({ driver });

  it('shows in READY, in USER_UPDATE and on message authors', async () => {
    const { guild } = fx;
    const owner = guild.owner.token;
    await guild.call('PUT', `/guilds/${guild.guildId}/tag`, {
      auth: owner,
      payload: { tag: 'GH' },
    });
    await guild.call('PUT', '/users/@me/primary-guild', {
      auth: owner,
      payload: { identity_guild_id: guild.guildId },
    });
    const shown = {
      identity_guild_id: guild.guildId,
      identity_enabled: true,
      tag: 'GH',
      badge: null,
    };

    const { client, ready } = await fx.identify({ token: owner, intents: I.GUILDS });
    expect((ready['user'] as { primary_guild: unknown }).primary_guild).toEqual(shown);

    const hidden = await guild.call('PUT', '/users/@me/primary-guild', {
      auth: owner,
      payload: { identity_guild_id: guild.guildId, identity_enabled: false },
    });
    expect(hidden.statusCode).toBe(200);
    const update = await client.dispatch('USER_UPDATE');
    expect((update.d as { primary_guild: unknown }).primary_guild).toEqual({
      ...shown,
      identity_enabled: false,
      tag: null,
    });

    await guild.call('PUT', '/users/@me/primary-guild', {
      auth: owner,
      payload: { identity_guild_id: guild.guildId, identity_enabled: true },
    });
    // The guild renames its tag: the wearer is told.
    await guild.call('PUT', `/guilds/${guild.guildId}/tag`, {
      auth: owner,
      payload: { tag: 'GH2' },
    });
    const renamed = await client.next(
      (f) =>
        f.t === 'USER_UPDATE' &&
        (f.d as { primary_guild: { tag: string | null } | null }).primary_guild?.tag === 'GH2',
    );
    expect((renamed.d as { id: string }).id).toBe(guild.owner.userId);
    await guild.call('PUT', `/guilds/${guild.guildId}/tag`, {
      auth: owner,
      payload: { tag: 'GH' },
    });

    const channels = await guild.call('GET', `/guilds/${guild.guildId}/channels`, owner);
    const channelId = channels.json<{ id: string; type: number }[]>().find((c) => c.type === 0)?.id;
    const sent = await guild.call('POST', `/channels/${channelId ?? ''}/messages`, {
      auth: owner,
      payload: { content: 'hello' },
    });
    expect(sent.statusCode).toBe(200);
    expectOpenApiResponse(sent, 'POST', '/channels/{channel_id}/messages');
    expect(sent.json<{ author: { primary_guild: unknown } }>().author.primary_guild).toEqual(shown);
  });
});
