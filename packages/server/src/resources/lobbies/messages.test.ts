import { describe, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useLobbyFixture } from '../../../test/support/lobbyFixture.js';
import { HOUR_MS } from '../../domain/time.js';

interface MessageBody {
  id: string;
  content: string;
  lobby_id: string;
  channel_id: string;
  author: { id: string };
  lobby_member?: { additional_name: string };
  metadata?: Record<string, string>;
  moderation_metadata?: Record<string, string>;
  application_id: string;
}

describeDrivers('lobby messages on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;

  const lobbyWith = async (members: object[], extra: object = {}) => {
    const res = await call('POST /lobbies', fx.bot(), { members, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const send = (lobbyId: string, auth: string, payload: object) =>
    call(`POST /lobbies/${lobbyId}/messages`, auth, payload);
  const list = (lobbyId: string, auth: string, query = '') =>
    call(`GET /lobbies/${lobbyId}/messages${query}`, auth);
  const moderate = (
    target: { lobbyId: string; messageId: string; auth?: string },
    payload: unknown,
  ) =>
    call(
      `PUT /lobbies/${target.lobbyId}/messages/${target.messageId}/moderation-metadata`,
      target.auth ?? fx.bot(),
      payload,
    );
  const subscribe = (types: string[]) =>
    fx.app.storage.applications.update(fx.dev.applicationId, {
      eventWebhooksUrl: 'https://game.example.com/events',
      eventWebhooksStatus: 2,
      eventWebhooksTypes: types,
    });
  const outbox = () => fx.app.storage.outbox.listByApplication(fx.dev.applicationId, { limit: 50 });

  describe('POST /lobbies/{id}/messages', () => {
    it('sends as a member, to the members and by webhook event', async () => {
      const { ann, bob } = fx.players;
      await subscribe(['LOBBY_MESSAGE_CREATE']);
      const lobbyId = await lobbyWith([{ id: ann.id }, { id: bob.id }]);
      await call(`PUT /lobbies/${lobbyId}/members/${ann.id}`, fx.bot(), { additional_name: 'Ace' });
      const res = await send(lobbyId, ann.bearer, { content: ' gg', metadata: { emote: 'wave' } });
      expect(res.statusCode, res.body).toBe(201);
      const message = res.json<MessageBody>();
      expect(message).toMatchObject({
        type: 0,
        content: ' gg',
        lobby_id: lobbyId,
        channel_id: lobbyId,
        author: { id: ann.id, username: ann.username },
        lobby_member: { additional_name: 'Ace' },
        metadata: { emote: 'wave' },
        flags: 0,
        application_id: fx.dev.applicationId,
      });
      const dispatched = await fx.dispatches.next('LOBBY_MESSAGE_CREATE');
      expect([...dispatched.userIds].sort()).toEqual([ann.id, bob.id].sort());
      expect(dispatched.data).toEqual(message);
      const [event] = await outbox();
      expect(event).toMatchObject({ eventType: 'LOBBY_MESSAGE_CREATE', targetUrl: null });
      expect(JSON.parse(event?.event ?? '{}')).toMatchObject({
        type: 'LOBBY_MESSAGE_CREATE',
        data: message,
      });
    });

    it('sends the webhook event to the lobby’s override URL when it has one', async () => {
      const { ann } = fx.players;
      await subscribe(['LOBBY_MESSAGE_CREATE']);
      const lobbyId = await lobbyWith([{ id: ann.id }], {
        override_event_webhooks_url: 'https://lobby.example.com/hook',
      });
      expect((await send(lobbyId, ann.bearer, { content: 'hi' })).statusCode).toBe(201);
      const [event] = await outbox();
      expect(event?.targetUrl).toBe('https://lobby.example.com/hook');
      // Unsubscribed apps get no event.
      await subscribe([]);
      await send(lobbyId, ann.bearer, { content: 'again' });
      expect(await outbox()).toHaveLength(1);
    });

    it('refuses non-members, other applications, bad bodies and tokens without the scope', async () => {
      const { ann, bob } = fx.players;
      const lobbyId = await lobbyWith([{ id: ann.id }]);
      expect((await send(lobbyId, bob.bearer, { content: 'x' })).json()).toMatchObject({
        code: 50001,
      });
      const otherApp = await fx.bearerFor(ann.id, fx.other.applicationId);
      expect((await send(lobbyId, otherApp, { content: 'x' })).json()).toMatchObject({
        code: 10031,
      });
      const noScope = await fx.bearerFor(ann.id, fx.dev.applicationId, ['identify']);
      expect((await send(lobbyId, noScope, { content: 'x' })).json()).toMatchObject({
        code: 50026,
      });
      for (const payload of [
        {},
        { content: '' },
        { content: '   ' },
        { content: 5 },
        { content: 'x'.repeat(4001) },
      ]) {
        const res = await send(lobbyId, ann.bearer, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ code: 50035 });
      }
      expect((await send(lobbyId, fx.bot(), { content: 'x' })).statusCode).toBe(403);
      expect((await list(lobbyId, ann.bearer)).json()).toEqual([]);
    });
  });

  describe('GET /lobbies/{id}/messages and moderation metadata', () => {
    it('lists the newest messages of the last 72 hours, newest first', async () => {
      const { ann, bob } = fx.players;
      const lobbyId = await lobbyWith([{ id: ann.id }, { id: bob.id }]);
      await send(lobbyId, ann.bearer, { content: 'old' });
      fx.clock.advance(HOUR_MS);
      for (const content of ['a', 'b', 'c']) await send(lobbyId, bob.bearer, { content });
      const all = await list(lobbyId, ann.bearer);
      expect(all.statusCode).toBe(200);
      expect(all.json<MessageBody[]>().map((m) => m.content)).toEqual(['c', 'b', 'a', 'old']);
      expect(
        (await list(lobbyId, ann.bearer, '?limit=2')).json<MessageBody[]>().map((m) => m.content),
      ).toEqual(['c', 'b']);
      fx.clock.advance(71 * HOUR_MS + 1);
      expect((await list(lobbyId, ann.bearer)).json<MessageBody[]>().map((m) => m.content)).toEqual(
        ['c', 'b', 'a'],
      );
      for (const query of ['?limit=0', '?limit=201', '?limit=x']) {
        expect((await list(lobbyId, ann.bearer, query)).json()).toMatchObject({ code: 50035 });
      }
      expect((await list(lobbyId, fx.players.cat.bearer)).json()).toMatchObject({ code: 50001 });
    });

    it('keeps moderation metadata to the application’s own views, with no event', async () => {
      const { ann } = fx.players;
      await subscribe(['LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE']);
      const lobbyId = await lobbyWith([{ id: ann.id }]);
      const message = (await send(lobbyId, ann.bearer, { content: 'rude' })).json<MessageBody>();
      const events = (await outbox()).length;
      const res = await moderate(
        { lobbyId, messageId: message.id },
        { action: 'hide', reason: 'toxicity' },
      );
      expect(res.statusCode, res.body).toBe(204);
      const [listed] = (await list(lobbyId, ann.bearer)).json<MessageBody[]>();
      expect(listed?.moderation_metadata).toEqual({ action: 'hide', reason: 'toxicity' });
      // No webhook event and no gateway dispatch for a metadata-only change.
      expect(await outbox()).toHaveLength(events);
      expect(fx.dispatches.events.filter((d) => d.type === 'LOBBY_MESSAGE_UPDATE')).toEqual([]);
      expect(JSON.stringify(fx.dispatches.events)).not.toContain('toxicity');
      // Another application never sees or sets it.
      expect(
        (
          await moderate(
            { lobbyId, messageId: message.id, auth: fx.otherBot() },
            { action: 'show' },
          )
        ).json(),
      ).toMatchObject({
        code: 10031,
      });
      expect(
        (await fx.app.storage.lobbies.listModeration(fx.other.applicationId, [message.id])).size,
      ).toBe(0);
    });

    it('refuses oversized metadata, unknown messages and SDK tokens', async () => {
      const { ann } = fx.players;
      const lobbyId = await lobbyWith([{ id: ann.id }]);
      const message = (await send(lobbyId, ann.bearer, { content: 'hi' })).json<MessageBody>();
      const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${String(i)}`, 'v']));
      for (const payload of [
        six,
        { k: 'v'.repeat(2001) },
        { ['k'.repeat(1025)]: 'v' },
        { k: 1 },
        ['a'],
      ]) {
        const res = await moderate({ lobbyId, messageId: message.id }, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 50035 });
      }
      expect((await moderate({ lobbyId, messageId: '4242' }, { a: 'b' })).json()).toMatchObject({
        code: 10008,
      });
      expect(
        (await moderate({ lobbyId, messageId: message.id, auth: ann.bearer }, { a: 'b' }))
          .statusCode,
      ).toBe(403);
      expect((await list(lobbyId, ann.bearer)).json<MessageBody[]>()[0]).not.toHaveProperty(
        'moderation_metadata',
      );
    });
  });
});
