import { expect, it } from 'vitest';
import { DAY_MS } from '../../domain/time.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useThreadFixture } from '../../../test/support/threadFixture.js';

interface Thread {
  id: string;
  member_count: number;
  applied_tags: string[];
  thread_metadata: { archived: boolean; locked: boolean };
  message?: { id: string; channel_id: string; content: string };
}
interface ThreadList {
  threads: Thread[];
  members: { id: string; user_id: string }[];
  has_more: boolean;
  total_results?: number;
}

describeDrivers('thread members, lists and forum posts on $driver', (driver) => {
  const fx = useThreadFixture(driver);

  it('joins, leaves, adds and removes members; private threads show to members only', async () => {
    const text = await fx.channel('crew');
    const made = await fx.call('POST', `/channels/${text.id}/threads`, {
      auth: fx.carol.token,
      payload: { name: 'planning' },
    });
    const thread = made.json<Thread>();
    const path = `/channels/${thread.id}/thread-members`;
    // dave cannot see carol's private thread, nor join it.
    expect(
      (await fx.call('GET', `/channels/${thread.id}`, { auth: fx.dave.token })).json(),
    ).toMatchObject({ code: 50001 });
    expect((await fx.call('PUT', `${path}/@me`, { auth: fx.dave.token })).json()).toMatchObject({
      code: 50001,
    });
    const active = await fx.call('GET', `/guilds/${fx.guild.guildId}/threads/active`, {
      auth: fx.dave.token,
    });
    expect(active.json<ThreadList>().threads.map((t) => t.id)).not.toContain(thread.id);
    // carol (a member, the thread invitable) adds dave.
    expect(
      (await fx.call('PUT', `${path}/${fx.dave.userId}`, { auth: fx.carol.token })).statusCode,
    ).toBe(204);
    expect(
      (await fx.call('GET', `/channels/${thread.id}`, { auth: fx.dave.token })).json<Thread>()
        .member_count,
    ).toBe(2);
    const members = await fx.call('GET', `${path}?with_member=true`, { auth: fx.dave.token });
    const listed = members.json<{ user_id: string; member?: { user: { id: string } } }[]>();
    expect(listed.map((m) => m.user_id).sort()).toEqual([fx.carol.userId, fx.dave.userId].sort());
    expect(listed.find((m) => m.user_id === fx.carol.userId)?.member?.user.id).toBe(
      fx.carol.userId,
    );
    const one = await fx.call('GET', `${path}/${fx.dave.userId}`, {
      auth: fx.carol.token,
      spec: `${path}/${fx.dave.userId}`,
    });
    expect(one.json()).toMatchObject({ id: thread.id, user_id: fx.dave.userId, flags: 0 });
    const added = await fx.events.next('THREAD_MEMBERS_UPDATE');
    expect(added.channelId).toBe(thread.id);
    // Only the owner of a private thread (or MANAGE_THREADS) removes others.
    expect(
      (await fx.call('DELETE', `${path}/${fx.carol.userId}`, { auth: fx.dave.token })).json(),
    ).toMatchObject({ code: 50013 });
    expect(
      (await fx.call('DELETE', `${path}/${fx.dave.userId}`, { auth: fx.carol.token })).statusCode,
    ).toBe(204);
    expect(
      (await fx.call('GET', `${path}/${fx.dave.userId}`, { auth: fx.carol.token })).json(),
    ).toMatchObject({ code: 10007 });
    const removed = fx.events
      .ofType('THREAD_MEMBERS_UPDATE')
      .map((e) => e.data as { removed_member_ids?: string[] });
    expect(removed.some((d) => d.removed_member_ids?.includes(fx.dave.userId))).toBe(true);
    // A public thread: anyone who sees it joins and leaves.
    const open = await fx.call('POST', `/channels/${text.id}/threads`, {
      auth: fx.carol.token,
      payload: { name: 'open', type: 11 },
    });
    const openId = open.json<Thread>().id;
    expect(
      (await fx.call('PUT', `/channels/${openId}/thread-members/@me`, { auth: fx.dave.token }))
        .statusCode,
    ).toBe(204);
    expect(
      (await fx.call('DELETE', `/channels/${openId}/thread-members/@me`, { auth: fx.dave.token }))
        .statusCode,
    ).toBe(204);
    expect(
      (
        await fx.call('PUT', `/channels/${openId}/thread-members/1`, { auth: fx.carol.token })
      ).json(),
    ).toMatchObject({ code: 10007 });
  });

  it('archives, locks and lists threads; a post wakes an archived thread; idle ones archive', async () => {
    const text = await fx.channel('archive');
    const start = async (name: string, type = 11) =>
      (
        await fx.call('POST', `/channels/${text.id}/threads`, {
          auth: fx.carol.token,
          payload: { name, type, auto_archive_duration: 60 },
        })
      ).json<Thread>().id;
    const [a, b, c] = [await start('alpha'), await start('beta'), await start('gamma', 12)];
    const patch = (id: string, payload: object, auth = fx.carol.token) =>
      fx.call('PATCH', `/channels/${id}`, { auth, payload });
    expect((await patch(a, { archived: true })).json<Thread>().thread_metadata.archived).toBe(true);
    // An archived thread takes a change only while it is unarchived by it.
    expect((await patch(a, { name: 'renamed' })).json()).toMatchObject({ code: 50083 });
    expect((await patch(c, { archived: true })).statusCode).toBe(200);
    const locked = await patch(b, { locked: true, archived: true }, fx.owner.token);
    expect(locked.json<Thread>().thread_metadata).toMatchObject({ locked: true, archived: true });
    const archivedPublic = await fx.call(
      'GET',
      `/channels/${text.id}/threads/archived/public?limit=2`,
      { auth: fx.dave.token },
    );
    expect(archivedPublic.json<ThreadList>()).toMatchObject({ has_more: false });
    expect(
      archivedPublic
        .json<ThreadList>()
        .threads.map((t) => t.id)
        .sort(),
    ).toEqual([a, b].sort());
    const privateList = await fx.call('GET', `/channels/${text.id}/threads/archived/private`, {
      auth: fx.dave.token,
    });
    expect(privateList.json()).toMatchObject({ code: 50013 });
    const mine = await fx.call('GET', `/channels/${text.id}/users/@me/threads/archived/private`, {
      auth: fx.carol.token,
    });
    expect(mine.json<ThreadList>().threads.map((t) => t.id)).toEqual([c]);
    const managed = await fx.call('GET', `/channels/${text.id}/threads/archived/private`, {
      auth: fx.owner.token,
    });
    expect(managed.json<ThreadList>().threads.map((t) => t.id)).toEqual([c]);
    // A post unarchives an unlocked thread; a locked one takes posts only from MANAGE_THREADS.
    expect((await fx.post(fx.dave.token, a, { content: 'wake up' })).statusCode).toBe(200);
    const woken = await fx.call('GET', `/channels/${a}`, { auth: fx.dave.token });
    expect(woken.json<Thread>().thread_metadata.archived).toBe(false);
    // Posting made dave a member.
    const joined = await fx.call('GET', `/channels/${a}/thread-members/${fx.dave.userId}`, {
      auth: fx.dave.token,
    });
    expect(joined.json()).toMatchObject({ id: a, user_id: fx.dave.userId });
    expect((await fx.post(fx.dave.token, b, { content: 'hello?' })).json()).toMatchObject({
      code: 160005,
    });
    // An hour without activity archives a one-hour thread.
    fx.clock.advance(DAY_MS);
    expect(await fx.app.services.threads.archiveIdle(100)).toBeGreaterThanOrEqual(1);
    const slept = await fx.call('GET', `/channels/${a}`, { auth: fx.dave.token });
    expect(slept.json<Thread>().thread_metadata.archived).toBe(true);
    const activeNow = await fx.call('GET', `/guilds/${fx.guild.guildId}/threads/active`, {
      auth: fx.carol.token,
    });
    expect(activeNow.json<ThreadList>().threads.map((t) => t.id)).not.toContain(a);
    // Deleting takes MANAGE_THREADS and announces THREAD_DELETE.
    expect((await fx.call('DELETE', `/channels/${a}`, { auth: fx.owner.token })).statusCode).toBe(
      200,
    );
    await expect
      .poll(() =>
        fx.events.ofType('THREAD_DELETE').some((e) => (e.data as { id: string }).id === a),
      )
      .toBe(true);
    expect((await fx.call('GET', `/channels/${a}`, { auth: fx.owner.token })).json()).toMatchObject(
      { code: 10003 },
    );
  });

  it('makes forum posts with tags and searches them', async () => {
    const forum = await fx.channel('help', 15, {
      available_tags: [{ name: 'bug' }, { name: 'question' }, { name: 'staff', moderated: true }],
    });
    const tags = new Map((forum.available_tags ?? []).map((t) => [t.name, t.id]));
    const got = await fx.call('GET', `/channels/${forum.id}`, { auth: fx.carol.token });
    expect(
      got.json<{ available_tags: { name: string }[] }>().available_tags.map((t) => t.name),
    ).toEqual(['bug', 'question', 'staff']);
    const post = (name: string, applied: string[], auth = fx.carol.token) =>
      fx.call('POST', `/channels/${forum.id}/threads`, {
        auth,
        payload: { name, applied_tags: applied, message: { content: `about ${name}` } },
      });
    const first = await post('crash on start', [tags.get('bug') ?? '']);
    expect(first.statusCode).toBe(201);
    expect(first.json<Thread>()).toMatchObject({
      type: 11,
      applied_tags: [tags.get('bug')],
      message_count: 1,
      message: { content: 'about crash on start' },
    });
    expect(first.json<Thread>().message?.channel_id).toBe(first.json<Thread>().id);
    await post('how to start', [tags.get('question') ?? '']);
    expect((await post('staff only', [tags.get('staff') ?? ''])).json()).toMatchObject({
      code: 50013,
    });
    expect((await post('unknown tag', ['1'])).json()).toMatchObject({ code: 10087 });
    const noMessage = await fx.call('POST', `/channels/${forum.id}/threads`, {
      auth: fx.carol.token,
      payload: { name: 'empty' },
    });
    expect(noMessage.json()).toMatchObject({ code: 50035 });
    const emptyMessage = await post('blank', []).then(() =>
      fx.call('POST', `/channels/${forum.id}/threads`, {
        auth: fx.carol.token,
        payload: { name: 'blank2', message: { content: '' } },
      }),
    );
    expect(emptyMessage.json()).toMatchObject({ code: 50006 });
    const search = (query: string) =>
      fx.call('GET', `/channels/${forum.id}/threads/search?${query}`, {
        auth: fx.dave.token,
        spec: `/channels/${forum.id}/threads/search`,
      });
    const byName = await search('name=START&sort_by=creation_time&sort_order=asc');
    expect(byName.json<ThreadList>()).toMatchObject({ total_results: 2, has_more: false });
    expect(byName.json<ThreadList>().threads.map((t) => t.applied_tags)).toEqual([
      [tags.get('bug')],
      [tags.get('question')],
    ]);
    const byTag = await search(`tag=${tags.get('question') ?? ''}`);
    expect(byTag.json<ThreadList>().total_results).toBe(1);
    const paged = await search('limit=1&offset=1');
    expect(paged.json<ThreadList>()).toMatchObject({ total_results: 3, has_more: true });
    expect((await search('limit=26')).json()).toMatchObject({ code: 50035 });
  });
});
