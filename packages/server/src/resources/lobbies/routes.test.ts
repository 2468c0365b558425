import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useLobbyFixture } from '../../../test/support/lobbyFixture.js';
import { DAY_MS } from '../../domain/time.js';

interface LobbyBody {
  id: string;
  application_id: string;
  metadata: Record<string, string> | null;
  members: {
    id: string;
    metadata: Record<string, string> | null;
    flags: number;
    additional_name?: string;
  }[];
  flags: number;
  override_event_webhooks_url?: string | null;
}

describeDrivers('lobbies on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;

  const create = async (payload: object = {}) => {
    const res = await call('POST /lobbies', fx.bot(), payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<LobbyBody>();
  };
  const get = (id: string, auth = fx.bot()) => call(`GET /lobbies/${id}`, auth);
  const memberIds = (lobby: LobbyBody) => lobby.members.map((m) => m.id).sort();

  describe('POST /lobbies, GET, PATCH and DELETE /lobbies/{id}', () => {
    it('creates a lobby of the bot’s application with its members, and announces it to them', async () => {
      const { ann, bob } = fx.players;
      const lobby = await create({
        metadata: { mode: 'duel' },
        members: [{ id: ann.id, metadata: { team: 'red' }, flags: 1 }, { id: bob.id }],
        idle_timeout_seconds: 60,
        override_event_webhooks_url: 'https://game.example.com/lobby-events',
      });
      expect(lobby).toMatchObject({
        application_id: fx.dev.applicationId,
        metadata: { mode: 'duel' },
        flags: 0,
        override_event_webhooks_url: 'https://game.example.com/lobby-events',
      });
      expect(lobby.members).toEqual([
        { id: ann.id, metadata: { team: 'red' }, flags: 1 },
        { id: bob.id, metadata: null, flags: 0 },
      ]);
      expect((await get(lobby.id)).json()).toEqual(lobby);
      const created = await fx.dispatches.next('LOBBY_CREATE');
      expect([...created.userIds].sort()).toEqual([ann.id, bob.id].sort());
      expect(created.guildId).toBeNull();
      // Members never see the application's override URL.
      expect(created.data).not.toHaveProperty('override_event_webhooks_url');
    });

    it('keeps lobbies to their application: another app’s bot gets 10031 and changes nothing', async () => {
      const lobby = await create({ metadata: { a: '1' } });
      for (const res of [
        await get(lobby.id, fx.otherBot()),
        await call(`PATCH /lobbies/${lobby.id}`, fx.otherBot(), {
          metadata: null,
        }),
        await call(`DELETE /lobbies/${lobby.id}`, fx.otherBot()),
        await call(`PUT /lobbies/${lobby.id}/members/${fx.players.ann.id}`, fx.otherBot(), {}),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 10031, message: 'Unknown Lobby' });
      }
      expect((await get(lobby.id)).json()).toEqual(lobby);
      expect((await get('123')).json()).toMatchObject({ code: 10031 });
      expect((await get('not-an-id')).json()).toMatchObject({ code: 10031 });
    });

    it('refuses bad bodies with 50035 and writes nothing', async () => {
      const tooMany = Object.fromEntries(
        Array.from({ length: 26 }, (_, i) => [`k${String(i)}`, 'v']),
      );
      const bad = [
        { metadata: 'x' },
        { metadata: tooMany },
        { metadata: { k: 'v'.repeat(1025) } },
        { members: [{ id: fx.players.ann.id, metadata: { k: 'v'.repeat(1000) } }] },
        { members: [{ id: 'nope' }] },
        { members: Array.from({ length: 26 }, () => ({ id: fx.players.ann.id })) },
        { idle_timeout_seconds: 4 },
        { idle_timeout_seconds: 604_801 },
        { flags: 2 },
        { override_event_webhooks_url: 'ftp://example.com/x' },
      ];
      for (const payload of bad) {
        const res = await call('POST /lobbies', fx.bot(), payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
        expect(res.json<{ errors: object }>().errors).toBeDefined();
      }
      const unknown = await call('POST /lobbies', fx.bot(), { members: [{ id: '12345' }] });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 10013 });
      expect(
        await fx.app.storage.lobbies.countLobbiesOfUser(fx.players.ann.id, fx.dev.applicationId),
      ).toBe(0);
    });

    it('refuses people, SDK tokens and no token on the bot routes', async () => {
      const lobby = await create();
      expect((await call('POST /lobbies', fx.players.ann.session, {})).statusCode).toBe(403);
      expect((await get(lobby.id, fx.players.ann.bearer)).statusCode).toBe(403);
      expect((await get(lobby.id, '')).statusCode).toBe(401);
    });

    it('PATCH overwrites metadata and replaces the member list', async () => {
      const { ann, bob, cat } = fx.players;
      const lobby = await create({
        metadata: { a: '1' },
        members: [{ id: ann.id }, { id: bob.id }],
      });
      const res = await call(`PATCH /lobbies/${lobby.id}`, fx.bot(), {
        metadata: { b: '2' },
        members: [{ id: bob.id, flags: 1 }, { id: cat.id }],
        idle_timeout_seconds: 30,
      });
      expect(res.statusCode, res.body).toBe(200);
      const patched = res.json<LobbyBody>();
      expect(patched.metadata).toEqual({ b: '2' });
      expect(memberIds(patched)).toEqual([bob.id, cat.id].sort());
      expect(patched.members.find((m) => m.id === bob.id)?.flags).toBe(1);
      const removed = await fx.dispatches.next('LOBBY_MEMBER_REMOVE');
      expect(removed.data).toMatchObject({ lobby_id: lobby.id, member: { id: ann.id } });
      expect(removed.userIds).toContain(ann.id);
      await fx.dispatches.next('LOBBY_UPDATE');
      const cleared = await call(`PATCH /lobbies/${lobby.id}`, fx.bot(), {
        metadata: null,
      });
      expect(cleared.json<LobbyBody>()).toMatchObject({ metadata: null });
      expect(memberIds(cleared.json<LobbyBody>())).toEqual([bob.id, cat.id].sort());
    });

    it('DELETE is idempotent and tells the members', async () => {
      const lobby = await create({ members: [{ id: fx.players.ann.id }] });
      const del = () => call(`DELETE /lobbies/${lobby.id}`, fx.bot());
      expect((await del()).statusCode).toBe(204);
      expect((await del()).statusCode).toBe(204);
      expect((await get(lobby.id)).statusCode).toBe(404);
      const deleted = await fx.dispatches.next('LOBBY_DELETE');
      expect(deleted.userIds).toEqual([fx.players.ann.id]);
      expect(deleted.data).toMatchObject({ id: lobby.id });
    });
  });

  describe('PUT /lobbies (create or join by secret)', () => {
    const join = (auth: string, payload: object) => call('PUT /lobbies', auth, payload);

    it('makes the lobby of a secret, then lets others join it', async () => {
      const { ann, bob } = fx.players;
      const first = await join(ann.bearer, { secret: 'room-1', lobby_metadata: { map: 'dust' } });
      expect(first.statusCode, first.body).toBe(200);
      const lobby = first.json<LobbyBody>();
      expect(lobby).toMatchObject({ metadata: { map: 'dust' }, members: [{ id: ann.id }] });
      expect(lobby).not.toHaveProperty('override_event_webhooks_url');
      const second = await join(bob.bearer, {
        secret: 'room-1',
        member_metadata: { rank: 'gold' },
      });
      expect(second.json<LobbyBody>().id).toBe(lobby.id);
      expect(second.json<LobbyBody>().members).toContainEqual({
        id: bob.id,
        metadata: { rank: 'gold' },
        flags: 0,
      });
      // Joining again keeps one membership.
      const again = await join(bob.bearer, { secret: 'room-1' });
      expect(again.json<LobbyBody>().members).toHaveLength(2);
      const added = await fx.dispatches.next('LOBBY_MEMBER_ADD');
      expect(added.data).toMatchObject({ lobby_id: lobby.id });
      // Another application's same secret is another lobby.
      const otherAnn = await fx.bearerFor(ann.id, fx.other.applicationId);
      const elsewhere = await join(otherAnn, { secret: 'room-1' });
      expect(elsewhere.json<LobbyBody>().id).not.toBe(lobby.id);
      // The app's bot may call it too (the bot joins).
      expect((await join(fx.bot(), { secret: 'room-1' })).json<LobbyBody>().id).toBe(lobby.id);
    });

    it('makes a new lobby once the secret is 30 days old', async () => {
      const { ann, bob } = fx.players;
      const lobby = (await join(ann.bearer, { secret: 's' })).json<LobbyBody>();
      fx.clock.advance(30 * DAY_MS - 1);
      expect((await join(bob.bearer, { secret: 's' })).json<LobbyBody>().id).toBe(lobby.id);
      fx.clock.advance(1);
      const fresh = (await join(bob.bearer, { secret: 's' })).json<LobbyBody>();
      expect(fresh.id).not.toBe(lobby.id);
      expect(memberIds(fresh)).toEqual([bob.id]);
      expect((await get(lobby.id)).statusCode).toBe(200);
    });

    it('needs sdk.social_layer, a secret, and valid metadata', async () => {
      const { ann } = fx.players;
      const noScope = await fx.bearerFor(ann.id, fx.dev.applicationId, ['identify']);
      expect((await join(noScope, { secret: 's' })).json()).toMatchObject({ code: 50026 });
      expect((await join(ann.session, { secret: 's' })).statusCode).toBe(401);
      expect((await join(ann.bearer, {})).json()).toMatchObject({ code: 50035 });
      expect((await join(ann.bearer, { secret: 'x'.repeat(251) })).json()).toMatchObject({
        code: 50035,
      });
      expect(
        (await join(ann.bearer, { secret: 's', member_metadata: { k: 'v'.repeat(1000) } })).json(),
      ).toMatchObject({ code: 50035 });
      expect(await fx.app.storage.lobbies.countLobbiesOfUser(ann.id, fx.dev.applicationId)).toBe(0);
    });
  });
});
