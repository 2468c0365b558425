import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useInteractionFixture } from '../../../test/support/interactionFixture.js';

const ANYTHING = expect.anything() as unknown;

describeDrivers('component clicks and modal submits: $driver', (driver) => {
  const f = useInteractionFixture(driver);

  /** A message of the app's bot with a button and a user select, stored as validated. */
  let made = 0;
  const appMessage = async (
    authorId = f.guild.bot.userId,
    ephemeralUserId: string | null = null,
  ) => {
    const channelId = await f.channelId();
    made += 1;
    const id = String(BigInt(f.guild.guildId) + 1000n + BigInt(made));
    await f.server.app.storage.messages.create({
      id,
      channelId,
      guildId: f.guild.guildId,
      authorId,
      type: 0,
      content: 'pick',
      embeds: [],
      tts: false,
      mentionEveryone: false,
      mentionUserIds: [],
      mentionRoleIds: [],
      reference: null,
      snapshots: null,
      nonce: null,
      applicationId: null,
      webhookId: null,
      createdAt: f.clock.now(),
      attachments: [],
      ephemeralUserId,
      flags: ephemeralUserId === null ? 0 : 64,
      components: [
        {
          type: 1,
          id: 1,
          components: [
            { type: 2, id: 2, style: 1, custom_id: 'go', label: 'Go' },
            { type: 2, id: 3, style: 1, custom_id: 'off', label: 'Off', disabled: true },
          ],
        },
        {
          type: 1,
          id: 4,
          components: [{ type: 5, id: 5, custom_id: 'who', min_values: 1, max_values: 2 }],
        },
      ],
    });
    return { id, channelId };
  };
  const click = async (
    messageId: string,
    data: Record<string, unknown>,
    token = f.guild.owner.token,
  ) =>
    f.call('POST', '/interactions', token, {
      type: 3,
      application_id: f.guild.bot.applicationId,
      guild_id: f.guild.guildId,
      channel_id: await f.channelId(),
      session_id: 's',
      message_id: messageId,
      data,
    });

  it("sends a click on the app's message with the message, and a selection resolved", async () => {
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const message = await appMessage();
    expect((await click(message.id, { component_type: 2, custom_id: 'go' })).statusCode).toBe(204);
    const clicked = (await bot.dispatch('INTERACTION_CREATE')).d as Record<string, unknown>;
    expect(clicked).toMatchObject({
      type: 3,
      data: { custom_id: 'go', component_type: 2 },
      message: { id: message.id, channel_id: message.channelId },
    });
    const stored = await f.server.app.storage.interactions.findById(String(clicked['id']));
    expect(stored?.messageId).toBe(message.id);

    const picked = await click(message.id, {
      component_type: 5,
      custom_id: 'who',
      values: [f.guild.owner.userId],
    });
    expect(picked.statusCode).toBe(204);
    const selection = await bot.next(
      (frame) =>
        frame.t === 'INTERACTION_CREATE' &&
        (frame.d as { data: { custom_id: string } }).data.custom_id === 'who',
    );
    expect(selection.d).toMatchObject({
      data: {
        values: [f.guild.owner.userId],
        resolved: {
          users: { [f.guild.owner.userId]: { id: f.guild.owner.userId } },
          members: { [f.guild.owner.userId]: { permissions: ANYTHING } },
        },
      },
    });
  });

  it('takes clicks on an ephemeral message from its one user only', async () => {
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const message = await appMessage(f.guild.bot.userId, f.guild.owner.userId);
    expect((await click(message.id, { component_type: 2, custom_id: 'go' })).statusCode).toBe(204);
    expect((await bot.dispatch('INTERACTION_CREATE')).d).toMatchObject({
      type: 3,
      message: { id: message.id, flags: 64 },
    });
    const other = await f.guild.join('bea');
    const refused = await click(message.id, { component_type: 2, custom_id: 'go' }, other.token);
    expect(refused.json()).toMatchObject({ code: 10008 });
  });

  it('refuses clicks the message does not offer, and stores nothing', async () => {
    const message = await appMessage();
    const someoneElse = await appMessage(f.guild.owner.userId);
    const refused = [
      await click(message.id, { component_type: 2, custom_id: 'nope' }),
      await click(message.id, { component_type: 2, custom_id: 'off' }),
      await click(message.id, { component_type: 3, custom_id: 'go' }),
      await click(message.id, { component_type: 5, custom_id: 'who', values: ['x'] }),
      await click(someoneElse.id, { component_type: 2, custom_id: 'go' }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 50035 });
    }
    const unknown = await click('1311111111111111111', { component_type: 2, custom_id: 'go' });
    expect(unknown.json()).toMatchObject({ code: 10008 });
    expect(await f.unsettled()).toBe(0);
  });

  it('takes a modal submit only for the modal shown to that user, once', async () => {
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const message = await appMessage();
    expect((await click(message.id, { component_type: 2, custom_id: 'go' })).statusCode).toBe(204);
    const clicked = (await bot.dispatch('INTERACTION_CREATE')).d as { id: string };
    // What the MODAL callback keeps (the callback route's part, as storage holds it).
    await f.server.app.storage.interactions.setModal(clicked.id, 'feedback', {
      custom_id: 'feedback',
      title: 'Feedback',
      components: [
        {
          type: 18,
          id: 1,
          label: 'Your words',
          component: { type: 4, id: 2, custom_id: 'words', style: 2, required: true },
        },
      ],
    });
    const submit = (auth: string, components: unknown[]) =>
      f.call('POST', '/interactions', auth, {
        type: 5,
        application_id: f.guild.bot.applicationId,
        guild_id: f.guild.guildId,
        channel_id: message.channelId,
        session_id: 's',
        data: { custom_id: 'feedback', components },
      });
    const answer = [
      { type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'words', value: 'a\nb' } },
    ];
    const other = await f.guild.join('other');
    expect((await submit(other.token, answer)).json()).toMatchObject({ code: 10062 });
    const missing = await submit(f.guild.owner.token, []);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 50035 });
    expect(await f.unsettled()).toBe(1);

    expect((await submit(f.guild.owner.token, answer)).statusCode).toBe(204);
    const submitted = await bot.next(
      (frame) => frame.t === 'INTERACTION_CREATE' && (frame.d as { type: number }).type === 5,
    );
    expect(submitted.d).toMatchObject({
      type: 5,
      data: {
        custom_id: 'feedback',
        components: [{ type: 18, component: { custom_id: 'words', value: 'a\nb' } }],
      },
      message: { id: message.id },
    });
    // A modal is submitted once.
    expect((await submit(f.guild.owner.token, answer)).json()).toMatchObject({ code: 10062 });
  });
});
