import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import type { GatewayClient } from './support/gatewayClient.js';
import { describeDrivers } from './support/drivers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { seedDeveloper } from './support/testServer.js';
import { uniqueName } from './support/fileServer.js';

/**
 * INTEGRATION_CREATE, INTEGRATION_UPDATE, INTEGRATION_DELETE and GUILD_INTEGRATIONS_UPDATE on a
 * real gateway connection: sent when a bot joins, when its application changes what the
 * integration shows, and when the bot leaves by any route; only to GUILD_INTEGRATIONS sessions.
 */
describeDrivers('integration events on the gateway ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });

  /** Two sessions of the owner: one with GUILD_INTEGRATIONS, one without. */
  const sessions = async () => {
    const token = gw.guild.owner.token;
    const withIntent = (await gw.identify({ token, intents: I.GUILDS | I.GUILD_INTEGRATIONS }))
      .client;
    const without = (await gw.identify({ token, intents: I.GUILDS })).client;
    return { withIntent, without };
  };
  const types = (client: GatewayClient) =>
    client.frames.filter((f) => f.op === 0).map((f) => f.t ?? '');
  /** The integration events a session got (none for a session without the intent). */
  const integrationEvents = (client: GatewayClient) =>
    types(client).filter((t) => t.includes('INTEGRATION'));
  /** A GUILD_UPDATE both sessions get: what came before it has arrived. */
  const barrier = async (name: string, ...clients: GatewayClient[]) => {
    const res = await gw.guild.call('PATCH', `/guilds/${gw.guild.guildId}`, {
      auth: gw.guild.owner.token,
      payload: { name },
    });
    expect(res.statusCode).toBe(200);
    for (const client of clients) {
      await client.next((f) => f.t === 'GUILD_UPDATE' && (f.d as { name: string }).name === name);
    }
  };
  const listed = async () => {
    const res = await gw.guild.call(
      'GET',
      `/guilds/${gw.guild.guildId}/integrations`,
      gw.guild.owner.token,
    );
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string; name: string }[]>();
  };

  it('a bot joining sends INTEGRATION_CREATE with its integration, then the guild update', async () => {
    const { withIntent, without } = await sessions();
    const second = await seedDeveloper(gw.server.app, uniqueName('second'), 'second app');
    await gw.server.app.services.guilds.addBot({
      guildId: gw.guild.guildId,
      applicationId: second.applicationId,
      permissions: 0n,
    });

    const created = await withIntent.dispatch('INTEGRATION_CREATE');
    const integration = (await listed()).find((i) => i.id === second.applicationId);
    expect(created.d).toEqual({ ...integration, guild_id: gw.guild.guildId });
    expect(created.d).toMatchObject({
      type: 'discord',
      id: second.applicationId,
      account: { id: second.applicationId, name: 'second app' },
      application: { id: second.applicationId, bot: { id: second.botUserId, bot: true } },
    });
    const update = await withIntent.dispatch('GUILD_INTEGRATIONS_UPDATE');
    expect(update.d).toEqual({ guild_id: gw.guild.guildId });
    expect(types(withIntent).indexOf('INTEGRATION_CREATE')).toBeLessThan(
      types(withIntent).indexOf('GUILD_INTEGRATIONS_UPDATE'),
    );

    await barrier('after join', withIntent, without);
    expect(types(without)).toContain('GUILD_ROLE_CREATE');
    expect(integrationEvents(without)).toEqual([]);
  });

  it('an application change its integrations show sends INTEGRATION_UPDATE', async () => {
    const { withIntent, without } = await sessions();
    const path = `/applications/${gw.guild.bot.applicationId}`;
    // A change the integration does not show sends nothing.
    const tags = await gw.guild.call('PATCH', path, {
      auth: gw.guild.owner.token,
      payload: { tags: ['quiet'] },
    });
    expect(tags.statusCode).toBe(200);
    await barrier('after tags', withIntent);
    expect(integrationEvents(withIntent)).toEqual([]);

    const renamed = await gw.guild.call('PATCH', path, {
      auth: gw.guild.owner.token,
      payload: { name: 'Renamed', description: 'Now described' },
    });
    expect(renamed.statusCode).toBe(200);
    const updated = await withIntent.dispatch('INTEGRATION_UPDATE');
    expect(updated.d).toMatchObject({
      id: gw.guild.bot.applicationId,
      guild_id: gw.guild.guildId,
      name: 'Renamed',
      application: { name: 'Renamed', description: 'Now described' },
    });
    const integration = (await listed()).find((i) => i.id === gw.guild.bot.applicationId);
    expect(updated.d).toEqual({ ...integration, guild_id: gw.guild.guildId });
    await withIntent.dispatch('GUILD_INTEGRATIONS_UPDATE');
    await barrier('after rename', withIntent, without);
    expect(integrationEvents(without)).toEqual([]);
  });

  it('a bot kicked, or leaving, sends INTEGRATION_DELETE; a person kicked does not', async () => {
    const { withIntent } = await sessions();
    const person = await gw.guild.join('ann');
    const kickedPerson = await gw.guild.call(
      'DELETE',
      `/guilds/${gw.guild.guildId}/members/${person.userId}`,
      gw.guild.owner.token,
    );
    expect(kickedPerson.statusCode).toBe(204);
    await barrier('after person', withIntent);
    expect(integrationEvents(withIntent)).toEqual([]);

    const kicked = await gw.guild.call(
      'DELETE',
      `/guilds/${gw.guild.guildId}/members/${gw.guild.bot.userId}`,
      gw.guild.owner.token,
    );
    expect(kicked.statusCode).toBe(204);
    const deleted = await withIntent.dispatch('INTEGRATION_DELETE');
    expect(deleted.d).toEqual({
      id: gw.guild.bot.applicationId,
      guild_id: gw.guild.guildId,
      application_id: gw.guild.bot.applicationId,
    });
    await withIntent.dispatch('GUILD_INTEGRATIONS_UPDATE');
    expect(await listed()).toEqual([]);

    // A second bot leaves by itself.
    const second = await seedDeveloper(gw.server.app, uniqueName('second'), 'second app');
    await gw.server.app.services.guilds.addBot({
      guildId: gw.guild.guildId,
      applicationId: second.applicationId,
      permissions: 0n,
    });
    await withIntent.dispatch('INTEGRATION_CREATE');
    const left = await gw.guild.call(
      'DELETE',
      `/users/@me/guilds/${gw.guild.guildId}`,
      `Bot ${second.botToken}`,
    );
    expect(left.statusCode).toBe(204);
    await withIntent.next(
      (f) => f.t === 'INTEGRATION_DELETE' && (f.d as { id: string }).id === second.applicationId,
    );
    expect(await listed()).toEqual([]);
  });
});
