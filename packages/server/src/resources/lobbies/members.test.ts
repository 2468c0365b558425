import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useLobbyFixture } from '../../../test/support/lobbyFixture.js';
import { LOBBY_LIMITS } from './schemas.js';

interface Member {
  id: string;
  metadata: Record<string, string> | null;
  flags: number;
  additional_name?: string;
}

describeDrivers('lobby members on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;

  const create = async (members: object[] = []) => {
    const res = await call('POST /lobbies', fx.bot(), { members });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const put = (lobbyId: string, userId: string, payload: object) =>
    call(`PUT /lobbies/${lobbyId}/members/${userId}`, fx.bot(), payload);
  const remove = (lobbyId: string, userId: string, auth = fx.bot()) =>
    call(`DELETE /lobbies/${lobbyId}/members/${userId}`, auth);
  const bulk = (lobbyId: string, payload: unknown) =>
    call(`POST /lobbies/${lobbyId}/members/bulk`, fx.bot(), payload);
  const members = (lobbyId: string) => fx.app.storage.lobbies.listMembers(lobbyId);

  /** Puts the user in `count` lobbies of the game (straight into storage: the limit's setup). */
  // Lobby ids of their own: the tests of the file share a server.
  let filled = 0;
  const fillLobbies = async (userId: string, count: number) => {
    for (let i = 0; i < count; i++) {
      const id = String(9_000_000 + filled++);
      await fx.app.storage.lobbies.create({
        id,
        applicationId: fx.dev.applicationId,
        metadata: null,
        flags: 0,
        idleTimeoutSeconds: 300,
        linkedChannelId: null,
        overrideEventWebhooksUrl: null,
        secretHash: null,
        secretExpiresAt: null,
        createdAt: fx.clock.now(),
        emptiedAt: null,
      });
      await fx.app.storage.lobbies.putMember({
        lobbyId: id,
        userId,
        metadata: null,
        flags: 0,
        additionalName: null,
        joinedAt: fx.clock.now(),
      });
    }
  };

  describe('PUT /lobbies/{id}/members/{user}', () => {
    it('adds, then updates: additional_name omitted keeps it, null clears it', async () => {
      const { ann } = fx.players;
      const lobbyId = await create();
      const added = await put(lobbyId, ann.id, { metadata: { a: '1' }, additional_name: 'Ace' });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json<Member>()).toEqual({
        id: ann.id,
        metadata: { a: '1' },
        flags: 0,
        additional_name: 'Ace',
      });
      const add = await fx.dispatches.next('LOBBY_MEMBER_ADD');
      expect(add.userIds).toEqual([ann.id]);
      const kept = await put(lobbyId, ann.id, { flags: 1 });
      expect(kept.json<Member>()).toEqual({
        id: ann.id,
        metadata: { a: '1' },
        flags: 1,
        additional_name: 'Ace',
      });
      await fx.dispatches.next('LOBBY_MEMBER_UPDATE');
      const cleared = await put(lobbyId, ann.id, { additional_name: null, metadata: null });
      expect(cleared.json<Member>()).toEqual({ id: ann.id, metadata: null, flags: 1 });
    });

    it('refuses bad input, unknown users and unknown lobbies', async () => {
      const { ann } = fx.players;
      const lobbyId = await create();
      for (const payload of [
        { additional_name: '' },
        { additional_name: 'x'.repeat(81) },
        { flags: 4 },
        { metadata: { k: 'v'.repeat(1000) } },
        { metadata: [] },
      ]) {
        const res = await put(lobbyId, ann.id, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ code: 50035 });
      }
      expect((await put(lobbyId, '4242', {})).json()).toMatchObject({ code: 10013 });
      expect((await put('4242', ann.id, {})).json()).toMatchObject({ code: 10031 });
      expect(await members(lobbyId)).toEqual([]);
    });

    it('refuses a user in 100 lobbies of the application already', async () => {
      const { ann } = fx.players;
      await fillLobbies(ann.id, LOBBY_LIMITS.maxLobbiesPerUser);
      const lobbyId = await create();
      const res = await put(lobbyId, ann.id, {});
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 50035,
        errors: { _errors: [{ code: 'LOBBY_USER_LIMIT' }] },
      });
      // Another application's lobbies do not count.
      const other = await call('POST /lobbies', fx.otherBot(), { members: [{ id: ann.id }] });
      expect(other.statusCode).toBe(201);
    });
  });

  describe('DELETE /lobbies/{id}/members/{user} and /members/@me', () => {
    it('removes a member, answers 204 for a non-member, and fails for an unknown lobby', async () => {
      const { ann, bob } = fx.players;
      const lobbyId = await create([{ id: ann.id }, { id: bob.id }]);
      expect((await remove(lobbyId, ann.id)).statusCode).toBe(204);
      const removed = await fx.dispatches.next('LOBBY_MEMBER_REMOVE');
      expect([...removed.userIds].sort()).toEqual([ann.id, bob.id].sort());
      expect((await remove(lobbyId, ann.id)).statusCode).toBe(204);
      expect((await remove(lobbyId, 'junk')).statusCode).toBe(204);
      expect((await remove('4242', ann.id)).json()).toMatchObject({ code: 10031 });
      expect((await members(lobbyId)).map((m) => m.userId)).toEqual([bob.id]);
    });

    it('lets an SDK client leave, and nobody else use @me', async () => {
      const { ann, bob } = fx.players;
      const lobbyId = await create([{ id: ann.id }, { id: bob.id }]);
      const leave = (auth: string) => call(`DELETE /lobbies/${lobbyId}/members/@me`, auth);
      expect((await leave(fx.players.ann.bearer)).statusCode).toBe(204);
      expect((await members(lobbyId)).map((m) => m.userId)).toEqual([bob.id]);
      const otherApp = await fx.bearerFor(bob.id, fx.other.applicationId);
      expect((await leave(otherApp)).json()).toMatchObject({ code: 10031 });
      expect((await leave(bob.session)).statusCode).toBe(401);
      expect((await members(lobbyId)).map((m) => m.userId)).toEqual([bob.id]);
    });
  });

  describe('POST /lobbies/{id}/members/bulk', () => {
    it('upserts and removes in order, returning the members it kept', async () => {
      const { ann, bob, cat } = fx.players;
      const lobbyId = await create([{ id: ann.id }]);
      const res = await bulk(lobbyId, [
        { id: ann.id, remove_member: true },
        { id: bob.id, additional_name: 'Bo', flags: 1 },
        { id: cat.id, metadata: { x: 'y' } },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([
        { id: bob.id, metadata: null, flags: 1, additional_name: 'Bo' },
        { id: cat.id, metadata: { x: 'y' }, flags: 0 },
      ]);
      expect((await members(lobbyId)).map((m) => m.userId).sort()).toEqual([bob.id, cat.id].sort());
    });

    it('fails whole for an unknown user, and drops users at the lobby limit', async () => {
      const { ann, bob } = fx.players;
      const lobbyId = await create();
      const unknown = await bulk(lobbyId, [{ id: ann.id }, { id: '4242' }]);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 10013 });
      expect(await members(lobbyId)).toEqual([]);
      await fillLobbies(ann.id, LOBBY_LIMITS.maxLobbiesPerUser);
      const dropped = await bulk(lobbyId, [{ id: ann.id }, { id: bob.id }]);
      expect(dropped.json<Member[]>().map((m) => m.id)).toEqual([bob.id]);
    });

    it('takes a JSON array of 1 to 25', async () => {
      const lobbyId = await create();
      for (const payload of [
        [],
        { id: fx.players.ann.id },
        Array.from({ length: 26 }, () => ({ id: fx.players.ann.id })),
        [{ id: fx.players.ann.id, remove_member: 'yes' }],
      ]) {
        const res = await bulk(lobbyId, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ code: 50035 });
      }
    });
  });
});
