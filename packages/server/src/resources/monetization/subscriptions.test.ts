import { expect, it } from 'vitest';
import { DAY_MS } from '../../domain/time.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { START_MS, useMonetizationFixture } from '../../../test/support/monetizationFixture.js';

interface SubscriptionWire {
  id: string;
  status: number;
  canceled_at: string | null;
  current_period_start: string;
  current_period_end: string;
  entitlement_ids: string[];
  renewal_sku_ids: string[] | null;
}

describeDrivers('subscriptions and test purchases on $driver', (driver) => {
  const { call, bearer, world, state } = useMonetizationFixture(driver);

  /** Turns the app's webhook events on for the entitlement types (set as the PATCH would). */
  const subscribeEvents = (applicationId: string) =>
    state.server.app.storage.applications.update(applicationId, {
      eventWebhooksUrl: 'https://events.example.test/hook',
      eventWebhooksStatus: 2,
      eventWebhooksTypes: ['ENTITLEMENT_CREATE', 'ENTITLEMENT_UPDATE', 'ENTITLEMENT_DELETE'],
    });
  const outbox = async (applicationId: string) =>
    (await state.server.app.storage.outbox.listByApplication(applicationId, { limit: 50 }))
      .map((e) => JSON.parse(e.event) as { type: string; data: { id: string } })
      .reverse();

  it('a test subscription: created, listed, canceled, resumed, renewed, ended, with events', async () => {
    state.clock.set(START_MS);
    const w = await world();
    await subscribeEvents(w.dev.applicationId);
    const app = `/applications/${w.dev.applicationId}`;
    const bought = await call(`POST ${app}/test-purchases`, w.dev.userToken, {
      sku_id: w.skus.subscription.id,
      user_id: w.player.userId,
    });
    expect(bought.statusCode).toBe(201);
    const { subscription, entitlement } = bought.json<{
      subscription: SubscriptionWire;
      entitlement: { id: string };
    }>();
    expect(subscription).toEqual({
      id: subscription.id,
      user_id: w.player.userId,
      sku_ids: [w.skus.subscription.id],
      entitlement_ids: [entitlement.id],
      renewal_sku_ids: [w.skus.subscription.id],
      current_period_start: new Date(START_MS).toISOString(),
      current_period_end: new Date(START_MS + 30 * DAY_MS).toISOString(),
      status: 0,
      canceled_at: null,
    });
    expect(entitlement).toMatchObject({ type: 8, starts_at: new Date(START_MS).toISOString() });
    expect(entitlement).toMatchObject({ ends_at: null, user_id: w.player.userId });

    // The bot hears of it on the gateway (its user's subject), the app's URL by webhook event.
    const created = await w.dispatches.next('SUBSCRIPTION_CREATE');
    expect(created.userIds).toEqual([w.dev.botUserId]);
    expect(created.data).toEqual(subscription);
    expect((await w.dispatches.next('ENTITLEMENT_CREATE')).data).toEqual(entitlement);

    // Listing needs user_id from a bot; an OAuth2 token of the app sees its user's.
    const subs = `/skus/${w.skus.subscription.id}/subscriptions`;
    const listed = await call(`GET ${subs}?user_id=${w.player.userId}`, w.bot);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([subscription]);
    expect((await call(`GET ${subs}?user_id=${w.dev.userId}`, w.bot)).json()).toEqual([]);
    const noUser = await call(`GET ${subs}`, w.bot);
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json()).toMatchObject({ code: 50035, errors: { user_id: {} } });
    const token = await bearer(w.player.userId, w.dev.applicationId, ['identify']);
    expect((await call(`GET ${subs}`, token)).json()).toEqual([subscription]);
    const one = await call(`GET ${subs}/${subscription.id}`, w.bot);
    expect(one.json()).toEqual(subscription);
    const unknown = await call(`GET ${subs}/42`, w.bot);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Unknown Subscription' });
    expect((await call(`GET /skus/42/subscriptions?user_id=1`, w.bot)).json()).toMatchObject({
      code: 10027,
    });
    const other = await world();
    const foreign = await call(`GET ${subs}?user_id=${w.player.userId}`, other.bot);
    expect(foreign.statusCode).toBe(403);
    expect((await call(`GET ${subs}?limit=0`, w.bot)).json()).toMatchObject({ code: 50035 });

    const step = async (action: string) => {
      const res = await call(`PATCH ${app}/subscriptions/${subscription.id}`, w.dev.userToken, {
        action,
      });
      return { status: res.statusCode, body: res.json<SubscriptionWire>() };
    };
    state.clock.advance(DAY_MS);
    const canceled = await step('cancel');
    expect(canceled.body).toMatchObject({
      status: 2,
      canceled_at: new Date(START_MS + DAY_MS).toISOString(),
      renewal_sku_ids: null,
    });
    const ending = await call(
      `GET /applications/${w.dev.applicationId}/entitlements/${entitlement.id}`,
      w.bot,
    );
    expect(ending.json()).toMatchObject({ ends_at: subscription.current_period_end });
    expect((await step('cancel')).body).toMatchObject({ code: 50035, errors: { action: {} } });

    const resumed = await step('resume');
    expect(resumed.body).toMatchObject({ status: 0, canceled_at: null });
    const renewed = await step('renew');
    expect(renewed.body).toMatchObject({
      status: 0,
      current_period_start: subscription.current_period_end,
      current_period_end: new Date(START_MS + 60 * DAY_MS).toISOString(),
    });
    await step('cancel');
    const lapsed = await step('renew');
    expect(lapsed.body).toMatchObject({ status: 1 });
    expect((await step('end')).body).toMatchObject({ code: 50035 });
    expect((await step('fly')).body).toMatchObject({ code: 50035, errors: { action: {} } });

    // Each change of the entitlement went out as a webhook event too, in order.
    expect((await outbox(w.dev.applicationId)).map((e) => e.type)).toEqual([
      'ENTITLEMENT_CREATE',
      'ENTITLEMENT_UPDATE', // cancel: ends with the period
      'ENTITLEMENT_UPDATE', // resume: no end again
      'ENTITLEMENT_UPDATE', // cancel
    ]);
    const updates = w.dispatches.events.filter((d) => d.type === 'SUBSCRIPTION_UPDATE');
    expect(updates.map((d) => (d.data as SubscriptionWire).status)).toEqual([2, 0, 0, 2, 1]);
  });

  it('end and delete; one-time purchases; guild subscriptions; who may use the flow', async () => {
    const w = await world();
    const app = `/applications/${w.dev.applicationId}`;
    const purchase = (body: Record<string, unknown>, auth = w.dev.userToken) =>
      call(`POST ${app}/test-purchases`, auth, body);

    const { subscription } = (
      await purchase({ sku_id: w.skus.subscription.id, user_id: w.player.userId })
    ).json<{ subscription: SubscriptionWire }>();
    const again = await purchase({ sku_id: w.skus.subscription.id, user_id: w.player.userId });
    expect(again.json()).toMatchObject({ code: 40074 });
    const ended = await call(`PATCH ${app}/subscriptions/${subscription.id}`, w.dev.userToken, {
      action: 'end',
    });
    expect(ended.json()).toMatchObject({ status: 1 });
    const [entitlementId] = subscription.entitlement_ids;
    const ent = await call(`GET ${app}/entitlements/${String(entitlementId)}`, w.bot);
    expect(ent.json()).toMatchObject({ ends_at: new Date(state.clock.now()).toISOString() });

    const removed = await call(`DELETE ${app}/subscriptions/${subscription.id}`, w.dev.userToken);
    expect(removed.statusCode).toBe(204);
    await w.dispatches.next('SUBSCRIPTION_DELETE');
    expect((await w.dispatches.next('ENTITLEMENT_DELETE')).data).toMatchObject({
      id: entitlementId,
      deleted: true,
    });
    const gone = await call(`DELETE ${app}/subscriptions/${subscription.id}`, w.dev.userToken);
    expect(gone.statusCode).toBe(404);

    const potion = await purchase({ sku_id: w.skus.consumable.id, user_id: w.player.userId });
    expect(potion.json()).toMatchObject({
      subscription: null,
      entitlement: { type: 4, sku_id: w.skus.consumable.id, consumed: false },
    });

    const needsGuild = await purchase({
      sku_id: w.skus.guildSubscription.id,
      user_id: w.player.userId,
    });
    expect(needsGuild.json()).toMatchObject({ code: 50035, errors: { guild_id: {} } });
    const notForGuilds = await purchase({
      sku_id: w.skus.durable.id,
      user_id: w.player.userId,
      guild_id: w.guildId,
    });
    expect(notForGuilds.json()).toMatchObject({ code: 50035, errors: { guild_id: {} } });
    const forGuild = await purchase({
      sku_id: w.skus.guildSubscription.id,
      user_id: w.player.userId,
      guild_id: w.guildId,
    });
    expect(forGuild.statusCode).toBe(201);
    expect(forGuild.json()).toMatchObject({ entitlement: { guild_id: w.guildId } });
    // A guild's entitlement goes to the bot's shard of that guild, a user's to shard 0.
    const creates = w.dispatches.events.filter((d) => d.type === 'ENTITLEMENT_CREATE');
    expect(creates.map((d) => d.shard)).toEqual([
      { guildId: null },
      { guildId: null },
      { guildId: w.guildId },
    ]);

    const all = await call(`GET ${app}/subscriptions`, w.dev.userToken);
    expect(all.json<SubscriptionWire[]>()).toHaveLength(1);

    // Only the owner runs the flow; bad bodies and unknown ids are the platform's errors.
    expect(
      (await purchase({ sku_id: w.skus.durable.id, user_id: w.player.userId }, w.player.token))
        .statusCode,
    ).toBe(403);
    expect(
      (await purchase({ sku_id: w.skus.durable.id, user_id: w.player.userId }, w.bot)).statusCode,
    ).toBe(403);
    expect((await purchase({ sku_id: '1', user_id: w.player.userId })).json()).toMatchObject({
      code: 10027,
    });
    expect((await purchase({ sku_id: w.skus.durable.id, user_id: '1' })).json()).toMatchObject({
      code: 10013,
    });
    expect((await purchase({ sku_id: 'x', period_days: 0 })).json()).toMatchObject({
      code: 50035,
      errors: { sku_id: {}, user_id: {}, period_days: {} },
    });
    expect(
      (await call(`PATCH ${app}/subscriptions/1`, w.dev.userToken, { action: 'end' })).statusCode,
    ).toBe(404);
  });
});
