import { verifyKey } from 'discord-interactions';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../../test/support/testServer.js';
import {
  heldTimers,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhookReceiver.js';
import { apiRequest } from '../../../test/support/inject.js';

describeDrivers('entitlement webhook events end to end on $driver', (driver) => {
  let server: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({
      storage: driver,
      config: { allowLocalWebhooks: true },
      webhookDelivery: { timers: heldTimers },
    });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('signs and delivers ENTITLEMENT_CREATE, then ENTITLEMENT_DELETE, from the outbox', async () => {
    const dev = await seedDeveloper(server.app, 'seller');
    /** `'METHOD /path'` as `auth`. */
    const call = (request: string, auth: string, body?: object) =>
      apiRequest(server.app, request, { auth, payload: body });
    const app = `/applications/${dev.applicationId}`;
    const patched = await call(`PATCH ${app}`, dev.userToken, {
      event_webhooks_url: receiver.url,
      event_webhooks_types: ['ENTITLEMENT_CREATE', 'ENTITLEMENT_DELETE'],
    });
    expect(patched.statusCode).toBe(200);
    receiver.received.splice(0);
    const sku = (await call(`POST ${app}/skus`, dev.userToken, { name: 'Map', type: 2 })).json<{
      id: string;
    }>();
    const granted = await call(`POST ${app}/entitlements`, `Bot ${dev.botToken}`, {
      sku_id: sku.id,
      owner_id: dev.userId,
      owner_type: 2,
    });
    const entitlement = granted.json<{ id: string }>();
    await call(`DELETE ${app}/entitlements/${entitlement.id}`, `Bot ${dev.botToken}`);

    expect(await server.app.services.webhookEvents.deliverDue()).toBe(2);
    const stored = await server.app.storage.applications.findById(dev.applicationId);
    const bodies = [];
    for (const request of receiver.received) {
      const ok = await verifyKey(
        request.body,
        String(request.headers['x-signature-ed25519']),
        String(request.headers['x-signature-timestamp']),
        stored?.verifyKey ?? '',
      );
      expect(ok).toBe(true);
      bodies.push(JSON.parse(request.body) as { event: { type: string; data: unknown } });
    }
    const events = bodies.map((b) => b.event).sort((a, b) => a.type.localeCompare(b.type));
    expect(events).toEqual([
      {
        type: 'ENTITLEMENT_CREATE',
        timestamp: expect.any(String) as unknown,
        data: entitlement,
      },
      {
        type: 'ENTITLEMENT_DELETE',
        timestamp: expect.any(String) as unknown,
        data: { ...entitlement, deleted: true },
      },
    ]);
    expect(bodies[0]).toMatchObject({ version: 1, application_id: dev.applicationId, type: 1 });
  });
});
