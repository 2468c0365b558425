import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { START, useLobbyFixture } from '../../../test/support/lobbyFixture.js';
import { SECOND_MS } from '../../domain/time.js';

interface MessageBody {
  id: string;
  content: string;
  lobby_id: string;
  metadata?: Record<string, string>;
  moderation_metadata?: Record<string, string>;
  timestamp?: string;
  edited_timestamp?: string | null;
}

interface OutboxEvent {
  type: string;
  data: Record<string, unknown>;
}

describeDrivers('lobby message edits and deletes on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;

  const lobbyWith = async (members: object[], extra: object = {}) => {
    const res = await call('POST /lobbies', fx.bot(), { members, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const send = async (lobbyId: string, auth: string, payload: object) => {
    const res = await call(`POST /lobbies/${lobbyId}/messages`, auth, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<MessageBody>();
  };
  const edit = (target: { lobbyId: string; messageId: string }, auth: string, payload: unknown) =>
    call(`PATCH /lobbies/${target.lobbyId}/messages/${target.messageId}`, auth, payload);
  const remove = (target: { lobbyId: string; messageId: string }, auth: string) =>
    call(`DELETE /lobbies/${target.lobbyId}/messages/${target.messageId}`, auth);
  const list = async (lobbyId: string, auth: string) =>
    (await call(`GET /lobbies/${lobbyId}/messages`, auth)).json<MessageBody[]>();
  const moderate = (target: { lobbyId: string; messageId: string }, payload: object) =>
    call(
      `PUT /lobbies/${target.lobbyId}/messages/${target.messageId}/moderation-metadata`,
      fx.bot(),
      payload,
    );
  const subscribe = (types: string[]) =>
    fx.app.storage.applications.update(fx.dev.applicationId, {
      eventWebhooksUrl: 'https://game.example.com/events',
      eventWebhooksStatus: 2,
      eventWebhooksTypes: types,
    });
  const outbox = async () =>
    (await fx.app.storage.outbox.listByApplication(fx.dev.applicationId, { limit: 50 })).map(
      (row) => {
        const { type, data } = JSON.parse(row.event) as OutboxEvent;
        return { targetUrl: row.targetUrl, type, data };
      },
    );
  const seen = (type: string) => fx.dispatches.events.filter((d) => d.type === type);

  describe('PATCH /lobbies/{id}/messages/{message}', () => {
    it('edits the author’s message: UPDATE to the members and by webhook, moderation cleared', async () => {
      const { ann, bob } = fx.players;
      await subscribe(['LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE']);
      const lobbyId = await lobbyWith([{ id: ann.id }, { id: bob.id }], {
        override_event_webhooks_url: 'https://lobby.example.com/hook',
      });
      const sent = await send(lobbyId, ann.bearer, { content: 'rude', metadata: { k: 'v' } });
      const target = { lobbyId, messageId: sent.id };
      expect((await moderate(target, { action: 'hide' })).statusCode).toBe(204);
      await fx.app.storage.lobbies.putModeration({
        messageId: sent.id,
        applicationId: fx.other.applicationId,
        metadata: { action: 'blur' },
        updatedAt: fx.clock.now(),
      });
      fx.clock.advance(5 * SECOND_MS);
      const res = await edit(target, ann.bearer, { content: 'nice' });
      expect(res.statusCode, res.body).toBe(200);
      const edited = res.json<MessageBody>();
      expect(edited).toMatchObject({
        id: sent.id,
        content: 'nice',
        lobby_id: lobbyId,
        metadata: { k: 'v' },
        timestamp: new Date(START).toISOString(),
        edited_timestamp: new Date(START + 5 * SECOND_MS).toISOString(),
      });
      expect(edited).not.toHaveProperty('moderation_metadata');

      const dispatched = await fx.dispatches.next('LOBBY_MESSAGE_UPDATE');
      expect([...dispatched.userIds].sort()).toEqual([ann.id, bob.id].sort());
      expect(dispatched.data).toEqual(edited);
      const update = (await outbox()).find((e) => e.type === 'LOBBY_MESSAGE_UPDATE');
      expect(update).toMatchObject({ targetUrl: 'https://lobby.example.com/hook', data: edited });

      // Every application's moderation metadata of the message is gone.
      const [listed] = await list(lobbyId, ann.bearer);
      expect(listed).toMatchObject({ content: 'nice' });
      expect(listed).not.toHaveProperty('moderation_metadata');
      const others = await fx.app.storage.lobbies.listModeration(fx.other.applicationId, [sent.id]);
      expect(others.size).toBe(0);
    });

    it('keeps moderation metadata when only the metadata changes; null clears metadata', async () => {
      const { ann } = fx.players;
      const lobbyId = await lobbyWith([{ id: ann.id }]);
      const sent = await send(lobbyId, ann.bearer, { content: 'same', metadata: { k: 'v' } });
      const target = { lobbyId, messageId: sent.id };
      await moderate(target, { action: 'blur' });
      const res = await edit(target, ann.bearer, { content: 'same', metadata: null });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).not.toHaveProperty('metadata');
      const [listed] = await list(lobbyId, ann.bearer);
      expect(listed?.moderation_metadata).toEqual({ action: 'blur' });
      expect(listed).not.toHaveProperty('metadata');
    });

    it('refuses other members, non-members, other apps, bots and bad bodies, changing nothing', async () => {
      const { ann, bob, cat } = fx.players;
      await subscribe(['LOBBY_MESSAGE_UPDATE', 'LOBBY_MESSAGE_DELETE']);
      const lobbyId = await lobbyWith([{ id: ann.id }, { id: bob.id }]);
      const sent = await send(lobbyId, ann.bearer, { content: 'mine' });
      const target = { lobbyId, messageId: sent.id };
      await moderate(target, { action: 'hide' });
      const refusals: [string, unknown, number, number][] = [
        [bob.bearer, { content: 'x' }, 403, 50005],
        [cat.bearer, { content: 'x' }, 403, 50001],
        [await fx.bearerFor(ann.id, fx.other.applicationId), { content: 'x' }, 404, 10031],
        [
          await fx.bearerFor(ann.id, fx.dev.applicationId, ['identify']),
          { content: 'x' },
          403,
          50026,
        ],
        [ann.bearer, {}, 400, 50035],
        [ann.bearer, { content: '  ' }, 400, 50035],
        [ann.bearer, { content: 5 }, 400, 50035],
        [ann.bearer, { content: 'x'.repeat(4001) }, 400, 50035],
        [ann.bearer, { content: 'x', metadata: 'no' }, 400, 50035],
      ];
      for (const [auth, payload, status, code] of refusals) {
        const res = await edit(target, auth, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(status);
        expect(res.json()).toMatchObject({ code });
      }
      expect((await edit(target, fx.bot(), { content: 'x' })).statusCode).toBe(403);
      expect(
        (await edit({ lobbyId, messageId: '4242' }, ann.bearer, { content: 'x' })).json(),
      ).toMatchObject({ code: 10008 });
      const [listed] = await list(lobbyId, ann.bearer);
      expect(listed).toMatchObject({ content: 'mine', moderation_metadata: { action: 'hide' } });
      expect(await outbox()).toEqual([]);
      expect(seen('LOBBY_MESSAGE_UPDATE')).toEqual([]);
    });

    it('counts an edit against the pre-approval limit like a send', async () => {
      const { ann } = fx.players;
      const lobbyId = await lobbyWith([{ id: ann.id }]);
      const sent = await send(lobbyId, ann.bearer, { content: 'one' });
      const target = { lobbyId, messageId: sent.id };
      for (let i = 0; i < 99; i++) {
        expect((await edit(target, ann.bearer, { content: `e${String(i)}` })).statusCode).toBe(200);
      }
      const limited = await edit(target, ann.bearer, { content: 'over' });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['x-ratelimit-scope']).toBe('shared');
      expect((await list(lobbyId, ann.bearer))[0]?.content).toBe('e98');
    });
  });

  describe('DELETE /lobbies/{id}/messages/{message}', () => {
    it('deletes the author’s message with its moderation: DELETE to the members and by webhook', async () => {
      const { ann, bob } = fx.players;
      await subscribe(['LOBBY_MESSAGE_DELETE']);
      const lobbyId = await lobbyWith([{ id: ann.id }, { id: bob.id }]);
      const sent = await send(lobbyId, ann.bearer, { content: 'oops' });
      const target = { lobbyId, messageId: sent.id };
      await moderate(target, { action: 'hide' });
      expect((await remove(target, bob.bearer)).json()).toMatchObject({ code: 50005 });
      const res = await remove(target, ann.bearer);
      expect(res.statusCode, res.body).toBe(204);
      const dispatched = await fx.dispatches.next('LOBBY_MESSAGE_DELETE');
      expect([...dispatched.userIds].sort()).toEqual([ann.id, bob.id].sort());
      expect(dispatched.data).toEqual({ id: sent.id, lobby_id: lobbyId });
      expect(await outbox()).toEqual([
        {
          targetUrl: null,
          type: 'LOBBY_MESSAGE_DELETE',
          data: { id: sent.id, lobby_id: lobbyId },
        },
      ]);
      expect(await list(lobbyId, ann.bearer)).toEqual([]);
      const moderation = await fx.app.storage.lobbies.listModeration(fx.dev.applicationId, [
        sent.id,
      ]);
      expect(moderation.size).toBe(0);
      expect((await remove(target, ann.bearer)).json()).toMatchObject({ code: 10008 });
    });

    it('lets the lobby application’s bot delete any message, and no other bot', async () => {
      const { ann, bob } = fx.players;
      const lobbyId = await lobbyWith([{ id: ann.id }, { id: bob.id }]);
      const sent = await send(lobbyId, ann.bearer, { content: 'spam' });
      const target = { lobbyId, messageId: sent.id };
      expect((await remove(target, fx.otherBot())).json()).toMatchObject({ code: 10031 });
      expect((await remove(target, fx.players.cat.bearer)).json()).toMatchObject({
        code: 50001,
      });
      expect(await list(lobbyId, ann.bearer)).toHaveLength(1);
      expect((await remove(target, fx.bot())).statusCode).toBe(204);
      expect((await fx.dispatches.next('LOBBY_MESSAGE_DELETE')).data).toEqual({
        id: sent.id,
        lobby_id: lobbyId,
      });
      expect(await list(lobbyId, ann.bearer)).toEqual([]);
      expect((await remove({ lobbyId, messageId: 'x' }, fx.bot())).json()).toMatchObject({
        code: 10008,
      });
    });
  });

  it('fires nothing for a moderation-metadata-only PUT', async () => {
    const { ann } = fx.players;
    await subscribe(['LOBBY_MESSAGE_UPDATE', 'LOBBY_MESSAGE_DELETE']);
    const lobbyId = await lobbyWith([{ id: ann.id }]);
    const sent = await send(lobbyId, ann.bearer, { content: 'hm' });
    expect((await moderate({ lobbyId, messageId: sent.id }, { action: 'hide' })).statusCode).toBe(
      204,
    );
    expect(await outbox()).toEqual([]);
    expect(seen('LOBBY_MESSAGE_UPDATE')).toEqual([]);
  });
});
