import { expect, it } from 'vitest';
import { uniqueName } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useProvisionalFixture, type TokenBody } from '../../../test/support/provisionalFixture.js';

interface Message {
  id: string;
  channel_id: string;
  content: string;
  edited_timestamp: string | null;
}

describeDrivers('Social SDK DM metadata, edits and deletes on $driver', (driver) => {
  const fx = useProvisionalFixture(driver);
  const { call, botToken, me } = fx;

  const player = async (externalId: string) => {
    const token = (await botToken(externalId)).json<TokenBody>().access_token;
    const id = (await me(token)).json<{ id: string }>().id;
    return { id, auth: `Bearer ${token}` };
  };
  /** Two provisional players who may DM each other (everyone may message them). */
  const pair = async () => {
    const a = await player('a');
    const b = await player('b');
    for (const p of [a, b])
      await fx.server.app.storage.relationships.setMessagePolicy(p.id, 'everyone');
    const sent = await call('POST', `/users/${b.id}/messages`, {
      auth: a.auth,
      payload: { content: 'gg' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    return { a, b, message: sent.json<Message>() };
  };
  const history = async (auth: string, userId: string) =>
    (await call('GET', `/users/${userId}/messages?limit=10`, { auth })).json<Message[]>();

  it('keeps a game’s metadata of a DM it sends, and refuses it elsewhere', async () => {
    const { a, b } = await pair();
    const sent = await call('POST', `/users/${b.id}/messages`, {
      auth: a.auth,
      payload: { content: 'join us', metadata: { party: 'red', slot: '2' } },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ metadata: { party: 'red', slot: '2' } });
    const [newest] = await history(b.auth, a.id);
    expect(newest).toMatchObject({ content: 'join us', metadata: { party: 'red', slot: '2' } });
    // Edits keep it.
    const edited = await call('PATCH', `/users/${b.id}/messages/${newest?.id ?? ''}`, {
      auth: a.auth,
      payload: { content: 'join us now' },
    });
    expect(edited.json()).toMatchObject({ metadata: { party: 'red', slot: '2' } });
    const tooMany = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    const refused = await call('POST', `/users/${b.id}/messages`, {
      auth: a.auth,
      payload: { content: 'x', metadata: tooMany },
    });
    expect(refused.json()).toMatchObject({ code: 50035, errors: { metadata: {} } });
    const notStrings = await call('POST', `/users/${b.id}/messages`, {
      auth: a.auth,
      payload: { content: 'x', metadata: { n: 1 } },
    });
    expect(notStrings.json()).toMatchObject({ code: 50035 });
    // A person's own client (a session) attaches none: it is a game's.
    const person = async (name: string) => {
      const username = uniqueName(name);
      return fx.server.app.services.auth.register({
        email: `${username}@example.test`,
        username,
        password: 'correct horse battery',
      });
    };
    const ann = await person('ann');
    const ben = await person('ben');
    const dm = await call('POST', '/users/@me/channels', {
      auth: ann.token,
      payload: { recipient_id: ben.user_id },
    });
    const fromSession = await call('POST', `/channels/${dm.json<{ id: string }>().id}/messages`, {
      auth: ann.token,
      payload: { content: 'x', metadata: { a: 'b' } },
    });
    expect(fromSession.json()).toMatchObject({ code: 50035, errors: { metadata: {} } });
  });

  it('lets the author edit a DM message through the user route', async () => {
    const { a, b, message } = await pair();
    const edited = await call('PATCH', `/users/${b.id}/messages/${message.id}`, {
      auth: a.auth,
      payload: { content: 'good game' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Message>()).toMatchObject({ id: message.id, content: 'good game' });
    expect(edited.json<Message>().edited_timestamp).not.toBeNull();
    expect((await history(b.auth, a.id)).map((m) => m.content)).toEqual(['good game']);
  });

  it('refuses another user’s message, an unknown message, no DM and bad bodies', async () => {
    const { a, b, message } = await pair();
    const byOther = await call('PATCH', `/users/${a.id}/messages/${message.id}`, {
      auth: b.auth,
      payload: { content: 'not mine' },
    });
    expect(byOther.json()).toMatchObject({ code: 50005 });
    const deleteByOther = await call('DELETE', `/users/${a.id}/messages/${message.id}`, {
      auth: b.auth,
    });
    expect(deleteByOther.statusCode).toBe(403);
    expect(
      (
        await call('PATCH', `/users/${b.id}/messages/4242`, {
          auth: a.auth,
          payload: { content: 'x' },
        })
      ).json(),
    ).toMatchObject({ code: 10008 });
    const c = await player('c');
    expect(
      (await call('DELETE', `/users/${c.id}/messages/${message.id}`, { auth: a.auth })).json(),
    ).toMatchObject({ code: 10003 });
    expect(
      (
        await call('PATCH', `/users/${b.id}/messages/${message.id}`, {
          auth: a.auth,
          payload: { content: 42 },
        })
      ).json(),
    ).toMatchObject({ code: 50035 });
    expect((await history(b.auth, a.id)).map((m) => m.content)).toEqual(['gg']);
  });

  it('lets the author delete a DM message', async () => {
    const { a, b, message } = await pair();
    const deleted = await call('DELETE', `/users/${b.id}/messages/${message.id}`, {
      auth: a.auth,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await history(b.auth, a.id)).toEqual([]);
    const again = await call('DELETE', `/users/${b.id}/messages/${message.id}`, { auth: a.auth });
    expect(again.json()).toMatchObject({ code: 10008 });
  });
});
