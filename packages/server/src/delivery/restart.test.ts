import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/support/drivers.js';
import { TEST_DATABASE_URL, dropSchema, uniqueSchema } from '../../test/support/postgres.js';
import { seedDeveloper } from '../../test/support/testServer.js';
import {
  heldTimers,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/webhookReceiver.js';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { manualClock } from '../domain/clock.js';
import type { Storage } from '../storage/index.js';
import { createPostgresStorage } from '../storage/postgres/index.js';
import { createSqliteStorage } from '../storage/sqlite/index.js';
import { webhookEventData } from './webhookEvents.js';

describe.each(DRIVERS)('webhook events across a restart on $driver', ({ driver, skip }) => {
  let dataDir: string;
  let schema: string;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    if (skip) return;
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-restart-'));
    schema = uniqueSchema('restart');
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    if (skip) return;
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
    if (driver === 'postgres') await dropSchema(schema);
  });

  /** The same database each time, as a restarted server finds it. */
  const openStorage = async (): Promise<Storage> =>
    driver === 'postgres'
      ? createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema })
      : createSqliteStorage({ filename: join(dataDir, 'guildhall.db') });
  const start = async () =>
    createApp({
      config: {
        ...loadConfig({}, []),
        port: 0,
        dataDir,
        logLevel: 'silent',
        demo: false,
        allowLocalWebhooks: true,
      },
      storage: await openStorage(),
      clock: manualClock(Date.UTC(2026, 10, 1)),
      webhookDelivery: { timers: heldTimers },
    });

  it.skipIf(skip)('an event enqueued before a shutdown is delivered after it', async () => {
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
