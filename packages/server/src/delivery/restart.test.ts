import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { dropSchema, uniqueSchema } from '../../test/support/postgres.js';
import { seedDeveloper, startTestServer } from '../../test/support/testServer.js';
import {
  heldTimers,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/webhookReceiver.js';
import { manualClock } from '../domain/clock.js';
import { webhookEventData } from './webhookEvents.js';

describeDrivers('webhook events across a restart on $driver', (driver) => {
  let dataDir: string;
  let schema: string;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-restart-'));
    schema = uniqueSchema('restart');
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
    if (driver === 'postgres') await dropSchema(schema);
  });

  /** The same database and data folder each time, as a restarted server finds them. */
  const start = async () => {
    const server = await startTestServer({
      storage: driver,
      database: driver === 'postgres' ? schema : join(dataDir, 'guildhall.db'),
      dataDir,
      config: { allowLocalWebhooks: true },
      clock: manualClock(Date.UTC(2026, 10, 1)),
      webhookDelivery: { timers: heldTimers },
    });
    return server.app;
  };

  it('an event enqueued before a shutdown is delivered after it', async () => {
    const first = await start();
    const seed = await seedDeveloper(first, 'restart');
    const res = await first.http.inject({
      method: 'PATCH',
      url: '/api/v10/applications/@me',
      headers: { authorization: `Bot ${seed.botToken}` },
      payload: {
        event_webhooks_url: receiver.url,
        event_webhooks_types: ['APPLICATION_DEAUTHORIZED'],
      },
    });
    expect(res.statusCode).toBe(200);
    await first.storage.transaction(async (tx) => {
      const user = await tx.users.findById(seed.userId);
      if (user === null) throw new Error('no user');
      await first.services.webhookEvents.enqueue(tx, {
        applicationId: seed.applicationId,
        type: 'APPLICATION_DEAUTHORIZED',
        data: await webhookEventData.APPLICATION_DEAUTHORIZED(tx, { user }),
      });
    });
    await first.close();
    expect(receiver.received).toHaveLength(1); // the PING only

    const second = await start();
    try {
      expect(await second.services.webhookEvents.deliverDue()).toBe(1);
      expect(receiver.received).toHaveLength(2);
      expect(JSON.parse(receiver.received[1]?.body ?? '{}')).toMatchObject({
        type: 1,
        event: { type: 'APPLICATION_DEAUTHORIZED', data: { user: { id: seed.userId } } },
      });
      const [event] = await second.storage.outbox.listByApplication(seed.applicationId, {
        limit: 1,
      });
      expect(event).toMatchObject({ status: 'delivered', attempts: 1 });
    } finally {
      await second.close();
    }
  });
});
