/**
 * Subscriptions and the test purchase flow (docs/monetization.md#test-purchases). No payment
 * happens on Guildhall: a developer grants a user (or a guild, through a user) a SKU, and the
 * platform makes what a purchase would: a one-time SKU's entitlement, or a subscription with
 * its entitlement, with their events. The developer then moves the subscription through its
 * statuses (cancel → ENDING, resume, renew, end → INACTIVE) as time and payments would; those
 * steps are in subscriptionSteps.ts.
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { DAY_MS } from '../../domain/time.js';
import {
  EntitlementTypes,
  SkuFlags,
  SkuTypes,
  SubscriptionStatuses,
  type EntitlementRecord,
  type Repositories,
  type SkuRecord,
  type SubscriptionRecord,
} from '../../storage/index.js';
import { findApplication, requireDeveloper, requireOwner, type Caller } from './access.js';
import { announceEntitlement, announceSubscription } from './events.js';
import type { ListSubscriptionsInput, TestPurchaseInput } from './schemas.js';
import { serializeEntitlement, serializeSubscription } from './serialize.js';
import { refuseSecond, skuOf, type MonetizationDeps } from './service.js';
import { createSubscriptionSteps, withEntitlements } from './subscriptionSteps.js';

/** A test subscription's period when the developer names none. */
export const DEFAULT_PERIOD_DAYS = 30;

/** The SKU and its application for the subscription routes: the app's bot, owner or token. */
async function skuForReader(repos: Repositories, caller: Caller, skuId: string) {
  const sku = isSnowflake(skuId) ? await repos.skus.findById(skuId) : null;
  if (sku === null) throw new ApiError('UNKNOWN_SKU');
  const app = await findApplication(repos, sku.applicationId);
  if (caller.kind === 'bearer') {
    if (caller.applicationId !== app.id) throw new ApiError('MISSING_ACCESS');
    return { sku, app, onlyUserId: caller.user.id };
  }
  requireDeveloper(caller, app);
  return { sku, app, onlyUserId: undefined };
}

export function createSubscriptionService(deps: MonetizationDeps) {
  const { storage, clock, ids } = deps;

  return {
    ...createSubscriptionSteps(deps),

    /**
     * GET /skus/{id}/subscriptions: the app's bot or owner name `user_id` (required, as on the
     * platform); an OAuth2 token of the app sees its user's.
     */
    async listBySku(caller: Caller, skuId: string, query: ListSubscriptionsInput) {
      const { sku, onlyUserId } = await skuForReader(storage, caller, skuId);
      const userId = onlyUserId ?? query.user_id;
      if (userId === undefined) {
        throw invalidField(['user_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      if (onlyUserId !== undefined && query.user_id !== undefined && query.user_id !== onlyUserId) {
        throw new ApiError('MISSING_ACCESS');
      }
      const rows = await storage.subscriptions.listBySku({
        skuId: sku.id,
        userId,
        ...(query.before === undefined ? {} : { before: query.before }),
        ...(query.after === undefined ? {} : { after: query.after }),
        limit: query.limit,
      });
      return withEntitlements(storage, rows);
    },

    /** GET /skus/{id}/subscriptions/{subscription_id}. */
    async get(
      caller: Caller,
      where: { skuId: string; subscriptionId: string; userId?: string | undefined },
    ) {
      const { skuId, subscriptionId, userId } = where;
      const { sku, onlyUserId } = await skuForReader(storage, caller, skuId);
      const found = isSnowflake(subscriptionId)
        ? await storage.subscriptions.findById(subscriptionId)
        : null;
      const owner = onlyUserId ?? userId;
      if (found?.skuId !== sku.id || (owner !== undefined && found.userId !== owner)) {
        throw new ApiError('SUBSCRIPTION_NOT_FOUND');
      }
      const [wire] = await withEntitlements(storage, [found]);
      return wire;
    },

    /** GET /applications/{id}/subscriptions (the portal): every subscription, newest first. */
    async listByApplication(caller: Caller, applicationId: string) {
      const app = await findApplication(storage, applicationId);
      requireOwner(caller, app);
      const skus = await storage.skus.listByApplication(app.id);
      const rows = (
        await Promise.all(
          skus.map((sku) => storage.subscriptions.listBySku({ skuId: sku.id, limit: 100 })),
        )
      )
        .flat()
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
      return withEntitlements(storage, rows);
    },

    /**
     * POST /applications/{id}/test-purchases: what buying the SKU would make. A one-time SKU: a
     * TEST_MODE_PURCHASE entitlement (a durable one at most once). A subscription SKU: an ACTIVE
     * subscription for one period and its APPLICATION_SUBSCRIPTION entitlement (no end while it
     * renews), with ENTITLEMENT_CREATE and SUBSCRIPTION_CREATE.
     */
    async testPurchase(caller: Caller, applicationId: string, input: TestPurchaseInput) {
      return storage.transaction(async (tx) => {
        const app = await findApplication(tx, applicationId);
        requireOwner(caller, app);
        const sku = await skuOf(tx, app, input.sku_id);
        const user = await tx.users.findById(input.user_id);
        if (user === null) throw new ApiError('UNKNOWN_USER');
        const guildId = await purchaseGuild(tx, sku, input.guild_id);
        const owner = { userId: user.id, guildId };
        const now = clock.now();
        if (sku.type !== SkuTypes.CONSUMABLE)
          await refuseSecond(tx, { applicationId: app.id, skuId: sku.id, owner, nowMs: now });
        const base = {
          applicationId: app.id,
          skuId: sku.id,
          ...owner,
          consumed: false,
          deleted: false,
          createdAt: now,
          updatedAt: now,
        };
        if (sku.type !== SkuTypes.SUBSCRIPTION) {
          const entitlement: EntitlementRecord = {
            ...base,
            id: ids(),
            type: EntitlementTypes.TEST_MODE_PURCHASE,
            startsAt: now,
            endsAt: null,
            subscriptionId: null,
          };
          await tx.entitlements.create(entitlement);
          await announceEntitlement(tx, deps, { type: 'ENTITLEMENT_CREATE', app, entitlement });
          return { entitlement: serializeEntitlement(entitlement), subscription: null };
        }
        const subscription: SubscriptionRecord = {
          id: ids(),
          applicationId: app.id,
          skuId: sku.id,
          ...owner,
          renewalSkuIds: [sku.id],
          currentPeriodStart: now,
          currentPeriodEnd: now + (input.period_days ?? DEFAULT_PERIOD_DAYS) * DAY_MS,
          status: SubscriptionStatuses.ACTIVE,
          canceledAt: null,
          country: null,
          createdAt: now,
          updatedAt: now,
        };
        await tx.subscriptions.create(subscription);
        const entitlement: EntitlementRecord = {
          ...base,
          id: ids(),
          type: EntitlementTypes.APPLICATION_SUBSCRIPTION,
          startsAt: now,
          endsAt: null,
          subscriptionId: subscription.id,
        };
        await tx.entitlements.create(entitlement);
        await announceEntitlement(tx, deps, { type: 'ENTITLEMENT_CREATE', app, entitlement });
        await announceSubscription(tx, { type: 'SUBSCRIPTION_CREATE', app, subscription });
        return {
          entitlement: serializeEntitlement(entitlement),
          subscription: serializeSubscription(subscription, [entitlement.id]),
        };
      });
    },
  };
}

/** The guild of a purchase: only a guild subscription SKU is bought for a guild, and needs one. */
async function purchaseGuild(
  tx: Repositories,
  sku: SkuRecord,
  guildId: string | undefined,
): Promise<string | null> {
  const forGuilds = (sku.flags & SkuFlags.GUILD_SUBSCRIPTION) !== 0;
  if (!forGuilds) {
    if (guildId !== undefined) {
      throw invalidField(
        ['guild_id'],
        'SKU_NOT_FOR_GUILDS',
        'This SKU is not a guild subscription.',
      );
    }
    return null;
  }
  if (guildId === undefined) {
    throw invalidField(['guild_id'], 'BASE_TYPE_REQUIRED', 'A guild subscription needs a guild.');
  }
  const guild = await tx.guilds.findById(guildId);
  if (guild === null) throw new ApiError('UNKNOWN_GUILD');
  return guild.id;
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
