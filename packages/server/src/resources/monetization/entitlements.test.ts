import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useMonetizationFixture } from '../../../test/support/monetizationFixture.js';

describeDrivers('SKUs and entitlements on $driver', (driver) => {
  const { call, bearer, world, state } = useMonetizationFixture(driver);

  it('SKUs: the owner creates and edits them, the bot and the owner list them', async () => {
    const w = await world();
    const skusPath = `/applications/${w.dev.applicationId}/skus`;
    expect(w.skus.subscription).toMatchObject({ type: 5, flags: 4 | 256, slug: 'premium' });
    expect(w.skus.durable).toMatchObject({ type: 2, flags: 4, slug: 'sword' });

    const listed = await call(`GET ${skusPath}`, w.bot);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      { ...w.skus.durable, application_id: w.dev.applicationId, name: 'Sword' },
      { ...w.skus.consumable, application_id: w.dev.applicationId, name: 'Potion' },
      { ...w.skus.subscription, application_id: w.dev.applicationId, name: 'Premium' },
      { ...w.skus.guildSubscription, application_id: w.dev.applicationId, name: 'Guild Premium' },
    ]);
    expect((await call(`GET ${skusPath}`, w.dev.userToken)).json()).toEqual(listed.json());

    const edited = await call(`PATCH ${skusPath}/${w.skus.durable.id}`, w.dev.userToken, {
      name: 'Golden Sword',
      slug: 'golden-sword',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Golden Sword', slug: 'golden-sword', type: 2 });

    // Bad input: 50035 with the field.
    const bad = await call(`POST ${skusPath}`, w.dev.userToken, { name: '', type: 4 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 50035, errors: { name: {}, type: {} } });
    const taken = await call(`POST ${skusPath}`, w.dev.userToken, { name: 'Premium', type: 2 });
    expect(taken.json()).toMatchObject({ code: 50035, errors: { slug: {} } });
    const flags = await call(`POST ${skusPath}`, w.dev.userToken, {
      name: 'Both',
      type: 5,
      flags: 4 | 128 | 256,
    });
    expect(flags.json()).toMatchObject({ code: 50035, errors: { flags: {} } });
    const durableFlags = await call(`PATCH ${skusPath}/${w.skus.durable.id}`, w.dev.userToken, {
      flags: 256,
    });
    expect(durableFlags.json()).toMatchObject({ code: 50035, errors: { flags: {} } });

    // Unknown ids and other people.
    expect((await call(`GET /applications/1/skus`, w.bot)).json()).toMatchObject({ code: 10002 });
    expect(
      (await call(`PATCH ${skusPath}/1`, w.dev.userToken, { name: 'x' })).json(),
    ).toMatchObject({ code: 10027 });
    // Another person sees the store: the SKUs on sale (AVAILABLE), as an activity lists them.
    const hide = (flags: number) =>
      call(`PATCH ${skusPath}/${w.skus.consumable.id}`, w.dev.userToken, { flags });
    expect((await hide(0)).statusCode).toBe(200);
    const store = await call(`GET ${skusPath}`, w.player.token);
    expect(store.statusCode).toBe(200);
    expect(store.json<{ id: string }[]>().map((sku) => sku.id)).toEqual([
      w.skus.durable.id,
      w.skus.subscription.id,
      w.skus.guildSubscription.id,
    ]);
    expect((await hide(4)).statusCode).toBe(200);
    const botCreates = await call(`POST ${skusPath}`, w.bot, { name: 'Bot', type: 2 });
    expect(botCreates.statusCode).toBe(403);
  });

  it('test entitlements: create for a user or a guild, list with every filter, get, delete', async () => {
    const w = await world();
    const base = `/applications/${w.dev.applicationId}/entitlements`;
    const grant = (skuId: string, owner: string, ownerType: number) =>
      call(`POST ${base}`, w.bot, { sku_id: skuId, owner_id: owner, owner_type: ownerType });

    const first = await grant(w.skus.durable.id, w.player.userId, 2);
    expect(first.statusCode).toBe(200);
    const durable = first.json<{ id: string }>();
    expect(durable).toEqual({
      id: durable.id,
      sku_id: w.skus.durable.id,
      application_id: w.dev.applicationId,
      user_id: w.player.userId,
      type: 4,
      deleted: false,
      starts_at: null,
      ends_at: null,
      consumed: false,
    });
    // A durable SKU is held once.
    const again = await grant(w.skus.durable.id, w.player.userId, 2);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 40074 });

    const potion1 = (await grant(w.skus.consumable.id, w.player.userId, 2)).json<{ id: string }>();
    const potion2 = (await grant(w.skus.consumable.id, w.player.userId, 2)).json<{ id: string }>();
    const guildGrant = await grant(w.skus.guildSubscription.id, w.guildId, 1);
    expect(guildGrant.json()).toMatchObject({ guild_id: w.guildId, user_id: w.dev.userId });
    const guildOne = guildGrant.json<{ id: string }>();

    const list = async (query: string) => {
      const res = await call(`GET ${base}${query}`, w.bot);
      expect(res.statusCode).toBe(200);
      return res.json<{ id: string }[]>().map((e) => e.id);
    };
    expect(await list('')).toEqual([guildOne.id, potion2.id, potion1.id, durable.id]);
    expect(await list(`?user_id=${w.player.userId}`)).toEqual([potion2.id, potion1.id, durable.id]);
    expect(await list(`?guild_id=${w.guildId}`)).toEqual([guildOne.id]);
    expect(await list(`?sku_ids=${w.skus.durable.id},${w.skus.guildSubscription.id}`)).toEqual([
      guildOne.id,
      durable.id,
    ]);
    expect(
      await list(`?sku_ids=${w.skus.durable.id}&sku_ids=${w.skus.consumable.id}&limit=2`),
    ).toEqual([potion2.id, potion1.id]);
    expect(await list(`?after=${durable.id}&limit=2`)).toEqual([potion1.id, potion2.id]);
    expect(await list(`?before=${potion2.id}`)).toEqual([potion1.id, durable.id]);

    // Get, delete (a DELETE answers 204 and hides it unless exclude_deleted=false).
    const got = await call(`GET ${base}/${potion1.id}`, w.bot);
    expect(got.json()).toMatchObject({ id: potion1.id, sku_id: w.skus.consumable.id });
    const deleted = await call(`DELETE ${base}/${potion1.id}`, w.bot);
    expect(deleted.statusCode).toBe(204);
    expect(await list('')).not.toContain(potion1.id);
    expect(await list('?exclude_deleted=false')).toContain(potion1.id);
    expect((await call(`GET ${base}/${potion1.id}`, w.bot)).json()).toMatchObject({
      deleted: true,
    });
    const twice = await call(`DELETE ${base}/${potion1.id}`, w.bot);
    expect(twice.statusCode).toBe(404);
    expect(twice.json()).toMatchObject({ code: 10029 });

    // Errors: bad query, unknown ids, another app's bot, bad body.
    const badQuery = await call(`GET ${base}?user_id=abc&limit=500`, w.bot);
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json()).toMatchObject({ code: 50035, errors: { user_id: {}, limit: {} } });
    expect((await call(`GET ${base}/123`, w.bot)).json()).toMatchObject({ code: 10029 });
    expect((await call(`GET /applications/123/entitlements`, w.bot)).json()).toMatchObject({
      code: 10002,
    });
    const other = await world();
    const foreign = await call(`GET ${base}`, other.bot);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 50001 });
    expect((await call(`GET ${base}/${durable.id}`, other.bot)).statusCode).toBe(403);
    const otherSku = await grant(other.skus.durable.id, w.player.userId, 2);
    expect(otherSku.json()).toMatchObject({ code: 10027 });
    const noUser = await grant(w.skus.consumable.id, '42', 2);
    expect(noUser.json()).toMatchObject({ code: 10013 });
    const noGuild = await grant(w.skus.guildSubscription.id, '42', 1);
    expect(noGuild.json()).toMatchObject({ code: 10004 });
    const badBody = await call(`POST ${base}`, w.bot, { sku_id: 'x', owner_type: 3 });
    expect(badBody.json()).toMatchObject({
      code: 50035,
      errors: { sku_id: {}, owner_id: {}, owner_type: {} },
    });
  });

  it('consume: consumables only, once; ended and active filters follow the clock', async () => {
    const w = await world();
    const base = `/applications/${w.dev.applicationId}/entitlements`;
    const potion = (
      await call(`POST ${base}`, w.bot, {
        sku_id: w.skus.consumable.id,
        owner_id: w.player.userId,
        owner_type: 2,
      })
    ).json<{ id: string }>();
    const sword = (
      await call(`POST ${base}`, w.bot, {
        sku_id: w.skus.durable.id,
        owner_id: w.player.userId,
        owner_type: 2,
      })
    ).json<{ id: string }>();

    const consumed = await call(`POST ${base}/${potion.id}/consume`, w.playerToken);
    expect(consumed.statusCode).toBe(204);
    expect((await call(`GET ${base}/${potion.id}`, w.bot)).json()).toMatchObject({
      consumed: true,
    });
    expect((await call(`POST ${base}/${potion.id}/consume`, w.bot)).statusCode).toBe(204);
    const durable = await call(`POST ${base}/${sword.id}/consume`, w.bot);
    expect(durable.statusCode).toBe(400);
    expect(durable.json()).toMatchObject({ code: 40018 });
    expect((await call(`POST ${base}/1/consume`, w.bot)).json()).toMatchObject({ code: 10029 });

    const active = await call(`GET ${base}?only_active=true`, w.bot);
    expect(active.json<{ id: string }[]>().map((e) => e.id)).toEqual([sword.id]);

    // A subscription entitlement ends with its period once canceled: exclude_ended drops it then.
    const bought = await call(
      `POST /applications/${w.dev.applicationId}/test-purchases`,
      w.dev.userToken,
      { sku_id: w.skus.subscription.id, user_id: w.player.userId, period_days: 7 },
    );
    const { subscription, entitlement } = bought.json<{
      subscription: { id: string };
      entitlement: { id: string };
    }>();
    await call(
      `PATCH /applications/${w.dev.applicationId}/subscriptions/${subscription.id}`,
      w.dev.userToken,
      { action: 'cancel' },
    );
    const ids = async (query: string) =>
      (await call(`GET ${base}${query}`, w.bot)).json<{ id: string }[]>().map((e) => e.id);
    expect(await ids('?exclude_ended=true')).toContain(entitlement.id);
    state.clock.advance(8 * 24 * 60 * 60 * 1000);
    expect(await ids('?exclude_ended=true')).not.toContain(entitlement.id);
    expect(await ids('')).toContain(entitlement.id);
    expect(await ids('?only_active=true')).toEqual([sword.id]);
    // Not a test entitlement: deleting it is 40019.
    const notTest = await call(`DELETE ${base}/${entitlement.id}`, w.bot);
    expect(notTest.statusCode).toBe(400);
    expect(notTest.json()).toMatchObject({ code: 40019 });
  });

  it("OAuth2 tokens read and consume only their user's entitlements", async () => {
    const w = await world();
    const base = `/applications/${w.dev.applicationId}/entitlements`;
    const mine = (
      await call(`POST ${base}`, w.bot, {
        sku_id: w.skus.consumable.id,
        owner_id: w.player.userId,
        owner_type: 2,
      })
    ).json<{ id: string }>();
    const theirs = (
      await call(`POST ${base}`, w.bot, {
        sku_id: w.skus.consumable.id,
        owner_id: w.dev.userId,
        owner_type: 2,
      })
    ).json<{ id: string }>();

    const listed = await call(`GET ${base}`, w.playerToken);
    expect(listed.json<{ id: string }[]>().map((e) => e.id)).toEqual([mine.id]);
    expect((await call(`GET ${base}/${theirs.id}`, w.playerToken)).json()).toMatchObject({
      code: 10029,
    });
    const peek = await call(`GET ${base}?user_id=${w.dev.userId}`, w.playerToken);
    expect(peek.statusCode).toBe(403);
    const noScope = await bearer(w.player.userId, w.dev.applicationId, ['identify']);
    const scopeless = await call(`GET ${base}`, noScope);
    expect(scopeless.statusCode).toBe(403);
    expect(scopeless.json()).toMatchObject({ code: 50026 });

    // The user's own route: a token of the app with the scope (the person's session too),
    // consumed ones left out by default.
    const own = `/users/@me/applications/${w.dev.applicationId}/entitlements`;
    const identify = await bearer(w.player.userId, w.dev.applicationId, ['identify']);
    const unscoped = await call(`GET ${own}`, identify);
    expect(unscoped.statusCode).toBe(403);
    expect(unscoped.json()).toMatchObject({
      code: 50026,
      message: 'Missing required OAuth2 scope',
    });
    const ids = async (path: string, auth: string) => {
      const res = await call(`GET ${path}`, auth);
      expect(res.statusCode).toBe(200);
      return res.json<{ id: string }[]>().map((e) => e.id);
    };
    expect(await ids(own, w.playerToken)).toEqual([mine.id]);
    expect(await ids(own, w.player.token)).toEqual([mine.id]);
    await call(`POST ${base}/${mine.id}/consume`, w.playerToken);
    expect(await ids(own, w.playerToken)).toEqual([]);
    const withConsumed = await call(`GET ${own}?exclude_consumed=false`, w.playerToken);
    expect(withConsumed.json()).toMatchObject([{ id: mine.id, consumed: true }]);
    const filtered = await call(
      `GET ${own}?exclude_consumed=false&sku_ids=${w.skus.durable.id}`,
      w.playerToken,
    );
    expect(filtered.json()).toEqual([]);
    const other = await world();
    const foreign = await call(
      `GET /users/@me/applications/${other.dev.applicationId}/entitlements`,
      w.playerToken,
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 50001 });
    const unknown = await call(`GET /users/@me/applications/5/entitlements`, w.playerToken);
    expect(unknown.json()).toMatchObject({ code: 10002 });
  });
});
