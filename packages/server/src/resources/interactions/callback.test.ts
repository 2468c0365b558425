import { MessageFlags } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useRespondFixture } from '../../../test/support/respondFixture.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

const CALLBACK = ['POST', '/interactions/1/t/callback'] as [string, string];

describeDrivers('POST /interactions/{id}/{token}/callback ($driver)', (driver) => {
  const f = useRespondFixture(driver);

  it('answers a command with a message by the app, with its interaction metadata', async () => {
    const interaction = await f.seed({ type: 2 });
    const res = await f.callback(interaction, { type: 4, data: { content: 'pong' } });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    const created = await f.dispatches.next('MESSAGE_CREATE');
    expect(created.data).toMatchObject({
      content: 'pong',
      type: 20,
      author: { id: f.g.bot.userId, bot: true },
      webhook_id: f.g.bot.applicationId,
      application_id: f.g.bot.applicationId,
      channel_id: f.channelId,
      guild_id: f.g.guildId,
      interaction_metadata: {
        id: interaction.id,
        type: 2,
        user: { id: f.member.userId },
        authorizing_integration_owners: { '0': f.g.guildId },
      },
    });
    expect(created.guildId).toBe(f.g.guildId);
    const messages = await f.channelMessages();
    expect(messages.map((m) => m.content)).toEqual(['pong']);
    expect(await f.stored(interaction.id)).toMatchObject({
      responseType: 4,
      originalMessageId: messages[0]?.id,
    });
    const success = await f.dispatches.next('INTERACTION_SUCCESS');
    expect(success).toMatchObject({
      userIds: [f.member.userId],
      data: { id: interaction.id, nonce: `nonce-${interaction.id}` },
    });
  });

  it('names the command with its subcommands in the message interaction, read back later', async () => {
    const interaction = await f.seed({
      type: 2,
      options: [{ type: 2, name: 'tag', options: [{ type: 1, name: 'add', options: [] }] }],
    });
    const res = await f.callback(interaction, { type: 4, data: { content: 'added' } });
    expect(res.statusCode, res.body).toBe(204);
    const expected = {
      id: interaction.id,
      type: 2,
      name: 'ping tag add',
      user: { id: f.member.userId },
    };
    expect((await f.dispatches.next('MESSAGE_CREATE')).data).toMatchObject({
      interaction: expected,
    });
    // A reload reads it from the stored message, beside its metadata.
    const [stored] = (await f.channelMessages()) as unknown as Record<string, unknown>[];
    expect(stored).toMatchObject({
      interaction: expected,
      interaction_metadata: { id: interaction.id, type: 2 },
    });
  });

  it('answers with_response=true with the callback response the OpenAPI document describes', async () => {
    const interaction = await f.seed({ type: 2 });
    const res = await f.callback(
      interaction,
      { type: 4, data: { content: 'hi', flags: MessageFlags.EPHEMERAL } },
      { query: '?with_response=true' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, ...CALLBACK);
    const body = res.json<{
      interaction: Record<string, unknown>;
      resource: { type: number; message: { id: string; flags: number; content: string } };
    }>();
    expect(body.interaction).toEqual({
      id: interaction.id,
      type: 2,
      response_message_id: body.resource.message.id,
      response_message_loading: false,
      response_message_ephemeral: true,
      channel_id: f.channelId,
      guild_id: f.g.guildId,
    });
    expect(body.resource).toMatchObject({ type: 4, message: { content: 'hi', flags: 64 } });
  });

  it('keeps an ephemeral response to the invoking user: their sessions only, never channel reads', async () => {
    const interaction = await f.seed({ type: 2 });
    const res = await f.callback(interaction, {
      type: 4,
      data: { content: 'only you', flags: MessageFlags.EPHEMERAL },
    });
    expect(res.statusCode, res.body).toBe(204);
    const created = await f.dispatches.next('MESSAGE_CREATE');
    expect(created).toMatchObject({ guildId: null, userIds: [f.member.userId] });
    expect(created.data).toMatchObject({ content: 'only you', flags: 64 });
    expect(await f.channelMessages()).toEqual([]);
  });

  it('acknowledges once: a second response is 40060 and changes nothing', async () => {
    const interaction = await f.seed({ type: 2 });
    expect((await f.callback(interaction, { type: 4, data: { content: 'one' } })).statusCode).toBe(
      204,
    );
    for (const body of [{ type: 4, data: { content: 'two' } }, { type: 5 }, { type: 9 }]) {
      f.expectError(await f.callback(interaction, body), 40060, CALLBACK);
    }
    expect((await f.channelMessages()).map((m) => m.content)).toEqual(['one']);
  });

  it('lets exactly one of two concurrent responses through', async () => {
    const interaction = await f.seed({ type: 2 });
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((content) => f.callback(interaction, { type: 4, data: { content } })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([204, 400, 400]);
    for (const res of answers.filter((r) => r.statusCode === 400)) {
      expect(res.json()).toMatchObject({ code: 40060 });
    }
    expect(await f.channelMessages()).toHaveLength(1);
  });

  it('answers 10062 for an unknown interaction or token', async () => {
    const interaction = await f.seed({ type: 2 });
    for (const target of [
      { id: interaction.id, token: 'wrong' },
      { id: '123', token: interaction.token },
      { id: 'not-a-snowflake', token: interaction.token },
    ]) {
      f.expectError(await f.callback(target, { type: 4, data: { content: 'x' } }), 10062, CALLBACK);
    }
    expect(await f.stored(interaction.id)).toMatchObject({ responseType: null });
  });

  it('fails an interaction left unanswered for 3 seconds: 10062, and the user is told', async () => {
    const interaction = await f.seed({ type: 2 });
    f.clock.advance(3_000);
    f.expectError(
      await f.callback(interaction, { type: 4, data: { content: 'late' } }),
      10062,
      CALLBACK,
    );
    expect(await f.stored(interaction.id)).toMatchObject({
      responseType: null,
      failedAt: f.clock.now(),
    });
    const failure = await f.dispatches.next('INTERACTION_FAILURE');
    expect(failure).toMatchObject({ userIds: [f.member.userId], data: { id: interaction.id } });
    expect(await f.channelMessages()).toEqual([]);
  });

  it('refuses a callback type the interaction does not take, listing those it takes', async () => {
    const command = await f.seed({ type: 2 });
    for (const type of [1, 6, 7, 8]) {
      const res = await f.callback(command, { type });
      f.expectError(res, 50035, CALLBACK);
      expect(res.json()).toMatchObject({
        errors: {
          type: {
            _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {4, 5, 9}.' }],
          },
        },
      });
    }
    const unknown = await f.callback(command, { type: 3 });
    f.expectError(unknown, 50035, CALLBACK);
    expect(unknown.json()).toMatchObject({
      errors: { type: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] } },
    });
    const autocomplete = await f.seed({ type: 4, options: [] });
    expect(
      (await f.callback(autocomplete, { type: 4, data: { content: 'x' } })).json(),
    ).toMatchObject({
      errors: { type: { _errors: [{ message: 'Value must be one of {8}.' }] } },
    });
    const submit = await f.seed({ type: 5, customId: 'form' });
    expect((await f.callback(submit, { type: 9, data: {} })).json()).toMatchObject({
      errors: { type: { _errors: [{ message: 'Value must be one of {4, 5}.' }] } },
    });
    // LAUNCH_ACTIVITY: no app has an activity until activities exist.
    expect((await f.callback(command, { type: 12 })).json()).toMatchObject({ code: 50035 });
    // None of it acknowledged the command.
    expect((await f.callback(command, { type: 4, data: { content: 'ok' } })).statusCode).toBe(204);
  });

  it('refuses bad message data with the platform errors and keeps the interaction answerable', async () => {
    const interaction = await f.seed({ type: 2 });
    const cases: [unknown, Record<string, unknown>][] = [
      [{ type: 4, data: { content: 'x'.repeat(2001) } }, { data: { content: {} } }],
      [
        { type: 4, data: { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) } },
        { data: { embeds: {} } },
      ],
      [{ type: 4, data: { content: '' } }, {}],
      [
        { type: 4, data: { content: 'x', flags: MessageFlags.CROSSPOSTED } },
        { data: { flags: {} } },
      ],
      [
        {
          type: 4,
          data: { content: 'x', components: Array.from({ length: 41 }, () => ({ type: 1 })) },
        },
        { data: { components: {} } },
      ],
      [{ type: 'four' }, { type: {} }],
    ];
    for (const [body, errors] of cases) {
      const res = await f.callback(interaction, body);
      expect(res.statusCode, res.body).toBe(400);
      expectOpenApiResponse(res, ...CALLBACK);
      expect(res.json()).toMatchObject(
        Object.keys(errors).length === 0 ? { code: 50006 } : { code: 50035, errors },
      );
    }
    expect(await f.channelMessages()).toEqual([]);
    expect(await f.stored(interaction.id)).toMatchObject({ responseType: null });
    expect((await f.callback(interaction, { type: 4, data: { content: 'fine' } })).statusCode).toBe(
      204,
    );
  });

  it('rejects a with_response that is not a boolean', async () => {
    const interaction = await f.seed({ type: 2 });
    const res = await f.callback(interaction, { type: 5 }, { query: '?with_response=maybe' });
    f.expectError(res, 50035, CALLBACK);
    expect(await f.stored(interaction.id)).toMatchObject({ responseType: null });
  });

  it('defers with a loading placeholder, ephemeral when asked', async () => {
    const interaction = await f.seed({ type: 2 });
    const res = await f.callback(
      interaction,
      { type: 5, data: { flags: MessageFlags.EPHEMERAL } },
      { query: '?with_response=true' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, ...CALLBACK);
    expect(res.json()).toMatchObject({
      interaction: { response_message_loading: true, response_message_ephemeral: true },
    });
    expect(res.json()).not.toHaveProperty('resource');
    const created = await f.dispatches.next('MESSAGE_CREATE');
    expect(created).toMatchObject({ userIds: [f.member.userId] });
    expect(created.data).toMatchObject({
      content: '',
      flags: MessageFlags.EPHEMERAL | MessageFlags.LOADING,
      type: 20,
    });
    expect(await f.stored(interaction.id)).toMatchObject({ responseType: 5 });
  });

  it('takes a response with files as multipart', async () => {
    const interaction = await f.seed({ type: 2 });
    const res = await f.callback(
      interaction,
      { type: 4, data: { content: 'a file', attachments: [{ id: 0, description: 'notes' }] } },
      {
        query: '?with_response=true',
        files: [{ field: 'files[0]', filename: 'a.txt', contentType: 'text/plain', data: 'body' }],
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, ...CALLBACK);
    const message = res.json<{
      resource: { message: { attachments: { filename: string; url: string }[] } };
    }>().resource.message;
    expect(message.attachments).toMatchObject([{ filename: 'a.txt', description: 'notes' }]);
  });

  it('answers a message command with a context menu response pointing at the target', async () => {
    const target = await f.g.call('POST', `/channels/${f.channelId}/messages`, {
      auth: f.member.token,
      payload: { content: 'target' },
    });
    const targetId = target.json<{ id: string }>().id;
    const interaction = await f.seed({ type: 2, commandType: 3, targetId });
    const res = await f.callback(
      interaction,
      { type: 4, data: { content: 'about it' } },
      {
        query: '?with_response=true',
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      resource: {
        message: {
          type: 23,
          message_reference: { message_id: targetId },
          interaction_metadata: { target_message_id: targetId },
        },
      },
    });
  });
});
