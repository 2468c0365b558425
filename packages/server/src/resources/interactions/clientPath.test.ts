/**
 * The web client's path through interactions, request for request as packages/web/src/client/apps
 * sends them (its component tests assert the same bodies): the command index, a command invoked
 * from an index entry with the gateway session and a nonce, the outcome and the ephemeral reply
 * on the invoker's session only, autocomplete answered by nonce, and a modal submitted with the
 * client's layout (Text Display echoed, Labels, a legacy row).
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useInteractionFixture } from '../../../test/support/interactionFixture.js';
import { apiRequest } from '../../../test/support/inject.js';

interface IndexEntry {
  id: string;
  name: string;
  type: number;
  application_id: string;
}

const EPHEMERAL = 64;

describeDrivers("the web client's interactions on $driver", (driver) => {
  const f = useInteractionFixture(driver);

  /** The bot's response to an interaction (no Authorization: the token authenticates). */
  const respond = (created: { id: string; token: string }, body: unknown) =>
    apiRequest(f.server.app, `POST /interactions/${created.id}/${created.token}/callback`, {
      payload: body,
    });

  it('invokes from the index, hears the outcome by nonce, and keeps an ephemeral reply to the invoker', async () => {
    await f.command({
      name: 'find',
      description: 'Finds',
      options: [{ type: 3, name: 'q', description: 'Query', required: true, autocomplete: true }],
    });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const ann = await f.guild.join('ann');
    const annSession = await f.gateway(ann.token, I.GUILDS | I.GUILD_MESSAGES);
    const owner = await f.gateway(f.guild.owner.token, I.GUILDS | I.GUILD_MESSAGES);
    const channelId = await f.channelId();
    const sessionId = (await annSession.dispatch('READY')).d as { session_id: string };

    const index = await f.call(
      'GET',
      `/channels/${channelId}/application-command-index`,
      ann.token,
    );
    const entry = index
      .json<{ application_commands: IndexEntry[] }>()
      .application_commands.find((c) => c.name === 'find');
    if (entry === undefined) throw new Error('find is not in the index');
    const base = {
      application_id: entry.application_id,
      guild_id: f.guild.guildId,
      channel_id: channelId,
      session_id: sessionId.session_id,
    };

    // Autocomplete: the answer comes back to Ann with her nonce.
    const typing = await f.call('POST', '/interactions', ann.token, {
      type: 4,
      ...base,
      nonce: 'mz1.1',
      data: {
        id: entry.id,
        name: entry.name,
        type: entry.type,
        options: [{ type: 3, name: 'q', value: 'ab', focused: true }],
      },
    });
    expect(typing.statusCode, typing.body).toBe(204);
    const asked = (await bot.dispatch('INTERACTION_CREATE')).d as { id: string; token: string };
    expect(
      (await respond(asked, { type: 8, data: { choices: [{ name: 'Abc', value: 'abc' }] } }))
        .statusCode,
    ).toBe(204);
    expect((await annSession.dispatch('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE')).d).toEqual({
      id: asked.id,
      choices: [{ name: 'Abc', value: 'abc' }],
      nonce: 'mz1.1',
    });

    // The command itself, answered ephemerally.
    const invoked = await f.call('POST', '/interactions', ann.token, {
      type: 2,
      ...base,
      nonce: 'mz1.2',
      data: {
        id: entry.id,
        name: entry.name,
        type: entry.type,
        options: [{ type: 3, name: 'q', value: 'abc' }],
      },
    });
    expect(invoked.statusCode, invoked.body).toBe(204);
    const created = await bot.next(
      (frame) =>
        frame.t === 'INTERACTION_CREATE' && (frame.d as { type: number; id: string }).type === 2,
    );
    const interaction = created.d as { id: string; token: string };
    expect(
      (await respond(interaction, { type: 4, data: { content: 'for you', flags: EPHEMERAL } }))
        .statusCode,
    ).toBe(204);
    // Each interaction's outcome carries its own nonce (autocomplete's too).
    const outcomes = async () => {
      await annSession.next(
        (frame) =>
          frame.t === 'INTERACTION_SUCCESS' && (frame.d as { nonce: string }).nonce === 'mz1.2',
      );
      return annSession.frames.filter((frame) => frame.t === 'INTERACTION_SUCCESS').map((x) => x.d);
    };
    expect(await outcomes()).toEqual([
      { id: asked.id, nonce: 'mz1.1' },
      { id: interaction.id, nonce: 'mz1.2' },
    ]);
    const reply = await annSession.next(
      (frame) =>
        frame.t === 'MESSAGE_CREATE' && (frame.d as { content: string }).content === 'for you',
    );
    expect(reply.d).toMatchObject({
      flags: EPHEMERAL,
      interaction_metadata: { id: interaction.id, type: 2, user: { id: ann.userId } },
    });

    // The owner's session, in the same channel, never sees it: a later message arrives first.
    const later = await f.call('POST', `/channels/${channelId}/messages`, f.guild.bot.token, {
      content: 'for everyone',
    });
    expect(later.statusCode, later.body).toBe(200);
    await owner.next(
      (frame) =>
        frame.t === 'MESSAGE_CREATE' && (frame.d as { content: string }).content === 'for everyone',
    );
    const ownerSaw = owner.frames
      .filter((frame) => frame.t === 'MESSAGE_CREATE')
      .map((frame) => (frame.d as { content: string }).content);
    expect(ownerSaw).toEqual(['for everyone']);
    expect(owner.frames.some((frame) => frame.t === 'INTERACTION_SUCCESS')).toBe(false);
  });

  it('shows a modal by nonce and takes the submission in the shape the client sends', async () => {
    const command = await f.command({ name: 'form', description: 'A form' });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const person = await f.gateway(f.guild.owner.token, I.GUILDS);
    const sessionId = ((await person.dispatch('READY')).d as { session_id: string }).session_id;
    const channelId = await f.channelId();
    const base = {
      application_id: f.guild.bot.applicationId,
      guild_id: f.guild.guildId,
      channel_id: channelId,
      session_id: sessionId,
    };
    const invoked = await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      ...base,
      nonce: 'form.1',
      data: { id: command['id'], name: 'form', type: 1 },
    });
    expect(invoked.statusCode, invoked.body).toBe(204);
    const created = (await bot.dispatch('INTERACTION_CREATE')).d as { id: string; token: string };
    const shown = await respond(created, {
      type: 9,
      data: {
        custom_id: 'feedback',
        title: 'Feedback',
        components: [
          { type: 10, content: 'Tell us' },
          {
            type: 18,
            label: 'Summary',
            component: { type: 4, custom_id: 'summary', style: 1, max_length: 40 },
          },
          {
            type: 18,
            label: 'Rating',
            component: {
              type: 21,
              custom_id: 'rating',
              options: [
                { label: 'Good', value: 'good' },
                { label: 'Bad', value: 'bad' },
              ],
            },
          },
          {
            type: 18,
            label: 'Platforms',
            component: {
              type: 22,
              custom_id: 'platforms',
              required: false,
              options: [
                { label: 'Web', value: 'web' },
                { label: 'Desktop', value: 'desktop' },
              ],
            },
          },
          { type: 18, label: 'Subscribe', component: { type: 23, custom_id: 'subscribe' } },
        ],
      },
    });
    expect(shown.statusCode, shown.body).toBe(204);
    const modal = (await person.dispatch('INTERACTION_MODAL_CREATE')).d as {
      id: string;
      nonce: string;
      components: { type: number; id: number }[];
    };
    expect(modal).toMatchObject({ id: created.id, nonce: 'form.1', custom_id: 'feedback' });

    // What modalPayload.ts builds from the answers (ModalHost.test.tsx asserts the same shape).
    const submitted = await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 5,
      ...base,
      nonce: 'form.2',
      data: {
        custom_id: 'feedback',
        components: [
          { type: 10, id: modal.components[0]?.id },
          { type: 18, component: { type: 4, custom_id: 'summary', value: 'ok then' } },
          { type: 18, component: { type: 21, custom_id: 'rating', value: 'bad' } },
          { type: 18, component: { type: 22, custom_id: 'platforms', values: ['desktop'] } },
          { type: 18, component: { type: 23, custom_id: 'subscribe', value: true } },
        ],
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(204);
    const submit = await bot.next(
      (frame) => frame.t === 'INTERACTION_CREATE' && (frame.d as { type: number }).type === 5,
    );
    expect(submit.d).toMatchObject({
      data: {
        custom_id: 'feedback',
        components: [
          { type: 10 },
          { type: 18, component: { type: 4, custom_id: 'summary', value: 'ok then' } },
          { type: 18, component: { type: 21, custom_id: 'rating', value: 'bad' } },
          { type: 18, component: { type: 22, custom_id: 'platforms', values: ['desktop'] } },
          { type: 18, component: { type: 23, custom_id: 'subscribe', value: true } },
        ],
      },
    });
  });
});
