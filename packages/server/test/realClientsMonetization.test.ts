/**
 * Monetization through a real client: discord.js reads the app's SKUs, creates a test
 * entitlement (hearing ENTITLEMENT_CREATE on its gateway), fetches entitlements with filters,
 * consumes a consumable (ENTITLEMENT_UPDATE), deletes a test entitlement (ENTITLEMENT_DELETE) and
 * reads a test subscription (SUBSCRIPTION_UPDATE when the developer cancels it).
 *
 * @module
 */
import { Client, Events, SKUType, type Entitlement, type Subscription } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { startTestServer, type TestServer } from './support/testServer.js';
import { apiRequest } from './support/inject.js';

let server: TestServer;
let fx: GuildFixture;

beforeAll(async () => {
  server = await startTestServer({ listen: true, gateway: { identifiesPerBucket: 1000 } });
  fx = await guildFixture(server, { botPermissions: 0n });
});
afterAll(async () => {
  await server.close();
});

/** Creates a SKU as the app's owner would in the portal. */
async function createSku(body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await apiRequest(server.app, `POST /applications/${fx.bot.applicationId}/skus`, {
    auth: fx.owner.token,
    payload: body,
  });
  return res.json();
}

describe('discord.js 14 entitlements', () => {
  it('fetches SKUs, creates, fetches, consumes and deletes entitlements; reads subscriptions', async () => {
    const potion = await createSku({ name: 'Potion', type: 3 });
    const sword = await createSku({ name: 'Sword', type: 2 });
    const plan = await createSku({ name: 'Premium', type: 5 });
    const client = new Client({ intents: [], rest: { api: `${server.baseUrl}/api` } });
    try {
      const ready = once(client, Events.ClientReady);
      await client.login(fx.bot.token.replace(/^Bot /, ''));
      await ready;
      const application = client.application;
      if (application === null) throw new Error('no application after READY');

      const skus = await application.fetchSKUs();
      expect([...skus.keys()]).toEqual([potion.id, sword.id, plan.id]);
      expect(skus.get(plan.id)?.type).toBe(SKUType.Subscription);
      expect(skus.get(plan.id)?.flags.has('UserSubscription')).toBe(true);

      const heard = once<[Entitlement]>(client, Events.EntitlementCreate);
      const created = await application.entitlements.createTest({
        sku: potion.id,
        user: fx.owner.userId,
      });
      const [event] = await heard;
      expect(event.id).toBe(created.id);
      expect(created.isTest()).toBe(true);
      expect(created.userId).toBe(fx.owner.userId);
      const swordGrant = await application.entitlements.createTest({
        sku: sword.id,
        user: fx.owner.userId,
      });

      const all = await application.entitlements.fetch({ user: fx.owner.userId });
      expect([...all.keys()].sort()).toEqual([created.id, swordGrant.id].sort());
      const onlySwords = await application.entitlements.fetch({ skus: [sword.id] });
      expect([...onlySwords.keys()]).toEqual([swordGrant.id]);
      const one = await application.entitlements.fetch(created.id);
      expect(one.skuId).toBe(potion.id);

      const updated = once<[Entitlement | null, Entitlement]>(client, Events.EntitlementUpdate);
      await application.entitlements.consume(created.id);
      const [, after] = await updated;
      expect(after.consumed).toBe(true);

      const deleted = once<[Entitlement]>(client, Events.EntitlementDelete);
      await application.entitlements.deleteTest(swordGrant.id);
      expect((await deleted)[0].id).toBe(swordGrant.id);
      const left = await application.entitlements.fetch({ user: fx.owner.userId });
      expect([...left.keys()]).toEqual([created.id]);

      // A test purchase of the subscription SKU, then the developer cancels it.
      const subscribed = once<[Subscription]>(client, Events.SubscriptionCreate);
      const bought = await server.app.http.inject({
        method: 'POST',
        url: `/api/v10/applications/${fx.bot.applicationId}/test-purchases`,
        headers: { authorization: fx.owner.token },
        payload: { sku_id: plan.id, user_id: fx.owner.userId },
      });
      expect(bought.statusCode).toBe(201);
      const [subscription] = await subscribed;
      const fetched = await application.subscriptions.fetch({
        sku: plan.id,
        user: fx.owner.userId,
      });
      expect([...fetched.keys()]).toEqual([subscription.id]);
      const changed = once<[Subscription | null, Subscription]>(client, Events.SubscriptionUpdate);
      await server.app.http.inject({
        method: 'PATCH',
        url: `/api/v10/applications/${fx.bot.applicationId}/subscriptions/${subscription.id}`,
        headers: { authorization: fx.owner.token },
        payload: { action: 'cancel' },
      });
      const [, ending] = await changed;
      expect(ending.status).toBe(2);
      expect(ending.canceledAt).toBeInstanceOf(Date);
      const single = await application.subscriptions.fetch({
        sku: plan.id,
        subscriptionId: subscription.id,
      });
      expect(single.status).toBe(2);
    } finally {
      await client.destroy();
    }
  });
});
