/** @module Monetization records to wire: SKUs, entitlements, subscriptions. */
import type { APIEntitlement, APISKU, APISubscription } from 'discord-api-types/v10';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from '../../storage/index.js';
import type { WireShape } from '../wireShape.js';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function serializeSku(sku: SkuRecord) {
  return {
    id: sku.id,
    type: sku.type,
    application_id: sku.applicationId,
    name: sku.name,
    slug: sku.slug,
    flags: sku.flags,
  } satisfies WireShape<APISKU>;
}

/** An entitlement; `guild_id` only on a guild's, `consumed` always. */
export function serializeEntitlement(entitlement: EntitlementRecord) {
  return {
    id: entitlement.id,
    sku_id: entitlement.skuId,
    application_id: entitlement.applicationId,
    user_id: entitlement.userId,
    ...(entitlement.guildId === null ? {} : { guild_id: entitlement.guildId }),
    type: entitlement.type,
    deleted: entitlement.deleted,
    starts_at: isoOrNull(entitlement.startsAt),
    ends_at: isoOrNull(entitlement.endsAt),
    consumed: entitlement.consumed,
  } satisfies WireShape<APIEntitlement>;
}
export type EntitlementWire = ReturnType<typeof serializeEntitlement>;

export function serializeSubscription(
  subscription: SubscriptionRecord,
  entitlementIds: readonly string[],
) {
  return {
    id: subscription.id,
    user_id: subscription.userId,
    sku_ids: [subscription.skuId],
    entitlement_ids: entitlementIds,
    renewal_sku_ids: subscription.renewalSkuIds,
    current_period_start: iso(subscription.currentPeriodStart),
    current_period_end: iso(subscription.currentPeriodEnd),
    status: subscription.status,
    canceled_at: isoOrNull(subscription.canceledAt),
    ...(subscription.country === null ? {} : { country: subscription.country }),
  } satisfies WireShape<APISubscription>;
}
export type SubscriptionWire = ReturnType<typeof serializeSubscription>;
