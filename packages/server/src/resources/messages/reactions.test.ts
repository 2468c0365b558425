import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it, onTestFinished } from 'vitest';
import { fabricatedId, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { firstChannelId, overwrite } from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

interface WireReaction {
  emoji: { id: string | null; name: string | null };
  count: number;
  count_details: { normal: number; burst: number };
  me: boolean;
  me_burst: boolean;
}

const THUMBS = encodeURIComponent('👍');
const HEART = encodeURIComponent('❤️');

describeDrivers('reactions on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;
  let messageId: string;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_MESSAGES });
    channelId = await firstChannelId(server.app, g.guildId);
    const res = await g.call('POST', `/channels/${channelId}/messages`, {
      auth: g.owner.token,
      payload: { content: 'react to me' },
    });
    messageId = res.json<{ id: string }>().id;
  });

  const base = () => `/channels/${channelId}/messages/${messageId}/reactions`;
  const reactions = async (auth: string) => {
    const res = await g.call('GET', `/channels/${channelId}/messages/${messageId}`, auth);
    expectOpenApiResponse(res, 'GET', `/channels/${channelId}/messages/${messageId}`);
    return res.json<{ reactions?: WireReaction[] }>().reactions;
  };
  const expectRefused = (
    res: Awaited<ReturnType<GuildFixture['call']>>,
    [status, code]: [number, number],
    [method, path]: [string, string],
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expectOpenApiResponse(res, method, path);
  };

  it('adds, counts, lists and removes own reactions with dispatches', async () => {
    const dispatches = await recordDispatches(server.app);
    onTestFinished(dispatches.stop);
    const ann = await g.join('ann');
    for (const auth of [g.owner.token, ann.token, ann.token]) {
      const res = await g.call('PUT', `${base()}/${THUMBS}/@me`, auth);
      expect(res.statusCode, res.body).toBe(204);
      expectOpenApiResponse(res, 'PUT', `${base()}/${THUMBS}/@me`);
    }
    await g.call('PUT', `${base()}/${HEART}/@me`, ann.token);
    expect(await reactions(g.owner.token)).toEqual([
      {
        emoji: { id: null, name: '👍' },
        count: 2,
        count_details: { normal: 2, burst: 0 },
        me: true,
        me_burst: false,
        burst_colors: [],
      },
      {
        emoji: { id: null, name: '❤️' },
        count: 1,
        count_details: { normal: 1, burst: 0 },
        me: false,
        me_burst: false,
        burst_colors: [],
      },
    ]);
    expect((await dispatches.next('MESSAGE_REACTION_ADD')).data).toMatchObject({
      user_id: g.owner.userId,
      channel_id: channelId,
      message_id: messageId,
      guild_id: g.guildId,
      emoji: { id: null, name: '👍' },
      message_author_id: g.owner.userId,
    });
    // Reacting twice with one emoji adds (and announces) it once.
    expect(dispatches.ofType('MESSAGE_REACTION_ADD').length).toBeLessThanOrEqual(3);

    const users = await g.call('GET', `${base()}/${THUMBS}?limit=1`, g.owner.token);
    expect(users.statusCode).toBe(200);
    expectOpenApiResponse(users, 'GET', `${base()}/${THUMBS}?limit=1`);
    const [firstUser] = users.json<{ id: string }[]>();
    const rest = await g.call(
      'GET',
      `${base()}/${THUMBS}?after=${firstUser?.id ?? ''}`,
      g.owner.token,
    );
    expect([firstUser?.id, ...rest.json<{ id: string }[]>().map((u) => u.id)].sort()).toEqual(
      [g.owner.userId, ann.userId].sort(),
    );
    const burst = await g.call('GET', `${base()}/${THUMBS}?type=1`, g.owner.token);
    expect(burst.json()).toEqual([]);

    const removed = await g.call('DELETE', `${base()}/${THUMBS}/@me`, ann.token);
    expect(removed.statusCode).toBe(204);
    expectOpenApiResponse(removed, 'DELETE', `${base()}/${THUMBS}/@me`);
    expect((await dispatches.next('MESSAGE_REACTION_REMOVE')).data).toMatchObject({
      user_id: ann.userId,
      emoji: { name: '👍' },
    });
    expect((await reactions(ann.token))?.[0]).toMatchObject({ count: 1, me: false });
  });

  it('custom emoji by name:id; unknown ones are 10014', async () => {
    const emoji = await server.app.storage.emojis.create({
      id: fabricatedId(messageId),
      guildId: g.guildId,
      name: 'party',
      creatorId: g.owner.userId,
      animated: true,
      roleIds: [],
      available: true,
      createdAt: Date.now(),
    });
    const res = await g.call('PUT', `${base()}/party:${emoji.id}/@me`, g.owner.token);
    expect(res.statusCode, res.body).toBe(204);
    expect(await reactions(g.owner.token)).toMatchObject([
      { emoji: { id: emoji.id, name: 'party', animated: true }, count: 1 },
    ]);
    for (const bad of ['nope:123', encodeURIComponent('notanemoji'), 'a', '1']) {
      const path = `${base()}/${bad}/@me`;
      expectRefused(await g.call('PUT', path, g.owner.token), [404, 10014], ['PUT', path]);
    }
  });

  it('permissions: ADD_REACTIONS for a new emoji, MANAGE_MESSAGES to remove others', async () => {
    const dispatches = await recordDispatches(server.app);
    onTestFinished(dispatches.stop);
    const ann = await g.join('ann');
    await overwrite(server.app, { channelId, userId: ann.userId, deny: P.ADD_REACTIONS });
    const path = `${base()}/${THUMBS}/@me`;
    expectRefused(await g.call('PUT', path, ann.token), [403, 50013], ['PUT', path]);
    await g.call('PUT', path, g.owner.token);
    // Joining an existing reaction needs no ADD_REACTIONS.
    expect((await g.call('PUT', path, ann.token)).statusCode).toBe(204);

    const userPath = `${base()}/${THUMBS}/${g.owner.userId}`;
    expectRefused(await g.call('DELETE', userPath, ann.token), [403, 50013], ['DELETE', userPath]);
    const byBot = await g.call('DELETE', userPath, g.bot.token);
    expect(byBot.statusCode).toBe(204);
    expectOpenApiResponse(byBot, 'DELETE', userPath);
    expect((await reactions(g.owner.token))?.[0]).toMatchObject({ count: 1, me: false });

    const emojiPath = `${base()}/${THUMBS}`;
    expectRefused(
      await g.call('DELETE', emojiPath, ann.token),
      [403, 50013],
      ['DELETE', emojiPath],
    );
    const byEmoji = await g.call('DELETE', emojiPath, g.bot.token);
    expect(byEmoji.statusCode).toBe(204);
    expectOpenApiResponse(byEmoji, 'DELETE', emojiPath);
    expect((await dispatches.next('MESSAGE_REACTION_REMOVE_EMOJI')).data).toMatchObject({
      emoji: { name: '👍' },
      message_id: messageId,
    });

    await g.call('PUT', `${base()}/${HEART}/@me`, g.owner.token);
    expectRefused(await g.call('DELETE', base(), ann.token), [403, 50013], ['DELETE', base()]);
    const all = await g.call('DELETE', base(), g.bot.token);
    expect(all.statusCode).toBe(204);
    expectOpenApiResponse(all, 'DELETE', base());
    expect((await dispatches.next('MESSAGE_REACTION_REMOVE_ALL')).data).toEqual({
      channel_id: channelId,
      message_id: messageId,
      guild_id: g.guildId,
    });
    expect(await reactions(g.owner.token)).toBeUndefined();

    // Timed-out members cannot react.
    await server.app.storage.members.update(g.guildId, ann.userId, {
      communicationDisabledUntil: Date.now() + 600_000,
    });
    expectRefused(await g.call('PUT', path, ann.token), [403, 50013], ['PUT', path]);
  });

  it('at most 20 distinct emojis (30010); unknown messages and bad queries', async () => {
    const emojis = '😀 😁 😂 🤣 😃 😄 😅 😆 😉 😊 😋 😎 😍 😘 🥰 😗 😙 😚 🙂 🤗'.split(' ');
    expect(emojis).toHaveLength(20);
    for (const emoji of emojis) {
      const res = await g.call('PUT', `${base()}/${encodeURIComponent(emoji)}/@me`, g.owner.token);
      expect(res.statusCode, res.body).toBe(204);
    }
    const path = `${base()}/${encodeURIComponent('🤩')}/@me`;
    expectRefused(await g.call('PUT', path, g.owner.token), [400, 30010], ['PUT', path]);
    // Joining one of the 20 still works.
    const ann = await g.join('ann');
    expect(
      (await g.call('PUT', `${base()}/${encodeURIComponent('😀')}/@me`, ann.token)).statusCode,
    ).toBe(204);

    const unknown = `/channels/${channelId}/messages/123/reactions/${THUMBS}/@me`;
    expectRefused(await g.call('PUT', unknown, g.owner.token), [404, 10008], ['PUT', unknown]);
    for (const query of ['?limit=0', '?limit=101', '?type=2', '?after=x']) {
      const listPath = `${base()}/${THUMBS}${query}`;
      expectRefused(await g.call('GET', listPath, g.owner.token), [400, 50035], ['GET', listPath]);
    }
  });
});
