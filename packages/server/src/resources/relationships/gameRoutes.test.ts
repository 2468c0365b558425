import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useRelationshipFixture } from '../../../test/support/relationshipFixture.js';
import { dispatchingStorage } from '../../events/afterCommit.js';
import { createBusDispatcher } from '../../events/dispatcher.js';
import { expandScopes } from '../../oauth/scopes.js';
import { readRelationships } from './index.js';

const GAME = '/users/@me/game-relationships';
const PLATFORM = '/users/@me/relationships';
const SETTINGS = '/users/@me/settings/connected-games';

interface Wire {
  id: string;
  type: number;
  application_id?: string;
}

describeDrivers('game relationships and provisional accounts on $driver', (driver) => {
  const f = useRelationshipFixture(driver);

  const code = (res: { body: string }) => (JSON.parse(res.body) as { code: number }).code;
  /** A provisional account of the developer's application, as the game's bot makes it. */
  const provisional = async (externalUserId: string) => {
    const res = await f.call('POST', '/partner-sdk/token/bot', {
      auth: `Bot ${f.dev.botToken}`,
      payload: { external_user_id: externalUserId },
    });
    expect(res.statusCode).toBe(200);
    const token = res.json<{ access_token: string }>().access_token;
    const me = await f.call('GET', '/users/@me', { auth: `Bearer ${token}` });
    return { auth: `Bearer ${token}`, accessToken: token, userId: me.json<{ id: string }>().id };
  };
  const sdk = async (userId: string) =>
    `Bearer ${(await f.authorize(userId, expandScopes(['sdk.social_layer']))).access_token}`;
  const list = async (auth: string, url = GAME) => {
    const res = await f.call('GET', url, { auth });
    expect(res.statusCode).toBe(200);
    return res.json<Wire[]>().map((r) => [r.id, r.type, r.application_id]);
  };

  it('lets provisional accounts of one application befriend each other in its scope', async () => {
    const p1 = await provisional('player-1');
    const p2 = await provisional('player-2');
    expect((await f.call('PUT', `${GAME}/${p2.userId}`, { auth: p1.auth })).statusCode).toBe(204);
    const app = f.dev.applicationId;
    expect(await list(p2.auth)).toEqual([[p1.userId, 3, app]]);
    // New accounts sharing no guild, but game requests are never flagged as spam.
    const [incoming] = (await f.call('GET', GAME, { auth: p2.auth })).json<
      { is_spam_request: boolean }[]
    >();
    expect(incoming?.is_spam_request).toBe(false);
    expect((await f.call('PUT', `${GAME}/${p1.userId}`, { auth: p2.auth })).statusCode).toBe(204);
    expect(await list(p1.auth)).toEqual([[p2.userId, 1, app]]);
    expect(await list(p1.auth, PLATFORM)).toEqual([]);
    const ready = await readRelationships(f.server.app.storage, p1.userId, app);
    expect(ready).toEqual([
      expect.objectContaining({ id: p2.userId, type: 1, application_id: app }),
    ]);
    expect(await readRelationships(f.server.app.storage, p1.userId)).toEqual([]);
    expect(await f.server.app.storage.relationships.areFriends(p1.userId, p2.userId, app)).toBe(
      true,
    );
    // Platform-wide friendship is not for provisional accounts, either way.
    expect(code(await f.call('PUT', `${PLATFORM}/${p2.userId}`, { auth: p1.auth }))).toBe(50001);
    expect(code(await f.call('PUT', `${PLATFORM}/${p1.userId}`, { auth: f.ada.token }))).toBe(
      50001,
    );
  });

  it('needs both users to use the application', async () => {
    const p1 = await provisional('player-1');
    const put = () => f.call('PUT', `${GAME}/${f.ada.userId}`, { auth: p1.auth });
    expect(code(await put())).toBe(80009);
    expect(await list(p1.auth)).toEqual([]);
    const adaSdk = await sdk(f.ada.userId);
    expect((await put()).statusCode).toBe(204);
    expect(await list(adaSdk)).toEqual([[p1.userId, 3, f.dev.applicationId]]);
    // Once ada stops using the game, no new request, but the old one can still be withdrawn.
    await f.server.app.services.oauth.revokeAuthorization({
      userId: f.ada.userId,
      applicationId: f.dev.applicationId,
    });
    expect(code(await f.call('PUT', `${GAME}/${f.ada.userId}`, { auth: p1.auth }))).toBe(80009);
    expect((await f.call('DELETE', `${GAME}/${f.ada.userId}`, { auth: p1.auth })).statusCode).toBe(
      204,
    );
    expect(await list(p1.auth)).toEqual([]);
    // Another application's token cannot act in this one's scope.
    const other = await f.server.app.services.applications.create(f.ada.userId, { name: 'other' });
    const otherToken = await f.bearer(f.ada.userId, ['relationships.read'], other.application.id);
    const wrong = await f.call('GET', `${GAME}?application_id=${f.dev.applicationId}`, {
      auth: otherToken,
    });
    expect(code(wrong)).toBe(50001);
  });

  it('lets a session name the application, and checks it', async () => {
    const p1 = await provisional('player-1');
    await sdk(f.ada.userId);
    const url = `${GAME}/${p1.userId}?application_id=${f.dev.applicationId}`;
    expect((await f.call('PUT', url, { auth: f.ada.token })).statusCode).toBe(204);
    expect(await list(f.ada.token, `${GAME}?application_id=${f.dev.applicationId}`)).toEqual([
      [p1.userId, 4, f.dev.applicationId],
    ]);
    expect(code(await f.call('GET', GAME, { auth: f.ada.token }))).toBe(50035);
    expect(code(await f.call('GET', `${GAME}?application_id=1234567`, { auth: f.ada.token }))).toBe(
      10002,
    );
    expect(code(await f.call('GET', `${GAME}?application_id=x`, { auth: f.ada.token }))).toBe(
      50035,
    );
  });

  it('moves game friends to the full account on merge, and back on unmerge', async () => {
    const p1 = await provisional('player-1');
    const p2 = await provisional('player-2');
    await f.call('PUT', `${GAME}/${p2.userId}`, { auth: p1.auth });
    await f.call('PUT', `${GAME}/${p1.userId}`, { auth: p2.auth });
    // bob is ada's Discord friend and uses the game.
    await f.call('PUT', `${PLATFORM}/${f.bob.userId}`, { auth: f.ada.token });
    await f.call('PUT', `${PLATFORM}/${f.ada.userId}`, { auth: f.bob.token });
    await sdk(f.bob.userId);

    const watch = await f.watch();
    // The token endpoint's grant runs the merge in a dispatching transaction; so does this.
    const events = createBusDispatcher({
      bus: f.server.app.bus,
      clock: f.clock,
      onError: (err) => {
        throw err;
      },
    });
    await dispatchingStorage(f.server.app.storage, events).transaction((tx) =>
      f.server.app.services.provisional.mergeProvisional(tx, {
        applicationId: f.dev.applicationId,
        userId: f.ada.userId,
        credential: { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: p1.accessToken },
      }),
    );
    const app = f.dev.applicationId;
    const relationships = f.server.app.storage.relationships;
    expect(await relationships.friendIds(f.ada.userId, app)).toEqual(
      [f.bob.userId, p2.userId].sort(),
    );
    expect(await relationships.listEveryScope(p1.userId)).toEqual([]);
    expect(await relationships.get(p2.userId, f.ada.userId, app)).toMatchObject({ type: 1 });
    const added = await watch.next('RELATIONSHIP_ADD');
    expect(added.data).toMatchObject({ application_id: app, type: 1 });

    const unmerge = await f.call('POST', '/partner-sdk/provisional-accounts/unmerge/bot', {
      auth: `Bot ${f.dev.botToken}`,
      payload: { external_user_id: 'player-1' },
    });
    expect(unmerge.statusCode).toBe(204);
    const identity = await f.server.app.storage.provisional.findIdentity({
      applicationId: app,
      authType: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      subject: 'player-1',
    });
    const fresh = identity?.userId ?? '';
    expect(fresh).not.toBe(f.ada.userId);
    // The game friend went with it; the Discord friend who plays is its game friend too.
    expect(await relationships.friendIds(fresh, app)).toEqual([f.bob.userId, p2.userId].sort());
    expect(await relationships.listForUser(f.ada.userId, app)).toEqual([]);
    expect(await relationships.friendIds(f.ada.userId)).toEqual([f.bob.userId]);
  });

  it('keeps the connected-games "who can message me" setting', async () => {
    const get = async (auth: string) => f.call('GET', SETTINGS, { auth });
    expect((await get(f.ada.token)).json()).toEqual({ allow_messages_from: 'friends' });
    const patch = (auth: string, payload: unknown) => f.call('PATCH', SETTINGS, { auth, payload });
    const set = await patch(f.ada.token, { allow_messages_from: 'nobody' });
    expect(set.json()).toEqual({ allow_messages_from: 'nobody' });
    expect(await f.server.app.storage.relationships.messagePolicy(f.ada.userId)).toBe('nobody');
    expect(code(await patch(f.ada.token, { allow_messages_from: 'all' }))).toBe(50035);
    expect(code(await patch(f.ada.token, {}))).toBe(50035);
    const p1 = await provisional('player-1');
    expect((await patch(p1.auth, { allow_messages_from: 'everyone' })).statusCode).toBe(200);
    const readOnly = await f.bearer(f.bob.userId, ['relationships.read']);
    expect((await get(readOnly)).statusCode).toBe(200);
    expect(code(await patch(readOnly, { allow_messages_from: 'everyone' }))).toBe(50026);
    expect(code(await get(`Bot ${f.dev.botToken}`))).toBe(20001);
    expect((await get(f.bob.token)).json()).toEqual({ allow_messages_from: 'friends' });
  });
});
