import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useThreadFixture } from '../../../test/support/threadFixture.js';

interface Thread {
  id: string;
  type: number;
  parent_id: string;
  owner_id: string;
  last_message_id: string | null;
  message_count: number;
  member_count: number;
  total_message_sent: number;
  applied_tags: string[];
  thread_metadata: {
    archived: boolean;
    locked: boolean;
    auto_archive_duration: number;
    invitable?: boolean;
  };
  member?: { user_id: string };
  message?: { id: string; channel_id: string; content: string };
}

const listedIds = (res: { json(): unknown }) => (res.json() as { id: string }[]).map((m) => m.id);

describeDrivers('threads on $driver', (driver) => {
  const fx = useThreadFixture(driver);

  it('starts threads from a message and without one, with messages counted in them', async () => {
    const text = await fx.channel('talk');
    const posted = await fx.post(fx.owner.token, text.id, { content: 'start here' });
    const messageId = posted.json<{ id: string }>().id;

    const fromMessage = await fx.call(
      'POST',
      `/channels/${text.id}/messages/${messageId}/threads`,
      {
        auth: fx.carol.token,
        payload: { name: 'Side Talk', auto_archive_duration: 60 },
        reason: 'branch off',
      },
    );
    expect(fromMessage.statusCode).toBe(201);
    const thread = fromMessage.json<Thread>();
    expect(thread).toMatchObject({
      id: messageId,
      type: 11,
      parent_id: text.id,
      owner_id: fx.carol.userId,
      message_count: 0,
      member_count: 1,
      thread_metadata: { archived: false, locked: false, auto_archive_duration: 60 },
      member: { user_id: fx.carol.userId },
    });
    const again = await fx.call('POST', `/channels/${text.id}/messages/${messageId}/threads`, {
      auth: fx.carol.token,
      payload: { name: 'twice' },
    });
    expect(again.json()).toMatchObject({ code: 160004 });
    const starter = await fx.call('GET', `/channels/${text.id}/messages/${messageId}`, {
      auth: fx.owner.token,
    });
    expect(starter.json<{ flags: number }>().flags & (1 << 5)).toBe(1 << 5);

    // Messages in the thread go through the message routes and are counted.
    const inThread = await fx.post(fx.dave.token, thread.id, { content: 'hello thread' });
    expect(inThread.statusCode).toBe(200);
    await fx.post(fx.owner.token, thread.id, { content: 'second' });
    const got = await fx.call('GET', `/channels/${thread.id}`, { auth: fx.dave.token });
    const counted = got.json<Thread>();
    expect(counted).toMatchObject({ message_count: 2, total_message_sent: 2 });
    expect(counted.last_message_id).toBe(
      listedIds(
        await fx.call('GET', `/channels/${thread.id}/messages`, { auth: fx.dave.token }),
      )[0],
    );
    const listed = await fx.call('GET', `/channels/${thread.id}/messages`, { auth: fx.dave.token });
    expect(listed.json<{ content: string }[]>().map((m) => m.content)).toEqual([
      'second',
      'hello thread',
    ]);
    const created = await fx.events.next('THREAD_CREATE');
    expect(created).toMatchObject({ channelId: thread.id, data: { newly_created: true } });
    const audit = await fx.app.storage.auditLog.list(fx.guild.guildId, {
      actionType: AuditLogActions.THREAD_CREATE,
      limit: 10,
    });
    expect(audit[0]).toMatchObject({ targetId: thread.id, reason: 'branch off' });

    // Without a message: private by default in a text channel, announcement in an announcement one.
    const privateRes = await fx.call('POST', `/channels/${text.id}/threads`, {
      auth: fx.carol.token,
      payload: { name: 'secret', invitable: false },
    });
    expect(privateRes.statusCode).toBe(201);
    expect(privateRes.json<Thread>()).toMatchObject({
      type: 12,
      thread_metadata: { invitable: false },
    });
    const news = await fx.channel('news', 5);
    const announcement = await fx.call('POST', `/channels/${news.id}/threads`, {
      auth: fx.owner.token,
      payload: { name: 'about it' },
    });
    expect(announcement.json<Thread>().type).toBe(10);
    const wrongType = await fx.call('POST', `/channels/${news.id}/threads`, {
      auth: fx.owner.token,
      payload: { name: 'nope', type: 12 },
    });
    expect(wrongType.statusCode).toBe(400);
    const body = wrongType.json<{ code: number; errors: Record<string, unknown> }>();
    expect(body.code).toBe(50035);
    expect(Object.keys(body.errors)).toEqual(['type']);
  });

  it('refuses bad input, unknown ids and missing permissions', async () => {
    const text = await fx.channel('rules');
    const cases = [
      ['POST', `/channels/${text.id}/threads`, { name: '' }, 400, 50035],
      ['POST', `/channels/${text.id}/threads`, { name: 'x', auto_archive_duration: 5 }, 400, 50035],
      ['POST', `/channels/1/threads`, { name: 'x' }, 404, 10003],
      ['POST', `/channels/${text.id}/messages/1/threads`, { name: 'x' }, 404, 10008],
      ['GET', `/channels/${text.id}/thread-members`, undefined, 400, 50024],
      ['GET', `/guilds/1/threads/active`, undefined, 404, 10004],
    ] as const;
    for (const [method, path, payload, status, code] of cases) {
      const res = await fx.call(method, path, { auth: fx.carol.token, payload });
      expect([path, res.statusCode, res.json<{ code: number }>().code]).toEqual([
        path,
        status,
        code,
      ]);
    }
    // dave loses CREATE_PRIVATE_THREADS and SEND_MESSAGES_IN_THREADS in this channel.
    await fx.app.storage.overwrites.put({
      channelId: text.id,
      targetId: fx.dave.userId,
      type: 1,
      allow: 0n,
      deny: P.CREATE_PRIVATE_THREADS | P.SEND_MESSAGES_IN_THREADS,
    });
    const refused = await fx.call('POST', `/channels/${text.id}/threads`, {
      auth: fx.dave.token,
      payload: { name: 'mine' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50013 });
    const open = await fx.call('POST', `/channels/${text.id}/threads`, {
      auth: fx.carol.token,
      payload: { name: 'open', type: 11 },
    });
    const threadId = open.json<Thread>().id;
    const cannotSend = await fx.post(fx.dave.token, threadId, { content: 'hi' });
    expect(cannotSend.statusCode).toBe(403);
    expect(cannotSend.json()).toMatchObject({ code: 50013 });
    // Only MANAGE_THREADS locks, deletes or edits someone else's thread.
    for (const payload of [{ locked: true }, { name: 'renamed' }]) {
      const res = await fx.call('PATCH', `/channels/${threadId}`, { auth: fx.dave.token, payload });
      expect(res.json()).toMatchObject({ code: 50013 });
    }
    const deleted = await fx.call('DELETE', `/channels/${threadId}`, { auth: fx.carol.token });
    expect(deleted.json()).toMatchObject({ code: 50013 });
  });
});
