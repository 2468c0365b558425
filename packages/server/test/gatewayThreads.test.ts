import { GatewayIntentBits as I } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { useGatewayFixture } from './support/gatewayFixture.js';

interface Frame {
  t?: string | null;
  d?: unknown;
}

const VIEW = (1n << 10n).toString();

const data = (frame: Frame) => frame.d as Record<string, unknown>;

describe('gateway threads: GUILD_CREATE, private thread visibility, member updates', () => {
  const gw = useGatewayFixture();

  it('shows private threads and their messages to members only', async () => {
    const { guild } = gw;
    const carol = await guild.join('carol');
    const dave = await guild.join('dave');
    const [general] = await gw.server.app.storage.channels.listByGuild(guild.guildId);
    const channelId = general?.id ?? '';
    const start = async (name: string, type: number) =>
      (
        await guild.call('POST', `/channels/${channelId}/threads`, {
          auth: carol.token,
          payload: { name, type },
        })
      ).json<{ id: string }>().id;
    const open = await start('open', 11);
    const hidden = await start('hidden', 12);

    const intents = I.GUILDS | I.GUILD_MESSAGES;
    const carolSession = await gw.session({ token: carol.token, intents });
    const daveSession = await gw.session({ token: dave.token, intents });
    const threadsOf = (g: Record<string, unknown>) =>
      (g['threads'] as { id: string }[]).map((t) => t.id).sort();
    expect(threadsOf(carolSession.guild)).toEqual([open, hidden].sort());
    expect(threadsOf(daveSession.guild)).toEqual([open]);

    const post = (threadId: string, content: string) =>
      guild.call('POST', `/channels/${threadId}/messages`, {
        auth: carol.token,
        payload: { content },
      });
    await post(hidden, 'members only');
    await post(open, 'for everyone');
    const daveFirst = await daveSession.client.dispatch('MESSAGE_CREATE');
    expect(data(daveFirst)['content']).toBe('for everyone');
    const carolFirst = await carolSession.client.dispatch('MESSAGE_CREATE');
    expect(data(carolFirst)['content']).toBe('members only');

    // Added to the private thread, dave hears of it without GUILD_MEMBERS and sees it from then.
    const added = await guild.call('PUT', `/channels/${hidden}/thread-members/${dave.userId}`, {
      auth: carol.token,
    });
    expect(added.statusCode).toBe(204);
    const update = await daveSession.client.dispatch('THREAD_MEMBERS_UPDATE');
    expect(data(update)).toMatchObject({
      id: hidden,
      member_count: 2,
      added_members: [{ user_id: dave.userId }],
    });
    await post(hidden, 'welcome dave');
    const later = await daveSession.client.next(
      (f) => f.t === 'MESSAGE_CREATE' && data(f)['channel_id'] === hidden,
    );
    expect(data(later)['content']).toBe('welcome dave');
  });

  it('sends THREAD_LIST_SYNC when the threads of a channel become visible', async () => {
    const { guild } = gw;
    const dave = await guild.join('dave');
    const [general] = await gw.server.app.storage.channels.listByGuild(guild.guildId);
    const channelId = general?.id ?? '';
    const overwrites = (deny: string) => ({
      auth: guild.owner.token,
      payload: { permission_overwrites: [{ id: dave.userId, type: 1, allow: '0', deny }] },
    });
    await guild.call('PATCH', `/channels/${channelId}`, overwrites(VIEW));
    const thread = await guild.call('POST', `/channels/${channelId}/threads`, {
      auth: guild.owner.token,
      payload: { name: 'news', type: 11 },
    });
    const threadId = thread.json<{ id: string }>().id;
    const session = await gw.session({ token: dave.token, intents: I.GUILDS });
    expect(session.guild['threads']).toEqual([]);
    await guild.call('PATCH', `/channels/${channelId}`, overwrites('0'));
    const sync = await session.client.dispatch('THREAD_LIST_SYNC');
    expect(data(sync)).toMatchObject({
      guild_id: guild.guildId,
      channel_ids: [channelId],
      threads: [{ id: threadId }],
    });
  });
});
