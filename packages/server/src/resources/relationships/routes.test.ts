import { expect, it, vi } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useRelationshipFixture } from '../../../test/support/relationshipFixture.js';
import type { Principal } from '../../http/authenticator.js';
import { createRelationshipService, DEFAULT_RELATIONSHIP_OPTIONS } from './service.js';

const BASE = '/users/@me/relationships';

interface Wire {
  id: string;
  type: number;
  nickname: string | null;
  is_spam_request: boolean;
  since: string;
  user: { id: string; username: string };
  application_id?: string;
}

describeDrivers('platform relationships on $driver', (driver) => {
  const f = useRelationshipFixture(driver);

  const list = async (auth: string) => {
    const res = await f.call('GET', BASE, { auth });
    expect(res.statusCode).toBe(200);
    return res.json<Wire[]>();
  };
  const types = async (auth: string) => (await list(auth)).map((r) => [r.id, r.type]);
  const put = (auth: string, userId: string, payload: unknown = {}) =>
    f.call('PUT', `${BASE}/${userId}`, { auth, payload });
  const expectError = (res: { statusCode: number; body: string }, code: number) => {
    expect(JSON.parse(res.body)).toMatchObject({ code });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
  };

  it('sends a request, accepts it, and both become friends, with events to each side', async () => {
    const watch = await f.watch();
    expect((await put(f.ada.token, f.bob.userId)).statusCode).toBe(204);
    expect(await types(f.ada.token)).toEqual([[f.bob.userId, 4]]);
    const [incoming] = await list(f.bob.token);
    expect(incoming).toEqual({
      id: f.ada.userId,
      type: 3,
      user: expect.objectContaining({ id: f.ada.userId, username: f.ada.username }) as unknown,
      nickname: null,
      is_spam_request: false,
      since: new Date(f.clock.now()).toISOString(),
    });
    // Sending again changes nothing.
    expect((await put(f.ada.token, f.bob.userId, { type: 1 })).statusCode).toBe(204);

    f.clock.advance(1000);
    expect((await put(f.bob.token, f.ada.userId, { type: null })).statusCode).toBe(204);
    expect(await types(f.ada.token)).toEqual([[f.bob.userId, 1]]);
    expect(await types(f.bob.token)).toEqual([[f.ada.userId, 1]]);

    await watch.next('RELATIONSHIP_ADD');
    const adds = await vi.waitFor(() => {
      const seen = watch.events.filter((d) => d.type === 'RELATIONSHIP_ADD');
      if (seen.length < 4) throw new Error('waiting');
      return seen;
    });
    const toAda = adds.filter((d) => d.subject === `dispatch.user.${f.ada.userId}`);
    expect(toAda.map((d) => (d.data as Wire).type)).toEqual([4, 1]);
    const toBob = adds.filter((d) => d.subject === `dispatch.user.${f.bob.userId}`);
    expect(toBob.map((d) => (d.data as Wire).type)).toEqual([3, 1]);
    expect((toBob[1]?.data as Wire).user.id).toBe(f.ada.userId);
  });

  it('makes two crossing requests one friendship', async () => {
    const [one, two] = await Promise.all([
      put(f.ada.token, f.bob.userId),
      put(f.bob.token, f.ada.userId),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([204, 204]);
    expect(await types(f.ada.token)).toEqual([[f.bob.userId, 1]]);
    expect(await types(f.bob.token)).toEqual([[f.ada.userId, 1]]);
  });

  it('sends a request by username, and refuses unknown names, bots and friends', async () => {
    const send = (payload: unknown) => f.call('POST', BASE, { auth: f.ada.token, payload });
    expect((await send({ username: f.bob.username, discriminator: null })).statusCode).toBe(204);
    expect(await types(f.bob.token)).toEqual([[f.ada.userId, 3]]);
    expectError(await send({ username: 'nobody' }), 80004);
    expectError(await send({ username: f.bob.username, discriminator: '1234' }), 80004);
    expectError(await send({ username: f.ada.username }), 80003);
    const bot = await f.server.app.storage.users.findById(f.dev.botUserId);
    expectError(await send({ username: bot?.username }), 80004);
    await put(f.bob.token, f.ada.userId);
    expectError(await send({ username: f.bob.username }), 80007);
    expectError(await send({ username: `${f.bob.username}' OR '1'='1` }), 80004);
    expectError(await send({ username: `${f.bob.username}\u202e` }), 80004);
    expectError(await send({ username: 5 }), 50035);
    expectError(await send({ username: f.bob.username, discriminator: {} }), 50035);
    expectError(await send({}), 50035);
    expectError(await send({ username: 'x'.repeat(33) }), 50035);
  });

  it('blocks: friendship and requests end, the blocked cannot ask again, unblock lifts it', async () => {
    await put(f.ada.token, f.bob.userId);
    await put(f.bob.token, f.ada.userId);
    const watch = await f.watch();
    expect((await put(f.ada.token, f.bob.userId, { type: 2 })).statusCode).toBe(204);
    expect(await types(f.ada.token)).toEqual([[f.bob.userId, 2]]);
    expect(await types(f.bob.token)).toEqual([]);
    const removed = await watch.next('RELATIONSHIP_REMOVE');
    const blocked = await watch.next('RELATIONSHIP_ADD');
    expect(blocked.subject).toBe(`dispatch.user.${f.ada.userId}`);
    expect(blocked.data).toMatchObject({ id: f.bob.userId, type: 2 });
    expect(watch.events.filter((d) => d.type === 'RELATIONSHIP_REMOVE')).toHaveLength(1);
    expect(removed.subject).toBe(`dispatch.user.${f.bob.userId}`);
    expect(removed.data).toMatchObject({ id: f.ada.userId, type: 1 });

    expectError(await put(f.bob.token, f.ada.userId), 80001);
    expectError(await put(f.ada.token, f.bob.userId), 80001);
    expect(await types(f.bob.token)).toEqual([]);
    // The blocked side may block back; each keeps its own.
    expect((await put(f.bob.token, f.ada.userId, { type: 2 })).statusCode).toBe(204);
    expect(
      (await f.call('DELETE', `${BASE}/${f.bob.userId}`, { auth: f.ada.token })).statusCode,
    ).toBe(204);
    expect(await types(f.ada.token)).toEqual([]);
    expect(await types(f.bob.token)).toEqual([[f.ada.userId, 2]]);
    expectError(await put(f.ada.token, f.bob.userId), 80001);
    await f.call('DELETE', `${BASE}/${f.ada.userId}`, { auth: f.bob.token });
    expect((await put(f.ada.token, f.bob.userId)).statusCode).toBe(204);
  });

  it('removes a friend on both sides, cancels and declines requests', async () => {
    const remove = (auth: string, userId: string) =>
      f.call('DELETE', `${BASE}/${userId}`, { auth });
    await put(f.ada.token, f.bob.userId);
    // Decline (the incoming side).
    expect((await remove(f.bob.token, f.ada.userId)).statusCode).toBe(204);
    expect(await types(f.ada.token)).toEqual([]);
    // Cancel (the outgoing side).
    await put(f.ada.token, f.bob.userId);
    await remove(f.ada.token, f.bob.userId);
    expect(await types(f.bob.token)).toEqual([]);
    // Remove a friend.
    await put(f.ada.token, f.bob.userId);
    await put(f.bob.token, f.ada.userId);
    await remove(f.bob.token, f.ada.userId);
    expect(await types(f.ada.token)).toEqual([]);
    expect(await types(f.bob.token)).toEqual([]);
    // Nothing to remove: still 204.
    expect((await remove(f.bob.token, f.ada.userId)).statusCode).toBe(204);
  });

  it('lists mutual friends, none while blocked', async () => {
    const cy = await f.register('cy');
    const befriend = async (a: { token: string; userId: string }, b: typeof a) => {
      await put(a.token, b.userId);
      await put(b.token, a.userId);
    };
    await befriend(f.ada, cy);
    await befriend(f.bob, cy);
    const mutual = async (auth: string, userId: string) => {
      const res = await f.call('GET', `/users/${userId}/relationships`, { auth });
      expect(res.statusCode).toBe(200);
      return res.json<{ id: string }[]>().map((u) => u.id);
    };
    expect(await mutual(f.ada.token, f.bob.userId)).toEqual([cy.userId]);
    expect(await mutual(f.bob.token, f.ada.userId)).toEqual([cy.userId]);
    expect(await mutual(f.ada.token, cy.userId)).toEqual([]);
    await put(f.bob.token, f.ada.userId, { type: 2 });
    expect(await mutual(f.ada.token, f.bob.userId)).toEqual([]);
    expectError(
      await f.call('GET', '/users/12345678901234567/relationships', { auth: f.ada.token }),
      10013,
    );
    expectError(await f.call('GET', '/users/nope/relationships', { auth: f.ada.token }), 50035);
  });

  it('sets a friend nickname for its owner only', async () => {
    const patch = (payload: unknown) =>
      f.call('PATCH', `${BASE}/${f.bob.userId}`, { auth: f.ada.token, payload });
    expectError(await patch({ nickname: 'Bobby' }), 80006);
    await put(f.ada.token, f.bob.userId);
    await put(f.bob.token, f.ada.userId);
    const watch = await f.watch();
    expect((await patch({ nickname: 'Bobby' })).statusCode).toBe(204);
    expect((await list(f.ada.token))[0]?.nickname).toBe('Bobby');
    expect((await list(f.bob.token))[0]?.nickname).toBeNull();
    const update = await watch.next('RELATIONSHIP_UPDATE');
    expect(update.subject).toBe(`dispatch.user.${f.ada.userId}`);
    expect(update.data).toMatchObject({ id: f.bob.userId, nickname: 'Bobby', type: 1 });
    expectError(await patch({ nickname: 'x'.repeat(33) }), 50035);
    expectError(await patch({ nickname: 'a\u202eb' }), 50035);
    expectError(await patch({ nickname: 5 }), 50035);
    expectError(await patch({}), 50035);
    expect((await patch({ nickname: null })).statusCode).toBe(204);
    expect((await list(f.ada.token))[0]?.nickname).toBeNull();
  });

  it('refuses self, bots, unknown users, bad ids and bad types, changing nothing', async () => {
    expectError(await put(f.ada.token, f.ada.userId), 80003);
    expectError(await put(f.ada.token, f.dev.botUserId), 80002);
    expectError(await put(f.ada.token, f.dev.botUserId, { type: 2 }), 80002);
    expectError(await put(f.ada.token, '12345678901234567'), 10013);
    expectError(await put(f.ada.token, 'not-an-id'), 50035);
    expectError(await put(f.ada.token, "1'; DROP TABLE relationships;--"), 50035);
    expectError(await put(f.ada.token, f.bob.userId, { type: 3 }), 50035);
    expectError(await put(f.ada.token, f.bob.userId, { type: '1' }), 50035);
    expectError(await put(f.ada.token, f.bob.userId, []), 50035);
    expectError(await f.call('DELETE', `${BASE}/${f.ada.userId}`, { auth: f.ada.token }), 80003);
    expect(await types(f.ada.token)).toEqual([]);
    expect(await types(f.bob.token)).toEqual([]);
  });

  it('stops at the friend limit: no new request, no accept', async () => {
    // The service with a limit of one friend, over the same storage (the default is 1000).
    const limited = createRelationshipService(
      { storage: f.server.app.storage, clock: f.clock },
      { maxFriends: 1 },
    );
    const principal = async (userId: string): Promise<Principal> => {
      const user = await f.server.app.storage.users.findById(userId);
      if (user === null) throw new Error('no such user');
      return { kind: 'session', user, applicationId: null, scopes: [], tokenHash: 'unused' };
    };
    const cy = await f.register('cy');
    await put(f.ada.token, cy.userId);
    await put(cy.token, f.ada.userId);
    const ada = await principal(f.ada.userId);
    const body = { type: 1 as const };
    await expect(
      limited.put(ada, { targetId: f.bob.userId, body, scope: null }),
    ).rejects.toMatchObject({ code: 30002 });
    await put(f.bob.token, f.ada.userId);
    await expect(
      limited.put(ada, { targetId: f.bob.userId, body, scope: null }),
    ).rejects.toMatchObject({ code: 30002 });
    expect(await types(f.bob.token)).toEqual([[f.ada.userId, 4]]);
    expect(DEFAULT_RELATIONSHIP_OPTIONS.maxFriends).toBe(1000);
  });

  it('flags a request from a new account sharing no guild as spam', async () => {
    const newcomer = await f.register('newcomer');
    expect((await put(newcomer.token, f.bob.userId)).statusCode).toBe(204);
    expect((await list(f.bob.token))[0]).toMatchObject({
      id: newcomer.userId,
      is_spam_request: true,
    });
    // An established account's request is not.
    await put(f.ada.token, f.bob.userId);
    const fromAda = (await list(f.bob.token)).find((r) => r.id === f.ada.userId);
    expect(fromAda?.is_spam_request).toBe(false);
  });

  it('gates Bearer tokens by scope and refuses bots and no token', async () => {
    const read = await f.bearer(f.ada.userId, ['identify', 'relationships.read']);
    expect((await f.call('GET', BASE, { auth: read })).statusCode).toBe(200);
    expectError(await put(read, f.bob.userId), 50026);
    const none = await f.bearer(f.ada.userId, ['identify']);
    expectError(await f.call('GET', BASE, { auth: none }), 50026);
    const write = await f.bearer(f.ada.userId, ['relationships.write', 'relationships.read']);
    expect((await put(write, f.bob.userId)).statusCode).toBe(204);
    expectError(await f.call('GET', BASE, { auth: `Bot ${f.dev.botToken}` }), 20001);
    expect((await f.call('GET', BASE, { auth: '' })).statusCode).toBe(401);
  });
});
