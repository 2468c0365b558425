import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useGatewayFixture } from '../../../test/support/gatewayFixture.js';

describeDrivers('DMs over the gateway on $driver', (driver) => {
  const fx = useGatewayFixture({ driver });

  it("a DM reaches the bot's session: CHANNEL_CREATE with the first message, then it", async () => {
    const { client } = await fx.identify({ intents: I.GUILDS | I.DIRECT_MESSAGES });
    const ann = await fx.guild.join('ann');
    const opened = await fx.guild.call('POST', '/users/@me/channels', {
      auth: ann.token,
      payload: { recipient_id: fx.guild.bot.userId },
    });
    const dm = opened.json<{ id: string }>();
    const sent = await fx.guild.call('POST', `/channels/${dm.id}/messages`, {
      auth: ann.token,
      payload: { content: 'hello bot' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const created = await client.dispatch('CHANNEL_CREATE');
    expect(created.d).toMatchObject({ id: dm.id, type: 1, recipients: [{ id: ann.userId }] });
    const message = await client.dispatch('MESSAGE_CREATE');
    expect(message.d).toMatchObject({
      channel_id: dm.id,
      content: 'hello bot',
      author: { id: ann.userId },
    });
    expect(message.d).not.toHaveProperty('guild_id');
    expect(client.frames.indexOf(created)).toBeLessThan(client.frames.indexOf(message));
  });
});
