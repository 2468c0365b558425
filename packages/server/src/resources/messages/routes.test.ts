import {
  ApplicationFlags,
  AuditLogActions,
  ERRORS,
  errorByCode,
  PermissionFlags as P,
  snowflakeFromTimestamp,
} from '@guildhall/protocol';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import {
  firstChannelId,
  overwrite,
  recordDispatches,
} from '../../../test/support/messageFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';

interface WireMessage {
  id: string;
  type: number;
  content: string;
  flags: number;
  tts: boolean;
  mention_everyone: boolean;
  mentions: { id: string }[];
  mention_roles: string[];
  embeds: unknown[];
  edited_timestamp: string | null;
  message_reference?: { type: number; message_id: string; channel_id: string };
  referenced_message?: WireMessage | null;
  message_snapshots?: { message: { content: string } }[];
  nonce?: string;
}

/** After the dated permission splits (February 23, 2026). */
const AFTER_SPLIT = Date.UTC(2026, 5, 1);

describeDrivers('messages on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;
  const clock = manualClock(AFTER_SPLIT);

  beforeEach(async () => {
    clock.set(AFTER_SPLIT);
    server = await startTestServer({ storage: driver, clock });
    g = await guildFixture(server, { botPermissions: P.MANAGE_MESSAGES, nowMs: () => clock.now() });
    channelId = await firstChannelId(server.app, g.guildId);
  });
  afterEach(async () => {
    await server.close();
  });

  const url = (suffix = '') => `/channels/${channelId}/messages${suffix}`;
  const post = (auth: string, payload: unknown) => g.call('POST', url(), { auth, payload });
  const send = async (auth: string, payload: unknown) => {
    const res = await post(auth, payload);
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', url());
    return res.json<WireMessage>();
  };
  /** Checks a refusal: its code, the catalogue's status for it, and openapi.json. */
  const expectError = (
    res: Awaited<ReturnType<GuildFixture['call']>>,
    code: number,
    [method, path]: [string, string],
  ) => {
    expect(res.json(), res.body).toMatchObject({ code });
    const name = errorByCode(code);
    expect(res.statusCode).toBe(name === undefined ? 0 : ERRORS[name].status);
    expectOpenApiResponse(res, method, path);
  };

  it('creates, reads and lists a message; MESSAGE_CREATE has guild_id and member', async () => {
    const dispatches = await recordDispatches(server.app);
    const message = await send(g.owner.token, {
      content: `hello <@${g.bot.userId}>`,
      nonce: 'n1',
    });
    expect(message).toMatchObject({
      content: `hello <@${g.bot.userId}>`,
      channel_id: channelId,
      author: { id: g.owner.userId },
      type: 0,
      nonce: 'n1',
      pinned: false,
      tts: false,
      mention_everyone: false,
      components: [],
      attachments: [],
    });
    expect(message.mentions.map((u) => u.id)).toEqual([g.bot.userId]);
    const created = await dispatches.next('MESSAGE_CREATE');
    expect(created).toMatchObject({
      guildId: g.guildId,
      channelId,
      data: { id: message.id, guild_id: g.guildId, member: { roles: [] } },
    });

    const one = await g.call('GET', url(`/${message.id}`), g.bot.token);
    expect(one.statusCode).toBe(200);
    expectOpenApiResponse(one, 'GET', url(`/${message.id}`));
    expect(one.json()).toMatchObject({ id: message.id, content: message.content });

    const list = await g.call('GET', url('?limit=10'), g.owner.token);
    expect(list.statusCode).toBe(200);
    expectOpenApiResponse(list, 'GET', url('?limit=10'));
    expect(list.json<WireMessage[]>().map((m) => m.id)).toEqual([message.id]);
    expect(await server.app.storage.channels.findById(channelId)).toMatchObject({
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
      [{ content: 'x', allowed_mentions: { parse: ['users'], users: [g.owner.userId] } }, 50035],
      [{ content: 'x', allowed_mentions: { parse: ['nobody'] } }, 50035],
      [{ content: 'x', message_reference: { message_id: 'abc' } }, 50035],
      [{}, 50006],
      [{ content: '   ' }, 50006],
      [{ embeds: [] }, 50006],
    ];
    for (const [payload, code] of cases) {
      const res = await post(g.owner.token, payload);
      expectError(res, code, ['POST', url()]);
    }
    expect(await server.app.storage.messages.list(channelId, { limit: 100 })).toEqual([]);

    const unknown = await g.call('POST', '/channels/1/messages', {
      auth: g.owner.token,
      payload: { content: 'x' },
    });
    expectError(unknown, 10003, ['POST', '/channels/1/messages']);
    const malformed = await g.call('GET', '/channels/abc/messages/1', g.owner.token);
    expectError(malformed, 10003, ['GET', '/channels/abc/messages/1']);
    const noMessage = await g.call('GET', url('/123'), g.owner.token);
    expectError(noMessage, 10008, ['GET', url('/123')]);
    const badId = await g.call('GET', url('/abc'), g.owner.token);
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
      const message = await send(g.owner.token, { content });
      expect(message.content).toBe(content);
    }
    const embed = await send(g.owner.token, {
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
    const ann = await g.join('ann');
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.SEND_MESSAGES });
    expectError(await post(ann.token, { content: 'x' }), 50013, ['POST', url()]);
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.VIEW_CHANNEL });
    expectError(await post(ann.token, { content: 'x' }), 50001, ['POST', url()]);
    const list = await g.call('GET', url(), ann.token);
    expectError(list, 50001, ['GET', url()]);

    const bob = await g.join('bob');
    await server.app.storage.members.update(g.guildId, bob.userId, {
      communicationDisabledUntil: clock.now() + 60_000,
    });
    expectError(await post(bob.token, { content: 'x' }), 50013, ['POST', url()]);
    clock.advance(60_001);
    await send(bob.token, { content: 'free again' });

    const outsider = await g.join('eve');
    await server.app.storage.members.remove(g.guildId, [outsider.userId]);
    expectError(await post(outsider.token, { content: 'x' }), 50001, ['POST', url()]);
  });

  it('takes SUPPRESS flags; channels without messages answer 50008', async () => {
    const quiet = await send(g.owner.token, { content: 'shh', flags: (1 << 12) | (1 << 2) });
    expect(quiet.flags).toBe((1 << 12) | (1 << 2));
    const category = await server.app.storage.channels.create({
      id: snowflakeFromTimestamp(clock.now() + 5),
      guildId: g.guildId,
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
    const res = await g.call('POST', path, { auth: g.owner.token, payload: { content: 'x' } });
    expectError(res, 50008, ['POST', path]);
  });

  it('drops embeds without EMBED_LINKS and tts without SEND_TTS_MESSAGES', async () => {
    const cat = await g.join('cat');
    await overwrite(server.app, { channelId, userId: cat.userId, deny: P.EMBED_LINKS });
    const message = await send(cat.token, { content: 'x', tts: true, embeds: [{ title: 't' }] });
    expect(message).toMatchObject({ embeds: [], tts: false });
    expectError(await post(cat.token, { embeds: [{ title: 't' }] }), 50006, ['POST', url()]);
    const owner = await send(g.owner.token, {
      content: 'x',
      tts: true,
      embeds: [{ title: 't' }],
    });
    expect(owner).toMatchObject({ tts: true, embeds: [{ type: 'rich', title: 't' }] });
  });

  it('parses user, role and @everyone mentions under allowed_mentions', async () => {
    const dan = await g.join('dan');
    const loud = await server.app.storage.roles.create({
      id: snowflakeFromTimestamp(clock.now() + 1),
      guildId: g.guildId,
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
    const quiet = await server.app.storage.roles.create({
      id: snowflakeFromTimestamp(clock.now() + 2),
      guildId: g.guildId,
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
    const text = `<@${dan.userId}> <@!${g.owner.userId}> <@123> <@&${loud.id}> <@&${quiet.id}> @everyone`;
    const all = await send(g.owner.token, { content: text });
    expect(all.mentions.map((u) => u.id).sort()).toEqual([dan.userId, g.owner.userId].sort());
    expect(all.mention_roles.sort()).toEqual([loud.id, quiet.id].sort());
    expect(all.mention_everyone).toBe(true);

    // Without MENTION_EVERYONE: no @everyone, and only mentionable roles.
    await overwrite(server.app, { channelId, userId: dan.userId, deny: P.MENTION_EVERYONE });
    const limited = await send(dan.token, { content: text });
    expect(limited.mention_roles).toEqual([loud.id]);
    expect(limited.mention_everyone).toBe(false);

    const none = await send(g.owner.token, { content: text, allowed_mentions: { parse: [] } });
    expect(none).toMatchObject({ mentions: [], mention_roles: [], mention_everyone: false });
    const some = await send(g.owner.token, {
      content: text,
      allowed_mentions: { users: [dan.userId], roles: [loud.id] },
    });
    expect(some.mentions.map((u) => u.id)).toEqual([dan.userId]);
    expect(some.mention_roles).toEqual([loud.id]);
    expect(some.mention_everyone).toBe(false);
  });

  it('enforce_nonce returns the first message for a repeat within minutes', async () => {
    const first = await send(g.owner.token, { content: 'a', nonce: 'abc', enforce_nonce: true });
    const again = await send(g.owner.token, { content: 'b', nonce: 'abc', enforce_nonce: true });
    expect(again.id).toBe(first.id);
    expect(again.content).toBe('a');
    const other = await send(g.owner.token, { content: 'c', nonce: 'abc' });
    expect(other.id).not.toBe(first.id);
    const numeric = await send(g.owner.token, {
      content: 'd',
      nonce: 12345,
      enforce_nonce: true,
    });
    expect(numeric.nonce).toBe('12345');
    clock.advance(6 * 60 * 1000);
    const later = await send(g.owner.token, { content: 'e', nonce: 'abc', enforce_nonce: true });
    expect(later.id).not.toBe(first.id);
    const [ann] = [await g.join('ann')];
    const theirs = await send(ann.token, { content: 'f', nonce: 'abc', enforce_nonce: true });
    expect(theirs.id).not.toBe(later.id);
  });

  it('replies: type 19 with referenced_message and READ_MESSAGE_HISTORY', async () => {
    const original = await send(g.owner.token, { content: 'question' });
    const ann = await g.join('ann');
    const reply = await send(ann.token, {
      content: 'answer',
      message_reference: { message_id: original.id },
    });
    expect(reply).toMatchObject({
      type: 19,
      message_reference: { type: 0, message_id: original.id, channel_id: channelId },
      referenced_message: { id: original.id, content: 'question' },
    });
    // The replied-to author is mentioned unless allowed_mentions leaves replied_user out.
    expect(reply.mentions.map((u) => u.id)).toEqual([g.owner.userId]);
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

    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.READ_MESSAGE_HISTORY });
    const refused = await post(ann.token, {
      content: 'x',
      message_reference: { message_id: original.id },
    });
    expectError(refused, 50013, ['POST', url()]);

    await g.call('DELETE', url(`/${original.id}`), g.owner.token);
    const read = await g.call('GET', url(`/${reply.id}`), g.owner.token);
    expectOpenApiResponse(read, 'GET', url(`/${reply.id}`));
    expect(read.json()).toMatchObject({ id: reply.id, referenced_message: null });
  });

  it('forwards carry a snapshot; an unreadable source is 160014', async () => {
    const original = await send(g.owner.token, { content: 'secret plans' });
    const forward = await post(g.owner.token, {
      message_reference: { type: 1, message_id: original.id, channel_id: channelId },
    });
    expect(forward.statusCode, forward.body).toBe(200);
    // openapi.json knows only reference type 0, so a forward is checked field by field here.
    expect(forward.json()).toMatchObject({
      type: 0,
      content: '',
      message_reference: { type: 1, message_id: original.id, channel_id: channelId },
      message_snapshots: [{ message: { content: 'secret plans', type: 0 } }],
    });
    expect(forward.json<WireMessage>().flags & (1 << 14)).toBe(1 << 14);

    // The bot has no MESSAGE_CONTENT and is not mentioned: it cannot read the source.
    const refused = await post(g.bot.token, {
      message_reference: { type: 1, message_id: original.id, channel_id: channelId },
    });
    expectError(refused, 160014, ['POST', url()]);
    expect(refused.json()).toMatchObject({
      message: 'You cannot forward a message whose content you cannot read.',
    });
    const withContent = await post(g.owner.token, {
      content: 'and this',
      message_reference: { type: 1, message_id: original.id, channel_id: channelId },
    });
    expectError(withContent, 50035, ['POST', url()]);
    const missing = await post(g.owner.token, {
      message_reference: { type: 1, message_id: '123', channel_id: channelId },
    });
    expectError(missing, 10008, ['POST', url()]);

    // A reader without MESSAGE_CONTENT sees the snapshot emptied too.
    const forwardId = forward.json<WireMessage>().id;
    const seen = await g.call('GET', url(`/${forwardId}`), g.bot.token);
    expect(seen.json()).toMatchObject({ message_snapshots: [{ message: { content: '' } }] });
  });

  it('applies MESSAGE_CONTENT to every REST read by an app', async () => {
    const ann = await g.join('ann');
    const plain = await send(ann.token, { content: 'hidden', embeds: [{ title: 't' }] });
    const mention = await send(ann.token, { content: `hi <@${g.bot.userId}>` });
    const own = await send(g.bot.token, { content: 'mine' });
    const reply = await send(ann.token, {
      content: `<@${g.bot.userId}> look`,
      message_reference: { message_id: plain.id },
      allowed_mentions: { parse: ['users'] },
    });

    const read = async (id: string) =>
      (await g.call('GET', url(`/${id}`), g.bot.token)).json<WireMessage>();
    expect(await read(plain.id)).toMatchObject({ content: '', embeds: [], attachments: [] });
    expect((await read(mention.id)).content).toBe(`hi <@${g.bot.userId}>`);
    expect((await read(own.id)).content).toBe('mine');
    expect(await read(reply.id)).toMatchObject({
      content: `<@${g.bot.userId}> look`,
      referenced_message: { id: plain.id, content: '' },
    });
    const list = await g.call('GET', url(), g.bot.token);
    expectOpenApiResponse(list, 'GET', url());
    const byId = new Map(list.json<WireMessage[]>().map((m) => [m.id, m]));
    expect(byId.get(plain.id)?.content).toBe('');
    // People read everything.
    expect((await g.call('GET', url(`/${plain.id}`), g.owner.token)).json()).toMatchObject({
      content: 'hidden',
    });

    // Pins and PATCH responses of other people's messages follow the rule too.
    await g.call('PUT', `/channels/${channelId}/messages/pins/${plain.id}`, g.owner.token);
    const pins = await g.call('GET', `/channels/${channelId}/messages/pins`, g.bot.token);
    expect(pins.json()).toMatchObject({ items: [{ message: { id: plain.id, content: '' } }] });
    const suppressed = await g.call('PATCH', url(`/${plain.id}`), {
      auth: g.bot.token,
      payload: { flags: 4 },
    });
    expect(suppressed.json()).toMatchObject({ id: plain.id, flags: 4, content: '', embeds: [] });

    await server.app.storage.applications.update(g.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    expect((await read(plain.id)).content).toBe('hidden');
  });

  it('edits: the author edits content; moderators only flags', async () => {
    const dispatches = await recordDispatches(server.app);
    const message = await send(g.owner.token, { content: 'v1' });
    const path = url(`/${message.id}`);
    clock.advance(1000);
    const edited = await g.call('PATCH', path, {
      auth: g.owner.token,
      payload: { content: `v2 <@${g.bot.userId}>`, embeds: [{ title: 'e' }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expectOpenApiResponse(edited, 'PATCH', path);
    expect(edited.json()).toMatchObject({
      content: `v2 <@${g.bot.userId}>`,
      embeds: [{ type: 'rich', title: 'e' }],
      edited_timestamp: new Date(clock.now()).toISOString(),
      mentions: [{ id: g.bot.userId }],
    });
    expect((await dispatches.next('MESSAGE_UPDATE')).data).toMatchObject({
      id: message.id,
      content: `v2 <@${g.bot.userId}>`,
      guild_id: g.guildId,
    });

    const byBot = await g.call('PATCH', path, { auth: g.bot.token, payload: { content: 'x' } });
    expectError(byBot, 50005, ['PATCH', path]);
    const suppress = await g.call('PATCH', path, { auth: g.bot.token, payload: { flags: 4 } });
    expect(suppress.statusCode).toBe(200);
    expect(suppress.json<WireMessage>().flags).toBe(4);

    const ann = await g.join('ann');
    const byAnn = await g.call('PATCH', path, { auth: ann.token, payload: { flags: 0 } });
    expectError(byAnn, 50013, ['PATCH', path]);
    const bad = await g.call('PATCH', path, {
      auth: g.owner.token,
      payload: { content: 'x'.repeat(2001) },
    });
    expectError(bad, 50035, ['PATCH', path]);
    const empty = await g.call('PATCH', path, {
      auth: g.owner.token,
      payload: { content: '', embeds: [] },
    });
    expectError(empty, 50006, ['PATCH', path]);
    const unknown = await g.call('PATCH', url('/123'), {
      auth: g.owner.token,
      payload: { content: 'x' },
    });
    expectError(unknown, 10008, ['PATCH', url('/123')]);
  });

  it('deletes: the author, or MANAGE_MESSAGES (audited 72)', async () => {
    const dispatches = await recordDispatches(server.app);
    const audits = await g.auditCount();
    const ann = await g.join('ann');
    const mine = await send(ann.token, { content: 'mine' });
    const other = await send(ann.token, { content: 'other' });
    const byOwnerOfMessage = await g.call('DELETE', url(`/${mine.id}`), ann.token);
    expect(byOwnerOfMessage.statusCode).toBe(204);
    expectOpenApiResponse(byOwnerOfMessage, 'DELETE', url(`/${mine.id}`));
    expect(await g.auditCount()).toBe(audits);
    expect((await dispatches.next('MESSAGE_DELETE')).data).toEqual({
      id: mine.id,
      channel_id: channelId,
      guild_id: g.guildId,
    });

    const bea = await g.join('bea');
    const refused = await g.call('DELETE', url(`/${other.id}`), bea.token);
    expectError(refused, 50013, ['DELETE', url(`/${other.id}`)]);
    const byBot = await g.call('DELETE', url(`/${other.id}`), {
      auth: g.bot.token,
      reason: 'spam',
    });
    expect(byBot.statusCode).toBe(204);
    const [entry] = await server.app.storage.auditLog.list(g.guildId, {
      actionType: AuditLogActions.MESSAGE_DELETE,
      limit: 10,
    });
    expect(entry).toMatchObject({
      userId: g.bot.userId,
      targetId: ann.userId,
      reason: 'spam',
      options: { channel_id: channelId, count: '1' },
    });
    const gone = await g.call('DELETE', url(`/${other.id}`), g.bot.token);
    expectError(gone, 10008, ['DELETE', url(`/${other.id}`)]);
  });

  it('bulk deletes 2–100 recent unique messages with MANAGE_MESSAGES', async () => {
    const dispatches = await recordDispatches(server.app);
    const old = await send(g.owner.token, { content: 'old' });
    clock.advance(15 * 24 * 60 * 60 * 1000);
    const a = await send(g.owner.token, { content: 'a' });
    const b = await send(g.owner.token, { content: 'b' });
    const path = url('/bulk-delete');
    const bulk = (auth: string, messages: unknown) =>
      g.call('POST', path, { auth, payload: { messages } });
    expectError(await bulk(g.bot.token, [a.id]), 50035, ['POST', path]);
    expectError(await bulk(g.bot.token, [a.id, a.id]), 50035, ['POST', path]);
    expectError(await bulk(g.bot.token, [a.id, old.id]), 50034, ['POST', path]);
    expectError(await bulk(g.bot.token, Array(101).fill(a.id)), 50035, ['POST', path]);
    expectError(await bulk(g.bot.token, 'nope'), 50035, ['POST', path]);
    const ann = await g.join('ann');
    expectError(await bulk(ann.token, [a.id, b.id]), 50013, ['POST', path]);

    const unknown = snowflakeFromTimestamp(clock.now() - 1000);
    const done = await bulk(g.bot.token, [a.id, b.id, unknown]);
    expect(done.statusCode).toBe(204);
    expectOpenApiResponse(done, 'POST', path);
    const left = await server.app.storage.messages.list(channelId, { limit: 10 });
    expect(left.map((m) => m.id)).toEqual([old.id]);
    expect((await dispatches.next('MESSAGE_DELETE_BULK')).data).toMatchObject({
      ids: expect.arrayContaining([a.id, b.id]) as unknown,
      channel_id: channelId,
      guild_id: g.guildId,
    });
    const [entry] = await server.app.storage.auditLog.list(g.guildId, {
      actionType: AuditLogActions.MESSAGE_BULK_DELETE,
      limit: 10,
    });
    expect(entry).toMatchObject({ targetId: channelId, options: { count: '2' } });
  });

  it('lists with around, before, after and limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(10);
      ids.push((await send(g.owner.token, { content: `m${String(i)}` })).id);
    }
    const list = async (query: string) => {
      const res = await g.call('GET', url(query), g.owner.token);
      expect(res.statusCode, res.body).toBe(200);
      expectOpenApiResponse(res, 'GET', url(query));
      return res.json<WireMessage[]>().map((m) => m.id);
    };
    const newestFirst = [...ids].reverse();
    expect(await list('')).toEqual(newestFirst);
    expect(await list('?limit=2')).toEqual(newestFirst.slice(0, 2));
    expect(await list(`?before=${ids[3] ?? ''}&limit=2`)).toEqual([ids[2], ids[1]]);
    expect(await list(`?after=${ids[3] ?? ''}&limit=2`)).toEqual([ids[5], ids[4]]);
    expect(await list(`?around=${ids[3] ?? ''}&limit=3`)).toEqual([ids[4], ids[3], ids[2]]);
    for (const bad of ['?limit=0', '?limit=101', '?limit=x', '?before=abc', `?before=1&after=2`]) {
      const res = await g.call('GET', url(bad), g.owner.token);
      expectError(res, 50035, ['GET', url(bad)]);
    }
    const ann = await g.join('ann');
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.READ_MESSAGE_HISTORY });
    const blind = await g.call('GET', url(), ann.token);
    expect(blind.json()).toEqual([]);
    const one = await g.call('GET', url(`/${ids[0] ?? ''}`), ann.token);
    expectError(one, 50013, ['GET', url(`/${ids[0] ?? ''}`)]);
  });

  it('typing announces TYPING_START', async () => {
    const dispatches = await recordDispatches(server.app);
    const path = `/channels/${channelId}/typing`;
    const res = await g.call('POST', path, g.owner.token);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'POST', path);
    expect((await dispatches.next('TYPING_START')).data).toMatchObject({
      channel_id: channelId,
      guild_id: g.guildId,
      user_id: g.owner.userId,
      timestamp: Math.floor(clock.now() / 1000),
    });
    const ann = await g.join('ann');
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.SEND_MESSAGES });
    expectError(await g.call('POST', path, ann.token), 50013, ['POST', path]);
  });

  it('slowmode: users wait unless exempt; bots never', async () => {
    await server.app.storage.channels.update(channelId, { rateLimitPerUser: 10 });
    const ann = await g.join('ann');
    await send(ann.token, { content: '1' });
    clock.advance(4000);
    const waiting = await post(ann.token, { content: '2' });
    expectError(waiting, 20016, ['POST', url()]);
    expect(waiting.json()).toMatchObject({ retry_after: 6 });
    clock.advance(6000);
    await send(ann.token, { content: '3' });

    // Bots are never subject to slowmode.
    await send(g.bot.token, { content: 'b1' });
    await send(g.bot.token, { content: 'b2' });

    // After the split, MANAGE_MESSAGES no longer exempts; BYPASS_SLOWMODE does.
    const mod = await g.join('mod');
    await overwrite(server.app, { channelId, userId: mod.userId, allow: P.MANAGE_MESSAGES });
    await send(mod.token, { content: 'm1' });
    expectError(await post(mod.token, { content: 'm2' }), 20016, ['POST', url()]);
    await overwrite(server.app, { channelId, userId: mod.userId, allow: P.BYPASS_SLOWMODE });
    await send(mod.token, { content: 'm3' });
    await send(mod.token, { content: 'm4' });
  });

  it('slowmode before February 23, 2026: MANAGE_MESSAGES or MANAGE_CHANNELS exempt', async () => {
    clock.set(Date.UTC(2026, 0, 15));
    await server.app.storage.channels.update(channelId, { rateLimitPerUser: 60 });
    const mod = await g.join('mod');
    await overwrite(server.app, { channelId, userId: mod.userId, allow: P.MANAGE_CHANNELS });
    await send(mod.token, { content: 'm1' });
    await send(mod.token, { content: 'm2' });
    const ann = await g.join('ann');
    await send(ann.token, { content: 'a1' });
    expectError(await post(ann.token, { content: 'a2' }), 20016, ['POST', url()]);
  });

  it("a ban's delete_message_seconds deletes the member's recent messages", async () => {
    const mal = await g.join('mal');
    const old = await send(mal.token, { content: 'old' });
    clock.advance(2 * 3600 * 1000);
    const recent = await send(mal.token, { content: 'recent' });
    const others = await send(g.owner.token, { content: 'stays' });
    const dispatches = await recordDispatches(server.app);
    const res = await g.call('PUT', `/guilds/${g.guildId}/bans/${mal.userId}`, {
      auth: g.owner.token,
      payload: { delete_message_seconds: 3600 },
    });
    expect(res.statusCode).toBe(204);
    const left = await server.app.storage.messages.list(channelId, { limit: 10 });
    expect(left.map((m) => m.id)).toEqual([others.id, old.id]);
    expect((await dispatches.next('MESSAGE_DELETE_BULK')).data).toEqual({
      ids: [recent.id],
      channel_id: channelId,
      guild_id: g.guildId,
    });
    expect(recent.id).not.toBe(old.id);
  });
});
