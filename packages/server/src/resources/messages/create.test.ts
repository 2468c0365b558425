import { PermissionFlags as P, snowflakeFromTimestamp } from '@guildhall/protocol';
import { expect, it, onTestFinished } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  overwrite,
  useMessageFixture,
  type WireMessage,
} from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

/** POST /channels/{id}/messages: bodies, permissions, flags, mentions, nonces, replies, forwards, slowmode. */
describeDrivers('creating messages on $driver', (driver) => {
  const fx = useMessageFixture(driver);
  const { clock, url, post, send, expectError } = fx;

  it('creates, reads and lists a message; MESSAGE_CREATE has guild_id and member', async () => {
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const message = await send(fx.g.owner.token, {
      content: `hello <@${fx.g.bot.userId}>`,
      nonce: 'n1',
    });
    expect(message).toMatchObject({
      content: `hello <@${fx.g.bot.userId}>`,
      channel_id: fx.channelId,
      author: { id: fx.g.owner.userId },
      type: 0,
      nonce: 'n1',
      pinned: false,
      tts: false,
      mention_everyone: false,
      components: [],
      attachments: [],
    });
    expect(message.mentions.map((u) => u.id)).toEqual([fx.g.bot.userId]);
    const created = await dispatches.next('MESSAGE_CREATE');
    expect(created).toMatchObject({
      guildId: fx.g.guildId,
      channelId: fx.channelId,
      data: { id: message.id, guild_id: fx.g.guildId, member: { roles: [] } },
    });

    const one = await fx.g.call('GET', url(`/${message.id}`), fx.g.bot.token);
    expect(one.statusCode).toBe(200);
    expectOpenApiResponse(one, 'GET', url(`/${message.id}`));
    expect(one.json()).toMatchObject({ id: message.id, content: message.content });

    const list = await fx.g.call('GET', url('?limit=10'), fx.g.owner.token);
    expect(list.statusCode).toBe(200);
    expectOpenApiResponse(list, 'GET', url('?limit=10'));
    expect(list.json<WireMessage[]>().map((m) => m.id)).toEqual([message.id]);
    expect(await fx.server.app.storage.channels.findById(fx.channelId)).toMatchObject({
      lastMessageId: message.id,
    });
  });

  it('refuses bad bodies with the platform error and stores nothing', async () => {
    const field = (name: string) => ({ name, value: 'v' });
    const cases: [unknown, number][] = [
      [{ content: 'x'.repeat(2001) }, 50035],
      [{ content: 42 }, 50035],
      [{ content: ['a'] }, 50035],
      [{ embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }, 50035],
      [{ embeds: [{ title: 't'.repeat(257) }] }, 50035],
      [{ embeds: [{ description: 'd'.repeat(4097) }] }, 50035],
      [{ embeds: [{ fields: Array.from({ length: 26 }, () => field('n')) }] }, 50035],
      [{ embeds: [{ fields: [{ name: 'n'.repeat(257), value: 'v' }] }] }, 50035],
      [{ embeds: [{ fields: [{ name: 'n', value: 'v'.repeat(1025) }] }] }, 50035],
      [{ embeds: [{ footer: { text: 'f'.repeat(2049) } }] }, 50035],
      [{ embeds: [{ author: { name: 'a'.repeat(257) } }] }, 50035],
      [{ embeds: [{ description: 'd'.repeat(4000) }, { description: 'd'.repeat(2001) }] }, 50035],
      [{ embeds: [{ url: 'javascript:alert(1)' }] }, 50035],
      [{ embeds: [{ color: 0x1000000 }] }, 50035],
      [{ content: 'x', flags: 1 << 1 }, 50035],
      [{ content: 'x', nonce: 'n'.repeat(26) }, 50035],
      [{ content: 'x', tts: 'yes' }, 50035],
      [{ content: 'x', allowed_mentions: { parse: ['users'], users: [fx.g.owner.userId] } }, 50035],
      [{ content: 'x', allowed_mentions: { parse: ['nobody'] } }, 50035],
      [{ content: 'x', message_reference: { message_id: 'abc' } }, 50035],
      [{}, 50006],
      [{ content: '   ' }, 50006],
      [{ embeds: [] }, 50006],
    ];
    for (const [payload, code] of cases) {
      const res = await post(fx.g.owner.token, payload);
      expectError(res, code, ['POST', url()]);
    }
    expect(await fx.server.app.storage.messages.list(fx.channelId, { limit: 100 })).toEqual([]);

    const unknown = await fx.g.call('POST', '/channels/1/messages', {
      auth: fx.g.owner.token,
      payload: { content: 'x' },
    });
    expectError(unknown, 10003, ['POST', '/channels/1/messages']);
    const malformed = await fx.g.call('GET', '/channels/abc/messages/1', fx.g.owner.token);
    expectError(malformed, 10003, ['GET', '/channels/abc/messages/1']);
    const noMessage = await fx.g.call('GET', url('/123'), fx.g.owner.token);
    expectError(noMessage, 10008, ['GET', url('/123')]);
    const badId = await fx.g.call('GET', url('/abc'), fx.g.owner.token);
    expectError(badId, 10008, ['GET', url('/abc')]);
  });

  it('keeps hostile strings verbatim and within the limits', async () => {
    const hostile = [
      `'); DROP TABLE messages; --`,
      '<script>alert(1)</script>',
      '\u202Egnp.exe',
      '𝕳'.repeat(2000),
      '%00%27',
    ];
    for (const content of hostile) {
      const message = await send(fx.g.owner.token, { content });
      expect(message.content).toBe(content);
    }
    const embed = await send(fx.g.owner.token, {
      embeds: [
        {
          title: '<img src=x onerror=alert(1)>',
          description: 'd'.repeat(4096),
          fields: [{ name: 'n', value: 'v', inline: true }],
          timestamp: '2026-01-01T00:00:00Z',
          color: 0xffffff,
        },
      ],
    });
    expect(embed.embeds).toEqual([
      {
        type: 'rich',
        title: '<img src=x onerror=alert(1)>',
        description: 'd'.repeat(4096),
        fields: [{ name: 'n', value: 'v', inline: true }],
        timestamp: '2026-01-01T00:00:00.000Z',
        color: 0xffffff,
      },
    ]);
  });

  it('needs VIEW_CHANNEL and SEND_MESSAGES; timed-out members cannot send', async () => {
    const ann = await fx.g.join('ann');
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: ann.userId,
      deny: P.SEND_MESSAGES,
    });
    expectError(await post(ann.token, { content: 'x' }), 50013, ['POST', url()]);
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: ann.userId,
      deny: P.VIEW_CHANNEL,
    });
    expectError(await post(ann.token, { content: 'x' }), 50001, ['POST', url()]);
    const list = await fx.g.call('GET', url(), ann.token);
    expectError(list, 50001, ['GET', url()]);

    const bob = await fx.g.join('bob');
    await fx.server.app.storage.members.update(fx.g.guildId, bob.userId, {
      communicationDisabledUntil: clock.now() + 60_000,
    });
    expectError(await post(bob.token, { content: 'x' }), 50013, ['POST', url()]);
    clock.advance(60_001);
    await send(bob.token, { content: 'free again' });

    const outsider = await fx.g.join('eve');
    await fx.server.app.storage.members.remove(fx.g.guildId, [outsider.userId]);
    expectError(await post(outsider.token, { content: 'x' }), 50001, ['POST', url()]);
  });

  it('takes SUPPRESS flags; channels without messages answer 50008', async () => {
    const quiet = await send(fx.g.owner.token, { content: 'shh', flags: (1 << 12) | (1 << 2) });
    expect(quiet.flags).toBe((1 << 12) | (1 << 2));
    const category = await fx.server.app.storage.channels.create({
      id: snowflakeFromTimestamp(clock.now() + 5),
      guildId: fx.g.guildId,
      type: 4,
      name: 'category',
      position: 9,
      parentId: null,
      topic: null,
      nsfw: false,
      rateLimitPerUser: 0,
      bitrate: null,
      userLimit: null,
      flags: 0,
      lastMessageId: null,
      createdAt: clock.now(),
    });
    const path = `/channels/${category.id}/messages`;
    const res = await fx.g.call('POST', path, {
      auth: fx.g.owner.token,
      payload: { content: 'x' },
    });
    expectError(res, 50008, ['POST', path]);
  });

  it('drops embeds without EMBED_LINKS and tts without SEND_TTS_MESSAGES', async () => {
    const cat = await fx.g.join('cat');
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: cat.userId,
      deny: P.EMBED_LINKS,
    });
    const message = await send(cat.token, { content: 'x', tts: true, embeds: [{ title: 't' }] });
    expect(message).toMatchObject({ embeds: [], tts: false });
    expectError(await post(cat.token, { embeds: [{ title: 't' }] }), 50006, ['POST', url()]);
    const owner = await send(fx.g.owner.token, {
      content: 'x',
      tts: true,
      embeds: [{ title: 't' }],
    });
    expect(owner).toMatchObject({ tts: true, embeds: [{ type: 'rich', title: 't' }] });
  });

  it('parses user, role and @everyone mentions under allowed_mentions', async () => {
    const dan = await fx.g.join('dan');
    const loud = await fx.server.app.storage.roles.create({
      id: snowflakeFromTimestamp(clock.now() + 1),
      guildId: fx.g.guildId,
      name: 'loud',
      permissions: 0n,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: true,
      managed: false,
      botUserId: null,
      flags: 0,
    });
    const quiet = await fx.server.app.storage.roles.create({
      id: snowflakeFromTimestamp(clock.now() + 2),
      guildId: fx.g.guildId,
      name: 'quiet',
      permissions: 0n,
      position: 2,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    });
    const text = `<@${dan.userId}> <@!${fx.g.owner.userId}> <@123> <@&${loud.id}> <@&${quiet.id}> @everyone`;
    const all = await send(fx.g.owner.token, { content: text });
    expect(all.mentions.map((u) => u.id).sort()).toEqual([dan.userId, fx.g.owner.userId].sort());
    expect(all.mention_roles.sort()).toEqual([loud.id, quiet.id].sort());
    expect(all.mention_everyone).toBe(true);

    // Without MENTION_EVERYONE: no @everyone, and only mentionable roles.
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: dan.userId,
      deny: P.MENTION_EVERYONE,
    });
    const limited = await send(dan.token, { content: text });
    expect(limited.mention_roles).toEqual([loud.id]);
    expect(limited.mention_everyone).toBe(false);

    const none = await send(fx.g.owner.token, { content: text, allowed_mentions: { parse: [] } });
    expect(none).toMatchObject({ mentions: [], mention_roles: [], mention_everyone: false });
    const some = await send(fx.g.owner.token, {
      content: text,
      allowed_mentions: { users: [dan.userId], roles: [loud.id] },
    });
    expect(some.mentions.map((u) => u.id)).toEqual([dan.userId]);
    expect(some.mention_roles).toEqual([loud.id]);
    expect(some.mention_everyone).toBe(false);
  });

  it('enforce_nonce returns the first message for a repeat within minutes', async () => {
    const first = await send(fx.g.owner.token, { content: 'a', nonce: 'abc', enforce_nonce: true });
    const again = await send(fx.g.owner.token, { content: 'b', nonce: 'abc', enforce_nonce: true });
    expect(again.id).toBe(first.id);
    expect(again.content).toBe('a');
    const other = await send(fx.g.owner.token, { content: 'c', nonce: 'abc' });
    expect(other.id).not.toBe(first.id);
    const numeric = await send(fx.g.owner.token, {
      content: 'd',
      nonce: 12345,
      enforce_nonce: true,
    });
    expect(numeric.nonce).toBe('12345');
    clock.advance(6 * 60 * 1000);
    const later = await send(fx.g.owner.token, { content: 'e', nonce: 'abc', enforce_nonce: true });
    expect(later.id).not.toBe(first.id);
    const [ann] = [await fx.g.join('ann')];
    const theirs = await send(ann.token, { content: 'f', nonce: 'abc', enforce_nonce: true });
    expect(theirs.id).not.toBe(later.id);
  });

  it('replies: type 19 with referenced_message and READ_MESSAGE_HISTORY', async () => {
    const original = await send(fx.g.owner.token, { content: 'question' });
    const ann = await fx.g.join('ann');
    const reply = await send(ann.token, {
      content: 'answer',
      message_reference: { message_id: original.id },
    });
    expect(reply).toMatchObject({
      type: 19,
      message_reference: { type: 0, message_id: original.id, channel_id: fx.channelId },
      referenced_message: { id: original.id, content: 'question' },
    });
    // The replied-to author is mentioned unless allowed_mentions leaves replied_user out.
    expect(reply.mentions.map((u) => u.id)).toEqual([fx.g.owner.userId]);
    const quiet = await send(ann.token, {
      content: 'shh',
      message_reference: { message_id: original.id },
      allowed_mentions: { parse: [] },
    });
    expect(quiet.mentions).toEqual([]);

    const unknownRef = { content: 'x', message_reference: { message_id: '123' } };
    expectError(await post(ann.token, unknownRef), 50035, ['POST', url()]);
    const lenient = await send(ann.token, {
      content: 'x',
      message_reference: { message_id: '123', fail_if_not_exists: false },
    });
    expect(lenient.type).toBe(0);
    expect(lenient.message_reference).toBeUndefined();

    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: ann.userId,
      deny: P.READ_MESSAGE_HISTORY,
    });
    const refused = await post(ann.token, {
      content: 'x',
      message_reference: { message_id: original.id },
    });
    expectError(refused, 50013, ['POST', url()]);

    await fx.g.call('DELETE', url(`/${original.id}`), fx.g.owner.token);
    const read = await fx.g.call('GET', url(`/${reply.id}`), fx.g.owner.token);
    expectOpenApiResponse(read, 'GET', url(`/${reply.id}`));
    expect(read.json()).toMatchObject({ id: reply.id, referenced_message: null });
  });

  it('forwards carry a snapshot; an unreadable source is 160014', async () => {
    const original = await send(fx.g.owner.token, { content: 'secret plans' });
    const forward = await post(fx.g.owner.token, {
      message_reference: { type: 1, message_id: original.id, channel_id: fx.channelId },
    });
    expect(forward.statusCode, forward.body).toBe(200);
    // openapi.json knows only reference type 0, so a forward is checked field by field here.
    expect(forward.json()).toMatchObject({
      type: 0,
      content: '',
      message_reference: { type: 1, message_id: original.id, channel_id: fx.channelId },
      message_snapshots: [{ message: { content: 'secret plans', type: 0 } }],
    });
    expect(forward.json<WireMessage>().flags & (1 << 14)).toBe(1 << 14);

    // The bot has no MESSAGE_CONTENT and is not mentioned: it cannot read the source.
    const refused = await post(fx.g.bot.token, {
      message_reference: { type: 1, message_id: original.id, channel_id: fx.channelId },
    });
    expectError(refused, 160014, ['POST', url()]);
    expect(refused.json()).toMatchObject({
      message: 'You cannot forward a message whose content you cannot read.',
    });
    const withContent = await post(fx.g.owner.token, {
      content: 'and this',
      message_reference: { type: 1, message_id: original.id, channel_id: fx.channelId },
    });
    expectError(withContent, 50035, ['POST', url()]);
    const missing = await post(fx.g.owner.token, {
      message_reference: { type: 1, message_id: '123', channel_id: fx.channelId },
    });
    expectError(missing, 10008, ['POST', url()]);

    // A reader without MESSAGE_CONTENT sees the snapshot emptied too.
    const forwardId = forward.json<WireMessage>().id;
    const seen = await fx.g.call('GET', url(`/${forwardId}`), fx.g.bot.token);
    expect(seen.json()).toMatchObject({ message_snapshots: [{ message: { content: '' } }] });
  });

  it('slowmode: users wait unless exempt; bots never', async () => {
    await fx.server.app.storage.channels.update(fx.channelId, { rateLimitPerUser: 10 });
    const ann = await fx.g.join('ann');
    await send(ann.token, { content: '1' });
    clock.advance(4000);
    const waiting = await post(ann.token, { content: '2' });
    expectError(waiting, 20016, ['POST', url()]);
    expect(waiting.json()).toMatchObject({ retry_after: 6 });
    clock.advance(6000);
    await send(ann.token, { content: '3' });

    // Bots are never subject to slowmode.
    await send(fx.g.bot.token, { content: 'b1' });
    await send(fx.g.bot.token, { content: 'b2' });

    // After the split, MANAGE_MESSAGES no longer exempts; BYPASS_SLOWMODE does.
    const mod = await fx.g.join('mod');
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: mod.userId,
      allow: P.MANAGE_MESSAGES,
    });
    await send(mod.token, { content: 'm1' });
    expectError(await post(mod.token, { content: 'm2' }), 20016, ['POST', url()]);
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: mod.userId,
      allow: P.BYPASS_SLOWMODE,
    });
    await send(mod.token, { content: 'm3' });
    await send(mod.token, { content: 'm4' });
  });

  it('slowmode before February 23, 2026: MANAGE_MESSAGES or MANAGE_CHANNELS exempt', async () => {
    clock.set(Date.UTC(2026, 0, 15));
    await fx.server.app.storage.channels.update(fx.channelId, { rateLimitPerUser: 60 });
    const mod = await fx.g.join('mod');
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: mod.userId,
      allow: P.MANAGE_CHANNELS,
    });
    await send(mod.token, { content: 'm1' });
    await send(mod.token, { content: 'm2' });
    const ann = await fx.g.join('ann');
    await send(ann.token, { content: 'a1' });
    expectError(await post(ann.token, { content: 'a2' }), 20016, ['POST', url()]);
  });
});
