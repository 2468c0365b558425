import { MessageFlags } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useRespondFixture, type SeededInteraction } from '../../../test/support/respondFixture.js';
import { multipartBody } from '../../../test/support/messageFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

interface Wire {
  id: string;
  content: string;
  flags: number;
  type: number;
  edited_timestamp: string | null;
  interaction_metadata?: Record<string, unknown>;
  attachments: { filename: string }[];
}

describeDrivers('interaction followups and the original response ($driver)', (driver) => {
  const f = useRespondFixture(driver);

  const base = (i: SeededInteraction) => `/webhooks/${f.g.bot.applicationId}/${i.token}`;
  const followup = (i: SeededInteraction, payload: unknown) =>
    f.tokenRoute('POST', base(i), payload);
  const original = (i: SeededInteraction) => `${base(i)}/messages/@original`;

  /** A command interaction answered with `body`. */
  async function answered(body: unknown): Promise<SeededInteraction> {
    const interaction = await f.seed({ type: 2 });
    const res = await f.callback(interaction, body);
    expect(res.statusCode, res.body).toBe(204);
    return interaction;
  }

  it("answers GET /webhooks/{app}/{token} with the app's webhook-like object", async () => {
    const interaction = await f.seed({ type: 2 });
    const res = await f.tokenRoute('GET', base(interaction));
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'GET', '/webhooks/1/t');
    expect(res.json()).toMatchObject({
      type: 3,
      id: f.g.bot.applicationId,
      application_id: f.g.bot.applicationId,
      channel_id: f.channelId,
      guild_id: f.g.guildId,
    });
  });

  it('sends, reads, edits and deletes followups carrying original_response_message_id', async () => {
    const interaction = await answered({ type: 4, data: { content: 'first' } });
    const originalId = (await f.stored(interaction.id))?.originalMessageId;
    const sent = await followup(interaction, { content: 'second' });
    expect(sent.statusCode, sent.body).toBe(200);
    expectOpenApiResponse(sent, 'POST', '/webhooks/1/t');
    const message = sent.json<Wire>();
    expect(message).toMatchObject({
      content: 'second',
      type: 20,
      interaction_metadata: { id: interaction.id, original_response_message_id: originalId },
    });
    const path = `${base(interaction)}/messages/${message.id}`;
    const read = await f.tokenRoute('GET', path);
    expectOpenApiResponse(read, 'GET', '/webhooks/1/t/messages/2');
    expect(read.json()).toMatchObject({ id: message.id, content: 'second' });
    const edited = await f.tokenRoute('PATCH', path, { content: 'second, edited' });
    expectOpenApiResponse(edited, 'PATCH', '/webhooks/1/t/messages/2');
    expect(edited.json<Wire>().edited_timestamp).not.toBeNull();
    const deleted = await f.tokenRoute('DELETE', path);
    expect(deleted.statusCode).toBe(204);
    expect((await f.dispatches.next('MESSAGE_DELETE')).data).toMatchObject({ id: message.id });
    f.expectError(await f.tokenRoute('GET', path), 10008, ['GET', '/webhooks/1/t/messages/2']);
    expect((await f.channelMessages()).map((m) => m.content)).toEqual(['first']);
  });

  it('fills the loading message on PATCH @original after a deferral', async () => {
    const interaction = await answered({ type: 5 });
    const loading = await f.tokenRoute('GET', original(interaction));
    expect(loading.json<Wire>().flags).toBe(MessageFlags.LOADING);
    const filled = await f.tokenRoute('PATCH', original(interaction), { content: 'done' });
    expect(filled.statusCode, filled.body).toBe(200);
    expectOpenApiResponse(filled, 'PATCH', '/webhooks/1/t/messages/@original');
    expect(filled.json()).toMatchObject({
      id: loading.json<Wire>().id,
      content: 'done',
      flags: 0,
      edited_timestamp: null,
    });
    expect((await f.dispatches.next('MESSAGE_UPDATE')).data).toMatchObject({ content: 'done' });
  });

  it('makes the first followup after a deferral fill the loading message, keeping it ephemeral', async () => {
    const interaction = await answered({ type: 5, data: { flags: MessageFlags.EPHEMERAL } });
    const originalId = (await f.stored(interaction.id))?.originalMessageId;
    const first = await followup(interaction, { content: 'filled' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      id: originalId,
      content: 'filled',
      flags: MessageFlags.EPHEMERAL,
    });
    const second = await followup(interaction, { content: 'another' });
    expect(second.json<Wire>().id).not.toBe(originalId);
    expect(second.json<Wire>().flags).toBe(0);
    expect((await f.channelMessages()).map((m) => m.content)).toEqual(['another']);
  });

  it("posts the followup when the deferral's placeholder was deleted", async () => {
    const interaction = await answered({ type: 5 });
    expect((await f.tokenRoute('DELETE', original(interaction))).statusCode).toBe(204);
    const sent = await followup(interaction, { content: 'after all' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<Wire>().id).not.toBe((await f.stored(interaction.id))?.originalMessageId);
    expect((await f.channelMessages()).map((m) => m.content)).toEqual(['after all']);
  });

  it('keeps ephemeral followups to the invoking user', async () => {
    const interaction = await answered({ type: 4, data: { content: 'public' } });
    const sent = await followup(interaction, { content: 'secret', flags: MessageFlags.EPHEMERAL });
    expect(sent.statusCode, sent.body).toBe(200);
    const created = f.dispatches
      .ofType('MESSAGE_CREATE')
      .find((event) => (event.data as Wire).content === 'secret');
    expect(created).toMatchObject({ guildId: null, userIds: [f.member.userId] });
    expect((await f.channelMessages()).map((m) => m.content)).toEqual(['public']);
    // The app still reads and edits it through the token.
    const path = `${base(interaction)}/messages/${sent.json<Wire>().id}`;
    expect((await f.tokenRoute('PATCH', path, { content: 'still secret' })).statusCode).toBe(200);
  });

  it('takes followups with files as multipart', async () => {
    const interaction = await answered({ type: 4, data: { content: 'first' } });
    const form = await multipartBody({ content: 'with a file' }, [
      { field: 'files[0]', filename: 'log.txt', contentType: 'text/plain', data: 'lines' },
    ]);
    const res = await f.server.app.http.inject({
      method: 'POST',
      url: `/api/v10${base(interaction)}`,
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Wire>().attachments).toMatchObject([{ filename: 'log.txt' }]);
  });

  it('edits and deletes the original response', async () => {
    const interaction = await answered({ type: 4, data: { content: 'first' } });
    const edited = await f.tokenRoute('PATCH', original(interaction), { content: 'changed' });
    expect(edited.json()).toMatchObject({ content: 'changed' });
    expect(edited.json<Wire>().edited_timestamp).not.toBeNull();
    expect((await f.tokenRoute('DELETE', original(interaction))).statusCode).toBe(204);
    f.expectError(await f.tokenRoute('GET', original(interaction)), 10008, [
      'GET',
      '/webhooks/1/t/messages/@original',
    ]);
    expect(await f.channelMessages()).toEqual([]);
  });

  it('refuses followups before the initial response, after a modal and for bad tokens', async () => {
    const unanswered = await f.seed({ type: 2 });
    const post = ['POST', '/webhooks/1/t'] as [string, string];
    f.expectError(await followup(unanswered, { content: 'x' }), 10015, post);
    f.expectError(await f.tokenRoute('GET', original(unanswered)), 10008, [
      'GET',
      '/webhooks/1/t/messages/@original',
    ]);
    const modal = await answered({
      type: 9,
      data: {
        custom_id: 'm',
        title: 'M',
        components: [{ type: 18, label: 'L', component: { type: 4, custom_id: 'a', style: 1 } }],
      },
    });
    f.expectError(await followup(modal, { content: 'x' }), 10015, post);
    const wrong = { ...unanswered, token: 'not-a-token' };
    f.expectError(await followup(wrong, { content: 'x' }), 10015, post);
    f.expectError(await f.tokenRoute('GET', base(wrong)), 10015, ['GET', '/webhooks/1/t']);
    // A multipart followup with a bad token is refused as a JSON one is.
    const form = await multipartBody({ payload_json: 'not json' }, [
      {
        field: 'files[0]',
        filename: 'big.bin',
        contentType: 'application/octet-stream',
        data: 'x',
      },
    ]);
    const unread = await f.server.app.http.inject({
      method: 'POST',
      url: `/api/v10${base(wrong)}`,
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
    f.expectError(unread, 10015, post);
    expect(await f.channelMessages()).toEqual([]);
  });

  it('ends the token after 15 minutes (50027) and when the interaction failed (10015)', async () => {
    const interaction = await answered({ type: 4, data: { content: 'first' } });
    const failed = await f.seed({ type: 2 });
    f.clock.advance(3_000);
    f.expectError(await f.callback(failed, { type: 5 }), 10062, [
      'POST',
      '/interactions/1/t/callback',
    ]);
    f.expectError(await followup(failed, { content: 'x' }), 10015, ['POST', '/webhooks/1/t']);
    f.clock.advance(15 * 60_000);
    f.expectError(await followup(interaction, { content: 'late' }), 50027, [
      'POST',
      '/webhooks/1/t',
    ]);
    f.expectError(await f.tokenRoute('PATCH', original(interaction), { content: 'late' }), 50027, [
      'PATCH',
      '/webhooks/1/t/messages/@original',
    ]);
    expect((await f.channelMessages()).map((m) => m.content)).toEqual(['first']);
  });

  it("refuses another app's or a missing message, and bad followup bodies", async () => {
    const interaction = await answered({ type: 4, data: { content: 'first' } });
    const mine = await f.g.call('POST', `/channels/${f.channelId}/messages`, {
      auth: f.member.token,
      payload: { content: 'a person' },
    });
    const get = ['GET', '/webhooks/1/t/messages/2'] as [string, string];
    for (const id of [mine.json<Wire>().id, '123', 'nope']) {
      f.expectError(await f.tokenRoute('GET', `${base(interaction)}/messages/${id}`), 10008, get);
    }
    const tooLong = await followup(interaction, { content: 'x'.repeat(2001) });
    f.expectError(tooLong, 50035, ['POST', '/webhooks/1/t']);
    f.expectError(await followup(interaction, {}), 50006, ['POST', '/webhooks/1/t']);
    expect((await f.channelMessages()).map((m) => m.content)).toEqual(['a person', 'first']);
  });
});
