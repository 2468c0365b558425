/**
 * The announcements of monetization changes: ENTITLEMENT_* and SUBSCRIPTION_* reach the
 * application's bot sessions after the commit (gateway), and ENTITLEMENT_* go into the durable
 * outbox as webhook events in the same transaction (docs/monetization.md#events).
 */
import { afterCommit } from '../../events/afterCommit.js';
import type {
  ApplicationRecord,
  EntitlementRecord,
  Repositories,
  SubscriptionRecord,
} from '../../storage/index.js';
import type { SocialWebhookEvents } from '../deps.js';
import {
  serializeEntitlement,
  serializeSubscription,
  type EntitlementWire,
  type SubscriptionWire,
} from './serialize.js';

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    ENTITLEMENT_CREATE: EntitlementWire;
    ENTITLEMENT_UPDATE: EntitlementWire;
    ENTITLEMENT_DELETE: EntitlementWire;
    SUBSCRIPTION_CREATE: SubscriptionWire;
    SUBSCRIPTION_UPDATE: SubscriptionWire;
    SUBSCRIPTION_DELETE: SubscriptionWire;
  }
}

export type EntitlementEvent = 'ENTITLEMENT_CREATE' | 'ENTITLEMENT_UPDATE' | 'ENTITLEMENT_DELETE';
export type SubscriptionEvent =
  'SUBSCRIPTION_CREATE' | 'SUBSCRIPTION_UPDATE' | 'SUBSCRIPTION_DELETE';

/** To the app's bot: shard 0 for a user's, the guild's shard for a guild's. */
function toBot(app: ApplicationRecord, guildId: string | null) {
  return app.botUserId === null
    ? null
    : { guildId: null, userIds: [app.botUserId], shard: { guildId } };
}

export async function announceEntitlement(
  tx: Repositories,
  deps: { webhookEvents: SocialWebhookEvents },
  event: { type: EntitlementEvent; app: ApplicationRecord; entitlement: EntitlementRecord },
): Promise<void> {
  const data = serializeEntitlement(event.entitlement);
  const target = toBot(event.app, event.entitlement.guildId);
  if (target !== null) afterCommit(tx, { type: event.type, ...target, data });
  await deps.webhookEvents.enqueue(tx, { applicationId: event.app.id, type: event.type, data });
}

export async function announceSubscription(
  tx: Repositories,
  event: { type: SubscriptionEvent; app: ApplicationRecord; subscription: SubscriptionRecord },
): Promise<void> {
  const target = toBot(event.app, event.subscription.guildId);
  if (target === null) return;
  const entitlements = await tx.entitlements.listBySubscriptions([event.subscription.id]);
  afterCommit(tx, {
    type: event.type,
    ...target,
    data: serializeSubscription(
      event.subscription,
      entitlements.map((e) => e.id),
    ),
  });
}
