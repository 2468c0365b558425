import { generateKeyPairSync, sign } from 'node:crypto';
import { verifyKey } from 'discord-interactions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { uniqueName, useFileServer } from '../../test/support/fileServer.js';
import { expectOpenApiResponse } from '../../test/support/openapi.js';
import { seedDeveloper, startTestServer, type TestServer } from '../../test/support/testServer.js';
import {
  heldTimers,
  startWebhookReceiver,
  type ReceivedRequest,
  type ReceiverAnswer,
  type WebhookReceiver,
} from '../../test/support/webhookReceiver.js';
import { manualClock } from '../domain/clock.js';
import { DELIVERY_WINDOW_MS, webhookEventData, type WebhookEventType } from './webhookEvents.js';
import { apiRequest } from '../../test/support/inject.js';

const START = Date.UTC(2026, 10, 1, 12, 0, 0);
const TYPES = ['APPLICATION_AUTHORIZED', 'APPLICATION_DEAUTHORIZED'];

/** What an app's endpoint does with a delivery: discord-interactions' check, as apps run it. */
async function verified(request: ReceivedRequest, publicKey: string): Promise<boolean> {
  const signature = request.headers['x-signature-ed25519'];
  const timestamp = request.headers['x-signature-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return false;
  return verifyKey(request.body, signature, timestamp, publicKey);
}

describeDrivers('webhook events on $driver', (driver) => {
  let server: TestServer;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;
  const clock = manualClock(START);
  const receivers: WebhookReceiver[] = [];

  const shared = useFileServer({
    storage: driver,
    clock,
    config: { allowLocalWebhooks: true },
    webhookDelivery: { timers: heldTimers, settings: { timeoutMs: 300, random: () => 0.5 } },
  });
  beforeEach(async () => {
    clock.set(START);
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('hook'), 'hook app');
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  const receiver = async (answer?: (index: number, request: ReceivedRequest) => ReceiverAnswer) => {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  };
  const patchApp = (payload: object) =>
    apiRequest(server.app, 'PATCH /applications/@me', { auth: `Bot ${seed.botToken}`, payload });
  const publicKey = async () => {
    const app = await server.app.storage.applications.findById(seed.applicationId);
    return app?.verifyKey ?? '';
  };
  /** Subscribes the app to `types` at a receiver that accepts the PING (its request 0). */
  const subscribe = async (target: WebhookReceiver, types: readonly string[] = TYPES) => {
    const res = await patchApp({ event_webhooks_url: target.url, event_webhooks_types: types });
    expect(res.statusCode).toBe(200);
    target.received.splice(0);
  };
  const enqueue = (type: WebhookEventType) =>
    server.app.storage.transaction(async (tx) => {
      const user = await tx.users.findById(seed.userId);
      if (user === null) throw new Error('no user');
      const data =
        type === 'APPLICATION_AUTHORIZED'
          ? await webhookEventData.APPLICATION_AUTHORIZED(tx, {
              user,
              scopes: ['identify'],
              integrationType: 1,
            })
          : await webhookEventData.APPLICATION_DEAUTHORIZED(tx, { user });
      await server.app.services.webhookEvents.enqueue(tx, {
        applicationId: seed.applicationId,
        type,
        data,
      });
    });
  const outbox = () =>
    server.app.storage.outbox.listByApplication(seed.applicationId, { limit: 100 });
  const deliveries = (authorization = `Bot ${seed.botToken}`) =>
    apiRequest(server.app, `GET /applications/${seed.applicationId}/webhook-events/deliveries`, {
      auth: authorization,
    });

  it('setting the URL sends a signed PING and keeps the URL on 204', async () => {
    const app = await receiver();
    const res = await patchApp({ event_webhooks_url: app.url, event_webhooks_types: TYPES });
    expect(res.statusCode).toBe(200);
    expectOpenApiResponse(res, 'PATCH', '/applications/@me');
    expect(res.json()).toMatchObject({
      event_webhooks_url: app.url,
      event_webhooks_status: 2,
      event_webhooks_types: TYPES,
    });
    expect(app.received).toHaveLength(1);
    const [ping] = app.received;
    if (ping === undefined) throw new Error('no PING');
    expect(ping.method).toBe('POST');
    expect(ping.headers['content-type']).toBe('application/json');
    expect(JSON.parse(ping.body)).toEqual({
      version: 1,
      application_id: seed.applicationId,
      type: 0,
    });
    expect(ping.headers['x-signature-timestamp']).toBe(String(Math.floor(START / 1000)));
    expect(await verified(ping, await publicKey())).toBe(true);
  });

  it('a URL that does not answer the PING with 204 is refused', async () => {
    const app = await receiver(() => 200);
    const res = await patchApp({ event_webhooks_url: app.url });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: number; errors: Record<string, unknown> }>();
    expect(body.code).toBe(50035);
    expect(body.errors).toMatchObject({
      event_webhooks_url: {
        _errors: [
          {
            code: 'APPLICATION_EVENT_WEBHOOKS_URL_INVALID',
            message: expect.stringContaining('it answered 200') as unknown,
          },
        ],
      },
    });
    expect(app.received).toHaveLength(1);
    const stored = await server.app.storage.applications.findById(seed.applicationId);
    expect(stored).toMatchObject({ eventWebhooksUrl: null, eventWebhooksStatus: 1 });
  });

  it('a redirecting URL is refused and the redirect is not followed', async () => {
    const elsewhere = await receiver();
    const app = await receiver(() => ({ redirect: elsewhere.url }));
    const res = await patchApp({ event_webhooks_url: app.url });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('redirects are not followed');
    expect(app.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('a receiver that never answers times out', async () => {
    const app = await receiver(() => 'hang');
    const res = await patchApp({ event_webhooks_url: app.url });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('timed out after 300 ms');
  });

  it('URLs with credentials, plain http elsewhere, or private hosts are refused', async () => {
    for (const url of [
      'http://user:secret@127.0.0.1:9/x',
      'http://example.com/hook',
      'https://10.1.2.3/hook',
      'https://[::ffff:192.168.1.1]/hook',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const res = await patchApp({ event_webhooks_url: url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ code: number }>().code).toBe(50035);
    }
  });

  it('enabling events without a URL is refused', async () => {
    const res = await patchApp({ event_webhooks_status: 2 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 50035,
      errors: {
        event_webhooks_status: { _errors: [{ code: 'APPLICATION_EVENT_WEBHOOKS_URL_REQUIRED' }] },
      },
    });
  });

  it('a delivered event verifies with verifyKey; forged ones do not', async () => {
    const app = await receiver();
    await subscribe(app);
    await enqueue('APPLICATION_DEAUTHORIZED');
    expect(app.received).toHaveLength(0);
    expect(await server.app.services.webhookEvents.deliverDue()).toBe(1);
    expect(app.received).toHaveLength(1);
    const [delivery] = app.received;
    if (delivery === undefined) throw new Error('nothing delivered');
    const key = await publicKey();
    expect(await verified(delivery, key)).toBe(true);
    expect(JSON.parse(delivery.body)).toEqual({
      version: 1,
      application_id: seed.applicationId,
      type: 1,
      event: {
        type: 'APPLICATION_DEAUTHORIZED',
        timestamp: new Date(START).toISOString(),
        data: {
          user: expect.objectContaining({ id: seed.userId, username: seed.username }) as unknown,
        },
      },
    });

    // The signature covers the timestamp and the body: changing either breaks it.
    const timestamp = String(delivery.headers['x-signature-timestamp']);
    const forgedBody = delivery.body.replace(seed.userId, '1');
    expect(await verified({ ...delivery, body: forgedBody }, key)).toBe(false);
    const laterHeaders = {
      ...delivery.headers,
      'x-signature-timestamp': String(Number(timestamp) + 1),
    };
    expect(await verified({ ...delivery, headers: laterHeaders }, key)).toBe(false);
    // A signature made with another key (a forger's) is refused too.
    const forger = generateKeyPairSync('ed25519');
    const forged = sign(null, Buffer.from(timestamp + forgedBody), forger.privateKey).toString(
      'hex',
    );
    const forgedHeaders = { ...delivery.headers, 'x-signature-ed25519': forged };
    expect(await verified({ ...delivery, body: forgedBody, headers: forgedHeaders }, key)).toBe(
      false,
    );
  });

  it('only subscribed event types are enqueued and delivered', async () => {
    const app = await receiver();
    await subscribe(app, ['APPLICATION_AUTHORIZED']);
    await enqueue('APPLICATION_DEAUTHORIZED');
    await enqueue('APPLICATION_AUTHORIZED');
    expect((await outbox()).map((e) => e.eventType)).toEqual(['APPLICATION_AUTHORIZED']);
    await server.app.services.webhookEvents.deliverDue();
    expect(app.received.map((r) => JSON.parse(r.body) as { event: { type: string } })).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({
          type: 'APPLICATION_AUTHORIZED',
          data: expect.objectContaining({ integration_type: 1, scopes: ['identify'] }) as unknown,
        }) as unknown,
      }),
    ]);
  });

  it('nothing is enqueued while events are disabled', async () => {
    const app = await receiver();
    await subscribe(app);
    expect((await patchApp({ event_webhooks_status: 1 })).statusCode).toBe(200);
    await enqueue('APPLICATION_DEAUTHORIZED');
    expect(await outbox()).toEqual([]);
  });

  it('a rolled-back change enqueues nothing', async () => {
    const app = await receiver();
    await subscribe(app);
    await expect(
      server.app.storage.transaction(async (tx) => {
        await server.app.services.webhookEvents.enqueue(tx, {
          applicationId: seed.applicationId,
          type: 'APPLICATION_DEAUTHORIZED',
          data: {},
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await outbox()).toEqual([]);
  });

  it('500s are retried with exponential backoff until a 204', async () => {
    const app = await receiver((i) => (i === 0 || i > 3 ? 204 : 500));
    await subscribe(app);
    await enqueue('APPLICATION_AUTHORIZED');
    const { deliverDue } = server.app.services.webhookEvents;
    const gaps: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect(await deliverDue()).toBe(1);
      const [event] = await outbox();
      expect(event).toMatchObject({ status: 'pending', attempts: i + 1 });
      // Not due again until its backoff has passed.
      expect(await deliverDue()).toBe(0);
      gaps.push((event?.nextAttemptAt ?? 0) - clock.now());
      clock.set(event?.nextAttemptAt ?? 0);
    }
    // random() = 0.5: ¾ of 1 s, 2 s, 4 s.
    expect(gaps).toEqual([750, 1500, 3000]);
    expect(await deliverDue()).toBe(1);
    expect((await outbox())[0]).toMatchObject({ status: 'delivered', attempts: 4 });
    expect(app.received).toHaveLength(4);
    // Every retry is the same event, signed afresh with its own timestamp.
    const key = await publicKey();
    for (const request of app.received) expect(await verified(request, key)).toBe(true);
    expect(new Set(app.received.map((r) => JSON.parse(r.body) as unknown)).size).toBe(4);

    const res = await deliveries();
    expect(res.statusCode).toBe(200);
    const [listed] = res.json<{ status: string; attempts: { http_status: number | null }[] }[]>();
    expect(listed).toMatchObject({ type: 'APPLICATION_AUTHORIZED', status: 'delivered' });
    expect(listed?.attempts.map((a) => a.http_status)).toEqual([500, 500, 500, 204]);
  });

  it('an event still failing after 10 minutes is marked failed', async () => {
    const app = await receiver((i) => (i === 0 ? 204 : 500));
    await subscribe(app);
    await enqueue('APPLICATION_DEAUTHORIZED');
    const { deliverDue } = server.app.services.webhookEvents;
    for (let i = 0; i < 40; i++) {
      const [event] = await outbox();
      if (event?.status !== 'pending') break;
      clock.set(event.nextAttemptAt);
      await deliverDue();
    }
    const [event] = await outbox();
    expect(event).toMatchObject({
      status: 'failed',
      finishedAt: START + DELIVERY_WINDOW_MS,
      lastError: 'HTTP 500',
    });
    clock.advance(60 * 60 * 1000);
    expect(await deliverDue()).toBe(0);

    const listed = (await deliveries()).json<
      { status: string; attempts: { timestamp: string; http_status: number }[] }[]
    >()[0];
    expect(listed?.status).toBe('failed');
    const times = listed?.attempts.map((a) => Date.parse(a.timestamp)) ?? [];
    expect(times[0]).toBe(START);
    expect(times.at(-1)).toBe(START + DELIVERY_WINDOW_MS);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    // The waits double up to the 2-minute cap (¾ of it with random() = 0.5); the window cuts the
    // last one short.
    expect(gaps.slice(0, 8)).toEqual([750, 1500, 3000, 6000, 12_000, 24_000, 48_000, 90_000]);
    expect(gaps.slice(8, -1).every((gap) => gap === 90_000)).toBe(true);
    expect(listed?.attempts.every((a) => a.http_status === 500)).toBe(true);
  });

  it('counts queued, delivered, retried and failed events on /metrics', async () => {
    const scrape = async () =>
      (await server.app.http.inject({ method: 'GET', url: '/metrics' })).body.split('\n');
    const sample = (lines: string[], series: string) =>
      Number(lines.find((l) => l.startsWith(`${series} `))?.slice(series.length + 1) ?? 0);
    const before = await scrape();
    // Request 0 is the PING; the first event gets a 500, then a 204; the second only 500s.
    const app = await receiver((i, request) =>
      i === 0 || (i > 1 && request.body.includes('APPLICATION_AUTHORIZED')) ? 204 : 500,
    );
    await subscribe(app);
    await enqueue('APPLICATION_AUTHORIZED');
    await enqueue('APPLICATION_DEAUTHORIZED');
    const { deliverDue } = server.app.services.webhookEvents;
    for (let i = 0; i < 40; i++) {
      const pending = (await outbox()).filter((e) => e.status === 'pending');
      if (pending.length === 0) break;
      clock.set(Math.min(...pending.map((e) => e.nextAttemptAt)));
      await deliverDue();
    }
    const after = await scrape();
    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('guildhall_webhook_events_queued_total')).toBe(2);
    expect(moved('guildhall_webhook_events_delivered_total')).toBe(1);
    expect(moved('guildhall_webhook_events_failed_total{reason="status_5xx"}')).toBe(1);
    const attempts = (await deliveries()).json<{ attempts: unknown[] }[]>();
    const failedAttempts = attempts.reduce((sum, e) => sum + e.attempts.length, 0) - 2;
    // Every 500 but the last of the failed event is retried.
    expect(moved('guildhall_webhook_events_retried_total{reason="status_5xx"}')).toBe(
      failedAttempts,
    );
  });

  it('a timed-out delivery is recorded as an error and retried', async () => {
    const app = await receiver((i) => (i === 1 ? 'hang' : 204));
    await subscribe(app);
    await enqueue('APPLICATION_DEAUTHORIZED');
    await server.app.services.webhookEvents.deliverDue();
    const [first] = (await deliveries()).json<{ attempts: { error: string | null }[] }[]>();
    expect(first?.attempts[0]?.error).toBe('timed out after 300 ms');
    clock.advance(1000);
    await server.app.services.webhookEvents.deliverDue();
    expect((await outbox())[0]?.status).toBe('delivered');
  });

  it('the delivery log is for the app owner and its bot only', async () => {
    const other = await seedDeveloper(server.app, 'nosy');
    expect((await deliveries(other.userToken)).json()).toMatchObject({ code: 10002 });
    expect((await deliveries(`Bot ${other.botToken}`)).json()).toMatchObject({ code: 10002 });
    expect((await deliveries(seed.userToken)).statusCode).toBe(200);
  });
});

describe('the delivery worker started by createApp', () => {
  it('delivers on its own timer and stops with the app', async () => {
    const app = await startWebhookReceiver();
    const server = await startTestServer({
      config: { allowLocalWebhooks: true },
      webhookDelivery: { settings: { pollMs: 20 } },
    });
    try {
      const seed = await seedDeveloper(server.app, 'timer');
      const res = await server.app.http.inject({
        method: 'PATCH',
        url: '/api/v10/applications/@me',
        headers: { authorization: `Bot ${seed.botToken}` },
        payload: { event_webhooks_url: app.url, event_webhooks_types: TYPES },
      });
      expect(res.statusCode).toBe(200);
      await server.app.storage.transaction(async (tx) => {
        const user = await tx.users.findById(seed.userId);
        if (user === null) throw new Error('no user');
        await server.app.services.webhookEvents.enqueue(tx, {
          applicationId: seed.applicationId,
          type: 'APPLICATION_DEAUTHORIZED',
          data: await webhookEventData.APPLICATION_DEAUTHORIZED(tx, { user }),
        });
      });
      await vi.waitFor(() => {
        expect(app.received).toHaveLength(2);
      });
    } finally {
      await server.close();
      await app.close();
    }
  });
});
