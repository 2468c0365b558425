import {
  ApplicationFlags,
  AuditLogActions,
  PermissionFlags as P,
  snowflakeFromTimestamp,
} from '@guildhall/protocol';
import { expect, it, onTestFinished } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  overwrite,
  useMessageFixture,
  type WireMessage,
} from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

describeDrivers('messages on $driver', (driver) => {
  const fx = useMessageFixture(driver);
  const { clock, url, send, expectError } = fx;

  it('applies MESSAGE_CONTENT to every REST read by an app', async () => {
    const ann = await fx.g.join('ann');
    const plain = await send(ann.token, { content: 'hidden', embeds: [{ title: 't' }] });
    const mention = await send(ann.token, { content: `hi <@${fx.g.bot.userId}>` });
    const own = await send(fx.g.bot.token, { content: 'mine' });
    const reply = await send(ann.token, {
      content: `<@${fx.g.bot.userId}> look`,
      message_reference: { message_id: plain.id },
      allowed_mentions: { parse: ['users'] },
    });

    const read = async (id: string) =>
      (await fx.g.call('GET', url(`/${id}`), fx.g.bot.token)).json<WireMessage>();
    expect(await read(plain.id)).toMatchObject({ content: '', embeds: [], attachments: [] });
    expect((await read(mention.id)).content).toBe(`hi <@${fx.g.bot.userId}>`);
    expect((await read(own.id)).content).toBe('mine');
    expect(await read(reply.id)).toMatchObject({
      content: `<@${fx.g.bot.userId}> look`,
      referenced_message: { id: plain.id, content: '' },
    });
    const list = await fx.g.call('GET', url(), fx.g.bot.token);
    expectOpenApiResponse(list, 'GET', url());
    const byId = new Map(list.json<WireMessage[]>().map((m) => [m.id, m]));
    expect(byId.get(plain.id)?.content).toBe('');
    // People read everything.
    expect((await fx.g.call('GET', url(`/${plain.id}`), fx.g.owner.token)).json()).toMatchObject({
      content: 'hidden',
    });

    // Pins and PATCH responses of other people's messages follow the rule too.
    await fx.g.call('PUT', `/channels/${fx.channelId}/messages/pins/${plain.id}`, fx.g.owner.token);
    const pins = await fx.g.call('GET', `/channels/${fx.channelId}/messages/pins`, fx.g.bot.token);
    expect(pins.json()).toMatchObject({ items: [{ message: { id: plain.id, content: '' } }] });
    const suppressed = await fx.g.call('PATCH', url(`/${plain.id}`), {
      auth: fx.g.bot.token,
      payload: { flags: 4 },
    });
    expect(suppressed.json()).toMatchObject({ id: plain.id, flags: 4, content: '', embeds: [] });

    await fx.server.app.storage.applications.update(fx.g.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    expect((await read(plain.id)).content).toBe('hidden');
  });

  it('edits: the author edits content; moderators only flags', async () => {
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const message = await send(fx.g.owner.token, { content: 'v1' });
    const path = url(`/${message.id}`);
    clock.advance(1000);
    const edited = await fx.g.call('PATCH', path, {
      auth: fx.g.owner.token,
      payload: { content: `v2 <@${fx.g.bot.userId}>`, embeds: [{ title: 'e' }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expectOpenApiResponse(edited, 'PATCH', path);
    expect(edited.json()).toMatchObject({
      content: `v2 <@${fx.g.bot.userId}>`,
      embeds: [{ type: 'rich', title: 'e' }],
      edited_timestamp: new Date(clock.now()).toISOString(),
      mentions: [{ id: fx.g.bot.userId }],
    });
    expect((await dispatches.next('MESSAGE_UPDATE')).data).toMatchObject({
      id: message.id,
      content: `v2 <@${fx.g.bot.userId}>`,
      guild_id: fx.g.guildId,
    });

    const byBot = await fx.g.call('PATCH', path, {
      auth: fx.g.bot.token,
      payload: { content: 'x' },
    });
    expectError(byBot, 50005, ['PATCH', path]);
    const suppress = await fx.g.call('PATCH', path, {
      auth: fx.g.bot.token,
      payload: { flags: 4 },
    });
    expect(suppress.statusCode).toBe(200);
    expect(suppress.json<WireMessage>().flags).toBe(4);

    const ann = await fx.g.join('ann');
    const byAnn = await fx.g.call('PATCH', path, { auth: ann.token, payload: { flags: 0 } });
    expectError(byAnn, 50013, ['PATCH', path]);
    const bad = await fx.g.call('PATCH', path, {
      auth: fx.g.owner.token,
      payload: { content: 'x'.repeat(2001) },
    });
    expectError(bad, 50035, ['PATCH', path]);
    const empty = await fx.g.call('PATCH', path, {
      auth: fx.g.owner.token,
      payload: { content: '', embeds: [] },
    });
    expectError(empty, 50006, ['PATCH', path]);
    const unknown = await fx.g.call('PATCH', url('/123'), {
      auth: fx.g.owner.token,
      payload: { content: 'x' },
    });
    expectError(unknown, 10008, ['PATCH', url('/123')]);
  });

  it('deletes: the author, or MANAGE_MESSAGES (audited 72)', async () => {
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const audits = await fx.g.auditCount();
    const ann = await fx.g.join('ann');
    const mine = await send(ann.token, { content: 'mine' });
    const other = await send(ann.token, { content: 'other' });
    const byOwnerOfMessage = await fx.g.call('DELETE', url(`/${mine.id}`), ann.token);
    expect(byOwnerOfMessage.statusCode).toBe(204);
    expectOpenApiResponse(byOwnerOfMessage, 'DELETE', url(`/${mine.id}`));
    expect(await fx.g.auditCount()).toBe(audits);
    expect((await dispatches.next('MESSAGE_DELETE')).data).toEqual({
      id: mine.id,
      channel_id: fx.channelId,
      guild_id: fx.g.guildId,
    });

    const bea = await fx.g.join('bea');
    const refused = await fx.g.call('DELETE', url(`/${other.id}`), bea.token);
    expectError(refused, 50013, ['DELETE', url(`/${other.id}`)]);
    const byBot = await fx.g.call('DELETE', url(`/${other.id}`), {
      auth: fx.g.bot.token,
      reason: 'spam',
    });
    expect(byBot.statusCode).toBe(204);
    const [entry] = await fx.server.app.storage.auditLog.list(fx.g.guildId, {
      actionType: AuditLogActions.MESSAGE_DELETE,
      limit: 10,
    });
    expect(entry).toMatchObject({
      userId: fx.g.bot.userId,
      targetId: ann.userId,
      reason: 'spam',
      options: { channel_id: fx.channelId, count: '1' },
    });
    const gone = await fx.g.call('DELETE', url(`/${other.id}`), fx.g.bot.token);
    expectError(gone, 10008, ['DELETE', url(`/${other.id}`)]);
  });

  it('bulk deletes 2–100 recent unique messages with MANAGE_MESSAGES', async () => {
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const old = await send(fx.g.owner.token, { content: 'old' });
    clock.advance(15 * 24 * 60 * 60 * 1000);
    const a = await send(fx.g.owner.token, { content: 'a' });
    const b = await send(fx.g.owner.token, { content: 'b' });
    const path = url('/bulk-delete');
    const bulk = (auth: string, messages: unknown) =>
      fx.g.call('POST', path, { auth, payload: { messages } });
    expectError(await bulk(fx.g.bot.token, [a.id]), 50035, ['POST', path]);
    expectError(await bulk(fx.g.bot.token, [a.id, a.id]), 50035, ['POST', path]);
    expectError(await bulk(fx.g.bot.token, [a.id, old.id]), 50034, ['POST', path]);
    expectError(await bulk(fx.g.bot.token, Array(101).fill(a.id)), 50035, ['POST', path]);
    expectError(await bulk(fx.g.bot.token, 'nope'), 50035, ['POST', path]);
    const ann = await fx.g.join('ann');
    expectError(await bulk(ann.token, [a.id, b.id]), 50013, ['POST', path]);

    const unknown = snowflakeFromTimestamp(clock.now() - 1000);
    const done = await bulk(fx.g.bot.token, [a.id, b.id, unknown]);
    expect(done.statusCode).toBe(204);
    expectOpenApiResponse(done, 'POST', path);
    const left = await fx.server.app.storage.messages.list(fx.channelId, { limit: 10 });
    expect(left.map((m) => m.id)).toEqual([old.id]);
    expect((await dispatches.next('MESSAGE_DELETE_BULK')).data).toMatchObject({
      ids: expect.arrayContaining([a.id, b.id]) as unknown,
      channel_id: fx.channelId,
      guild_id: fx.g.guildId,
    });
    const [entry] = await fx.server.app.storage.auditLog.list(fx.g.guildId, {
      actionType: AuditLogActions.MESSAGE_BULK_DELETE,
      limit: 10,
    });
    expect(entry).toMatchObject({ targetId: fx.channelId, options: { count: '2' } });
  });

  it('lists with around, before, after and limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(10);
      ids.push((await send(fx.g.owner.token, { content: `m${String(i)}` })).id);
    }
    const list = async (query: string) => {
      const res = await fx.g.call('GET', url(query), fx.g.owner.token);
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
      const res = await fx.g.call('GET', url(bad), fx.g.owner.token);
      expectError(res, 50035, ['GET', url(bad)]);
    }
    const ann = await fx.g.join('ann');
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: ann.userId,
      deny: P.READ_MESSAGE_HISTORY,
    });
    const blind = await fx.g.call('GET', url(), ann.token);
    expect(blind.json()).toEqual([]);
    const one = await fx.g.call('GET', url(`/${ids[0] ?? ''}`), ann.token);
    expectError(one, 50013, ['GET', url(`/${ids[0] ?? ''}`)]);
  });

  it('typing announces TYPING_START', async () => {
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const path = `/channels/${fx.channelId}/typing`;
    const res = await fx.g.call('POST', path, fx.g.owner.token);
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'POST', path);
    expect((await dispatches.next('TYPING_START')).data).toMatchObject({
      channel_id: fx.channelId,
      guild_id: fx.g.guildId,
      user_id: fx.g.owner.userId,
      timestamp: Math.floor(clock.now() / 1000),
    });
    const ann = await fx.g.join('ann');
    await overwrite(fx.server.app, {
      channelId: fx.channelId,
      userId: ann.userId,
      deny: P.SEND_MESSAGES,
    });
    expectError(await fx.g.call('POST', path, ann.token), 50013, ['POST', path]);
  });

  it("a ban's delete_message_seconds deletes the member's recent messages", async () => {
    const mal = await fx.g.join('mal');
    const old = await send(mal.token, { content: 'old' });
    clock.advance(2 * 3600 * 1000);
    const recent = await send(mal.token, { content: 'recent' });
    const others = await send(fx.g.owner.token, { content: 'stays' });
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const res = await fx.g.call('PUT', `/guilds/${fx.g.guildId}/bans/${mal.userId}`, {
      auth: fx.g.owner.token,
      payload: { delete_message_seconds: 3600 },
    });
    expect(res.statusCode).toBe(204);
    const left = await fx.server.app.storage.messages.list(fx.channelId, { limit: 10 });
    expect(left.map((m) => m.id)).toEqual([others.id, old.id]);
    expect((await dispatches.next('MESSAGE_DELETE_BULK')).data).toEqual({
      ids: [recent.id],
      channel_id: fx.channelId,
      guild_id: fx.g.guildId,
    });
    expect(recent.id).not.toBe(old.id);
  });
});
