import { GatewayIntentBits as I, MessageFlags } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useGatewayFixture } from '../../../test/support/gatewayFixture.js';
import { firstChannelId } from '../../../test/support/messageFixtures.js';
import type { MessageAuthor } from './appMessages.js';

const INTENTS = I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT;

describeDrivers('interaction and ephemeral messages on $driver', (driver) => {
  const fx = useGatewayFixture({ driver });

  /** An interaction's author for the fixture's bot, ephemeral to `userId` when flagged so. */
  const interactionAuthor = (userId: string | null): MessageAuthor => ({
    kind: 'interaction',
    applicationId: fx.guild.bot.applicationId,
    botUserId: fx.guild.bot.userId,
    type: 20,
    interactionMetadata: { id: '1', type: 2, user: { id: userId ?? '0' } },
    interaction: null,
    ephemeralUserId: userId,
  });

  it('an ephemeral message reaches only its user, over the gateway and REST', async () => {
    const { app } = fx.server;
    const messages = app.services.messages;
    const channelId = await firstChannelId(app, fx.guild.guildId);
    const ann = await fx.guild.join('ann');
    const owner = await fx.identify({ token: fx.guild.owner.token, intents: INTENTS });
    const other = await fx.identify({ token: ann.token, intents: INTENTS });

    const { wire } = await messages.postAs({
      channelId,
      author: interactionAuthor(fx.guild.owner.userId),
      input: { content: 'only you can see this', flags: MessageFlags.EPHEMERAL },
      files: [],
    });
    expect(wire).toMatchObject({
      flags: MessageFlags.EPHEMERAL,
      webhook_id: fx.guild.bot.applicationId,
      application_id: fx.guild.bot.applicationId,
      author: { id: fx.guild.bot.userId },
      interaction_metadata: { id: '1' },
    });
    const created = await owner.client.dispatch('MESSAGE_CREATE');
    expect(created.d).toMatchObject({
      id: wire.id,
      content: 'only you can see this',
      guild_id: fx.guild.guildId,
    });

    // Edited and deleted: again only its user hears of it.
    const owned = { applicationId: fx.guild.bot.applicationId };
    await messages.editAs(channelId, wire.id, owned, {
      input: { content: 'still only you' },
      files: [],
    });
    expect((await owner.client.dispatch('MESSAGE_UPDATE')).d).toMatchObject({
      id: wire.id,
      content: 'still only you',
    });
    expect(await messages.getAs(channelId, wire.id, owned)).toMatchObject({
      content: 'still only you',
    });

    // Channel reads leave it out, for everyone: list, get, pins, reactions, last_message_id.
    for (const auth of [ann.token, fx.guild.owner.token]) {
      const listed = await fx.guild.call('GET', `/channels/${channelId}/messages`, auth);
      expect(listed.json<{ id: string }[]>().map((m) => m.id)).not.toContain(wire.id);
      const got = await fx.guild.call('GET', `/channels/${channelId}/messages/${wire.id}`, auth);
      expect(got.json()).toMatchObject({ code: 10008 });
    }
    const pin = await fx.guild.call(
      'PUT',
      `/channels/${channelId}/messages/pins/${wire.id}`,
      fx.guild.owner.token,
    );
    expect(pin.json()).toMatchObject({ code: 10008 });
    const react = await fx.guild.call(
      'PUT',
      `/channels/${channelId}/messages/${wire.id}/reactions/%F0%9F%91%8D/@me`,
      fx.guild.owner.token,
    );
    expect(react.json()).toMatchObject({ code: 10008 });
    const channel = await fx.guild.call('GET', `/channels/${channelId}`, ann.token);
    expect(channel.json<{ last_message_id: string | null }>().last_message_id).not.toBe(wire.id);

    // A moderator's bulk delete leaves it out (and never names it).
    const bulk = await fx.guild.call('POST', `/channels/${channelId}/messages/bulk-delete`, {
      auth: fx.guild.owner.token,
      payload: { messages: [wire.id, String(BigInt(wire.id) + 1n)] },
    });
    expect(bulk.statusCode).toBe(204);
    expect(await messages.getAs(channelId, wire.id, owned)).toMatchObject({ id: wire.id });

    await messages.deleteAs(channelId, wire.id, owned);
    expect((await owner.client.dispatch('MESSAGE_DELETE')).d).toMatchObject({ id: wire.id });

    // A message everyone sees, after: ann's session got it and none of the ephemeral's events.
    const { wire: visible } = await messages.postAs({
      channelId,
      author: interactionAuthor(null),
      input: { content: 'for everyone' },
      files: [],
    });
    const seen = await other.client.dispatch('MESSAGE_CREATE');
    expect(seen.d).toMatchObject({ id: visible.id, content: 'for everyone' });
    const annMessages = other.client.frames.filter((f) => String(f.t).startsWith('MESSAGE_'));
    expect(annMessages.map((f) => (f.d as { id: string }).id)).toEqual([visible.id]);
  });

  it('refuses ephemeral webhooks, polls and unknown flags', async () => {
    const { app } = fx.server;
    const channelId = await firstChannelId(app, fx.guild.guildId);
    const webhook: MessageAuthor = {
      kind: 'webhook',
      webhookId: '123456789012345678',
      username: 'hook',
      avatar: null,
      applicationId: null,
    };
    const attempts: [MessageAuthor, Record<string, unknown>][] = [
      [webhook, { content: 'x', flags: MessageFlags.EPHEMERAL }],
      [interactionAuthor(null), { content: 'x', flags: MessageFlags.EPHEMERAL }],
      [interactionAuthor(null), { content: 'x', flags: 1 << 1 }],
      [interactionAuthor(null), { content: 'x', poll: { question: { text: 'q' } } }],
    ];
    for (const [author, input] of attempts) {
      await expect(
        app.services.messages.postAs({ channelId, author, input, files: [] }),
      ).rejects.toMatchObject({ code: 50035 });
    }
    const listed = await app.storage.messages.list(channelId, { limit: 10 });
    expect(listed).toEqual([]);
  });
});
