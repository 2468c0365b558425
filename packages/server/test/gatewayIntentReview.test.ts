import { ApplicationFlags as F, GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';

/** A small review threshold, so the rule is reached with a handful of rows. */
const THRESHOLD = 3;
const properties = { os: 'linux', browser: 'test', device: 'test' };

/**
 * The privileged intent review rule is one rule: IDENTIFY (close 4014) and the application
 * PATCH (the self-serve limited flags) both count the users the app reaches, not its guilds.
 */
describeDrivers('privileged intents: IDENTIFY and the portal count users ($driver)', (driver) => {
  const gw = useGatewayFixture({
    driver,
    gateway: { identifiesPerBucket: 1000, privilegedIntentReviewThreshold: THRESHOLD },
  });

  /** READY, or the close code, of an IDENTIFY of the fixture's bot with GUILD_MEMBERS. */
  const identify = async () => {
    const client = await gw.connect();
    client.send(2, { token: gw.guild.bot.token, intents: I.GUILD_MEMBERS, properties });
    return Promise.race([
      client.dispatch('READY').then(() => 'ready'),
      client.closed.then((c) => c.code),
    ]);
  };
  /** The owner turns on one more limited flag in the portal. */
  const turnOn = (flags: bigint) =>
    gw.guild.call('PATCH', `/applications/${gw.guild.bot.applicationId}`, {
      auth: gw.guild.owner.token,
      payload: { flags: Number(flags) },
    });
  const userCount = async () => {
    const res = await gw.guild.call(
      'GET',
      `/applications/${gw.guild.bot.applicationId}`,
      gw.guild.owner.token,
    );
    return res.json<{ approximate_user_count: number }>().approximate_user_count;
  };

  it('one guild reaching the threshold in users needs a review on both sides', async () => {
    expect((await turnOn(F.GATEWAY_GUILD_MEMBERS_LIMITED)).statusCode).toBe(200);
    expect(await identify()).toBe('ready');

    await gw.guild.join('ann');
    await gw.guild.join('bob');
    expect(await userCount()).toBe(THRESHOLD);
    // The portal refuses a limited flag the app does not have yet...
    const refused = await turnOn(F.GATEWAY_GUILD_MEMBERS_LIMITED | F.GATEWAY_PRESENCE_LIMITED);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 50035,
      errors: { flags: { _errors: [{ code: 'PRIVILEGED_INTENTS_REVIEW_REQUIRED' }] } },
    });
    // ...and IDENTIFY, with the bot in one guild, is held to the same count.
    expect(await identify()).toBe(4014);

    await gw.server.app.storage.gateway.putIntentApproval({
      applicationId: gw.guild.bot.applicationId,
      intent: 'GUILD_MEMBERS',
      status: 'pending',
      approvedAt: null,
      expiresAt: null,
    });
    expect(await identify()).toBe('ready');
  });

  it('many guilds of few users stay self-serve on both sides', async () => {
    const { app } = gw.server;
    for (const name of ['second', 'third', 'fourth']) {
      const { guild } = await app.services.guilds.create({
        ownerId: gw.guild.owner.userId,
        name,
        channels: [{ name: 'general', type: 'text' }],
      });
      await app.services.guilds.addBot({
        guildId: guild.id,
        applicationId: gw.guild.bot.applicationId,
        permissions: 0n,
      });
    }
    expect((await app.storage.guilds.listForUser(gw.guild.bot.userId)).length).toBeGreaterThan(
      THRESHOLD,
    );
    expect(await userCount()).toBe(1);
    expect((await turnOn(F.GATEWAY_GUILD_MEMBERS_LIMITED)).statusCode).toBe(200);
    expect(await identify()).toBe('ready');
  });
});
