import { PermissionFlags as P } from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRIVERS } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';

describe.each(DRIVERS)('messages on $driver', ({ driver, skip }) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;

  beforeEach(async () => {
    if (skip) return;
    server = await startTestServer({ storage: driver });
    g = await guildFixture(server, { botPermissions: P.MANAGE_MESSAGES });
    const [channel] = await server.app.storage.channels.listByGuild(g.guildId);
    channelId = channel?.id ?? '';
  });
  afterEach(async () => {
    if (!skip) await server.close();
  });

  const messagesUrl = () => `/channels/${channelId}/messages`;

  it.skipIf(skip)('creates a message, then reads it one by one and in a list', async () => {
    const created = await g.call('POST', messagesUrl(), {
      auth: g.owner.token,
      payload: { content: 'hello <@' + g.bot.userId + '>', nonce: 'n1' },
    });
    expect(created.statusCode).toBe(200);
    expectOpenApiResponse(created, 'POST', messagesUrl());
    const message = created.json<{ id: string; mentions: { id: string }[]; nonce: string }>();
    expect(message).toMatchObject({
      content: `hello <@${g.bot.userId}>`,
      channel_id: channelId,
      author: { id: g.owner.userId },
      type: 0,
      nonce: 'n1',
      pinned: false,
      tts: false,
      mention_everyone: false,
    });
    expect(message.mentions.map((u) => u.id)).toEqual([g.bot.userId]);

    const one = await g.call('GET', `${messagesUrl()}/${message.id}`, g.bot.token);
    expect(one.statusCode).toBe(200);
    expectOpenApiResponse(one, 'GET', `${messagesUrl()}/${message.id}`);
    // The bot has no MESSAGE_CONTENT, but the message mentions it.
    expect(one.json()).toMatchObject({ id: message.id, content: `hello <@${g.bot.userId}>` });

    const list = await g.call('GET', `${messagesUrl()}?limit=10`, g.owner.token);
    expect(list.statusCode).toBe(200);
    expectOpenApiResponse(list, 'GET', `${messagesUrl()}?limit=10`);
    expect(list.json<{ id: string }[]>().map((m) => m.id)).toEqual([message.id]);
  });
});
