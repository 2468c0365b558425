import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useThreadFixture } from '../../../test/support/threadFixture.js';

interface Message {
  id: string;
  channel_id: string;
  content: string;
  flags: number;
  webhook_id?: string;
  author: { id: string; username: string };
  message_reference?: { channel_id: string; message_id: string };
}

const CROSSPOSTED = 1 << 0;
const IS_CROSSPOST = 1 << 1;

describeDrivers('announcement channels on $driver', (driver) => {
  const fx = useThreadFixture(driver);

  it('follows an announcement channel; a crosspost reaches the follower webhook', async () => {
    const news = await fx.channel('news', 5);
    const lobby = await fx.channel('lobby');
    const followed = await fx.call('POST', `/channels/${news.id}/followers`, {
      auth: fx.owner.token,
      payload: { webhook_channel_id: lobby.id },
    });
    expect(followed.statusCode).toBe(200);
    const { webhook_id } = followed.json<{ channel_id: string; webhook_id: string }>();
    expect(followed.json()).toEqual({ channel_id: news.id, webhook_id });
    const hooks = await fx.call('GET', `/channels/${lobby.id}/webhooks`, { auth: fx.owner.token });
    expect(hooks.json()).toMatchObject([
      { id: webhook_id, type: 2, source_channel: { id: news.id, name: 'news' } },
    ]);

    const posted = await fx.post(fx.carol.token, news.id, { content: 'release 1.0 is out' });
    const original = posted.json<Message>();
    // Someone else's message takes MANAGE_MESSAGES; carol crossposts her own.
    const refused = await fx.call(
      'POST',
      `/channels/${news.id}/messages/${original.id}/crosspost`,
      { auth: fx.dave.token },
    );
    expect(refused.json()).toMatchObject({ code: 50013 });
    const crossposted = await fx.call(
      'POST',
      `/channels/${news.id}/messages/${original.id}/crosspost`,
      { auth: fx.carol.token },
    );
    expect(crossposted.statusCode).toBe(200);
    expect(crossposted.json<Message>().flags & CROSSPOSTED).toBe(CROSSPOSTED);
    const again = await fx.call('POST', `/channels/${news.id}/messages/${original.id}/crosspost`, {
      auth: fx.carol.token,
    });
    expect(again.json()).toMatchObject({ code: 40033 });

    const received = await fx.call('GET', `/channels/${lobby.id}/messages`, {
      auth: fx.dave.token,
    });
    const [copy] = received.json<Message[]>();
    expect(copy).toMatchObject({
      content: 'release 1.0 is out',
      webhook_id,
      author: { id: webhook_id, username: 'Fixture guild #news' },
      message_reference: { channel_id: news.id, message_id: original.id },
    });
    expect((copy?.flags ?? 0) & IS_CROSSPOST).toBe(IS_CROSSPOST);
  });

  it('refuses bad follows and crossposts outside announcement channels', async () => {
    const text = await fx.channel('plain');
    const news = await fx.channel('updates', 5);
    const cases = [
      [`/channels/${text.id}/followers`, { webhook_channel_id: news.id }, fx.owner.token, 50024],
      [`/channels/${news.id}/followers`, { webhook_channel_id: 'x' }, fx.owner.token, 50035],
      [`/channels/${news.id}/followers`, { webhook_channel_id: '1' }, fx.owner.token, 10003],
      [`/channels/${news.id}/followers`, { webhook_channel_id: text.id }, fx.carol.token, 50013],
    ] as const;
    for (const [path, payload, auth, code] of cases) {
      const res = await fx.call('POST', path, { auth, payload });
      expect([path, res.json<{ code: number }>().code]).toEqual([path, code]);
    }
    const plain = await fx.post(fx.owner.token, text.id, { content: 'not news' });
    const res = await fx.call(
      'POST',
      `/channels/${text.id}/messages/${plain.json<Message>().id}/crosspost`,
      { auth: fx.owner.token },
    );
    expect(res.json()).toMatchObject({ code: 50024 });
    const unknown = await fx.call('POST', `/channels/${news.id}/messages/1/crosspost`, {
      auth: fx.owner.token,
    });
    expect(unknown.json()).toMatchObject({ code: 10008 });
  });

  it('an incoming webhook posts into a thread of its channel with thread_id', async () => {
    const text = await fx.channel('hooked');
    const hook = await fx.call('POST', `/channels/${text.id}/webhooks`, {
      auth: fx.owner.token,
      payload: { name: 'ci' },
    });
    const { id, token } = hook.json<{ id: string; token: string }>();
    const thread = await fx.call('POST', `/channels/${text.id}/threads`, {
      auth: fx.owner.token,
      payload: { name: 'builds', type: 11 },
    });
    const threadId = thread.json<{ id: string }>().id;
    const path = `/webhooks/${id}/${token}`;
    const posted = await fx.call('POST', `${path}?wait=true&thread_id=${threadId}`, {
      auth: '',
      payload: { content: 'build passed' },
      spec: path,
    });
    expect(posted.json<Message>()).toMatchObject({ channel_id: threadId, content: 'build passed' });
    const other = await fx.channel('elsewhere');
    const foreign = await fx.call('POST', `/channels/${other.id}/threads`, {
      auth: fx.owner.token,
      payload: { name: 'not yours', type: 11 },
    });
    const refused = await fx.call(
      'POST',
      `${path}?wait=true&thread_id=${foreign.json<{ id: string }>().id}`,
      { auth: '', payload: { content: 'x' }, spec: path },
    );
    expect(refused.json()).toMatchObject({ code: 10003 });
  });
});
