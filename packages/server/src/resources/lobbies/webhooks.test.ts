import { afterEach, beforeEach, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import {
  heldTimers,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhookReceiver.js';
import { manualClock } from '../../domain/clock.js';
import { generateToken, hashSecret } from '../../domain/credentials.js';
import { apiRequest } from '../../../test/support/inject.js';

describeDrivers('lobby webhook events on $driver', (driver) => {
  let server: TestServer;
  let dev: Awaited<ReturnType<typeof seedDeveloper>>;
  let appReceiver: WebhookReceiver;
  let lobbyReceiver: WebhookReceiver;
  const clock = manualClock(Date.UTC(2026, 10, 24, 12));

  const shared = useFileServer({
    storage: driver,
    clock,
    config: { allowLocalWebhooks: true },
    webhookDelivery: { timers: heldTimers, settings: { timeoutMs: 1000, random: () => 0.5 } },
  });
  beforeEach(async () => {
    server = shared.server;
    dev = await seedDeveloper(server.app, uniqueName('gamedev'), 'gamedev app');
    appReceiver = await startWebhookReceiver();
    lobbyReceiver = await startWebhookReceiver();
    await server.app.storage.applications.update(dev.applicationId, {
      eventWebhooksUrl: appReceiver.url,
      eventWebhooksStatus: 2,
      eventWebhooksTypes: ['LOBBY_MESSAGE_CREATE'],
    });
  });
  afterEach(async () => {
    await appReceiver.close();
    await lobbyReceiver.close();
  });

  const inject = (url: string, auth: string, payload: object) =>
    apiRequest(server.app, `POST ${url}`, { auth, payload });
  /** A lobby with the developer in it, and their SDK token. */
  const lobbyWith = async (extra: object) => {
    const token = generateToken(dev.userId, clock.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId: dev.userId,
      applicationId: dev.applicationId,
      scopes: ['sdk.social_layer'],
      createdAt: clock.now(),
      expiresAt: null,
    });
    const res = await inject('/lobbies', `Bot ${dev.botToken}`, {
      members: [{ id: dev.userId }],
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return { lobbyId: res.json<{ id: string }>().id, auth: `Bearer ${token}` };
  };

  it('sends a lobby’s events to its override URL, and other lobbies’ to the app’s', async () => {
    const overridden = await lobbyWith({ override_event_webhooks_url: lobbyReceiver.url });
    const plain = await lobbyWith({});
    await inject(`/lobbies/${overridden.lobbyId}/messages`, overridden.auth, {
      content: 'to lobby',
    });
    await inject(`/lobbies/${plain.lobbyId}/messages`, plain.auth, { content: 'to app' });
    expect(await server.app.services.webhookEvents.deliverDue()).toBe(2);
    const bodies = (r: WebhookReceiver) =>
      r.received.map(
        (req) =>
          (JSON.parse(req.body) as { event: { type: string; data: { content: string } } }).event,
      );
    expect(bodies(lobbyReceiver).map((e) => [e.type, e.data.content])).toEqual([
      ['LOBBY_MESSAGE_CREATE', 'to lobby'],
    ]);
    expect(bodies(appReceiver).map((e) => e.data.content)).toEqual(['to app']);
    // Signed like every event.
    expect(lobbyReceiver.received[0]?.headers['x-signature-ed25519']).toBeDefined();
  });

  it('keeps the URL policy for an override URL: private addresses are never called', async () => {
    const blocked = await lobbyWith({ override_event_webhooks_url: 'http://10.1.2.3/hook' });
    await inject(`/lobbies/${blocked.lobbyId}/messages`, blocked.auth, { content: 'x' });
    await server.app.services.webhookEvents.deliverDue();
    const [event] = await server.app.storage.outbox.listByApplication(dev.applicationId, {
      limit: 5,
    });
    const attempts = await server.app.storage.outbox.listAttempts([event?.id ?? '']);
    expect(attempts[0]?.httpStatus).toBeNull();
    expect(attempts[0]?.error).toMatch(/address|public|allowed/i);
    expect(appReceiver.received).toEqual([]);
  });
});
