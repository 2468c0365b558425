/**
 * The developer's steps of a test subscription's life (docs/monetization.md#test-purchases):
 * cancel, resume, renew and end, each saved with its entitlement's end and announced; and its
 * removal.
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import {
  SubscriptionStatuses,
  type ApplicationRecord,
  type Repositories,
  type SubscriptionRecord,
} from '../../storage/index.js';
import { findApplication, requireOwner, type Caller } from './access.js';
import { announceEntitlement, announceSubscription } from './events.js';
import type { SubscriptionActionInput } from './schemas.js';
import { serializeSubscription } from './serialize.js';
import type { MonetizationDeps } from './service.js';

/** Subscriptions as the wire shows them, each with the ids of its entitlements. */
export async function withEntitlements(repos: Repositories, subscriptions: SubscriptionRecord[]) {
  const entitlements = await repos.entitlements.listBySubscriptions(subscriptions.map((s) => s.id));
  return subscriptions.map((s) =>
    serializeSubscription(
      s,
      entitlements.filter((e) => e.subscriptionId === s.id).map((e) => e.id),
    ),
  );
}

const periodOf = (s: SubscriptionRecord) => s.currentPeriodEnd - s.currentPeriodStart;

export function createSubscriptionSteps(deps: MonetizationDeps) {
  const { storage, clock } = deps;

  /** Saves a subscription's change and announces it (and its entitlement's, when it changed). */
  const apply = async (
    tx: Repositories,
    target: { app: ApplicationRecord; subscription: SubscriptionRecord },
    change: {
      subscription: Omit<Parameters<Repositories['subscriptions']['update']>[1], 'updatedAt'>;
      endsAt?: number | null;
    },
  ) => {
    const { app, subscription } = target;
    const now = clock.now();
    const updated = await tx.subscriptions.update(subscription.id, {
      ...change.subscription,
      updatedAt: now,
    });
    if (updated === null) throw new ApiError('SUBSCRIPTION_NOT_FOUND');
    if (change.endsAt !== undefined) {
      for (const entitlement of await tx.entitlements.listBySubscriptions([subscription.id])) {
        if (entitlement.deleted || entitlement.endsAt === change.endsAt) continue;
        const changed = await tx.entitlements.update(entitlement.id, {
          endsAt: change.endsAt,
          updatedAt: now,
        });
        if (changed !== null) {
          await announceEntitlement(tx, deps, {
            type: 'ENTITLEMENT_UPDATE',
            app,
            entitlement: changed,
          });
        }
      }
    }
    await announceSubscription(tx, { type: 'SUBSCRIPTION_UPDATE', app, subscription: updated });
    return updated;
  };

  const ownSubscription = async (
    repos: Repositories,
    caller: Caller,
    where: { applicationId: string; subscriptionId: string },
  ) => {
    const { applicationId, subscriptionId } = where;
    const app = await findApplication(repos, applicationId);
    requireOwner(caller, app);
    const subscription = isSnowflake(subscriptionId)
      ? await repos.subscriptions.findById(subscriptionId)
      : null;
    if (subscription?.applicationId !== app.id) throw new ApiError('SUBSCRIPTION_NOT_FOUND');
    return { app, subscription };
  };

  return {
    /**
     * PATCH /applications/{id}/subscriptions/{subscription_id}: one step of the subscription's
     * life. cancel: ACTIVE → ENDING with canceled_at, the entitlement ends with the period.
     * resume: ENDING → ACTIVE. renew: the period ends; an ACTIVE one starts its next period, an
     * ENDING one becomes INACTIVE. end: INACTIVE now, the entitlement ends now.
     */
    async act(
      caller: Caller,
      where: { applicationId: string; subscriptionId: string },
      input: SubscriptionActionInput,
    ) {
      const { applicationId, subscriptionId } = where;
      return storage.transaction(async (tx) => {
        const { app, subscription } = await ownSubscription(tx, caller, {
          applicationId,
          subscriptionId,
        });
        const now = clock.now();
        const { status } = subscription;
        const refuse = (why: string) =>
          invalidField(['action'], 'SUBSCRIPTION_STATUS_INVALID', why);
        const renewal =
          input.renewal_sku_ids === undefined ? {} : { renewalSkuIds: input.renewal_sku_ids };
        let updated: SubscriptionRecord;
        switch (input.action) {
          case 'cancel':
            if (status !== SubscriptionStatuses.ACTIVE)
              throw refuse('Only an active subscription can be canceled.');
            updated = await apply(
              tx,
              { app, subscription },
              {
                subscription: {
                  status: SubscriptionStatuses.ENDING,
                  canceledAt: now,
                  renewalSkuIds: null,
                },
                endsAt: subscription.currentPeriodEnd,
              },
            );
            break;
          case 'resume':
            if (status !== SubscriptionStatuses.ENDING)
              throw refuse('Only an ending subscription can be resumed.');
            updated = await apply(
              tx,
              { app, subscription },
              {
                subscription: {
                  status: SubscriptionStatuses.ACTIVE,
                  canceledAt: null,
                  renewalSkuIds: [subscription.skuId],
                  ...renewal,
                },
                endsAt: null,
              },
            );
            break;
          case 'renew':
            if (status === SubscriptionStatuses.INACTIVE)
              throw refuse('An inactive subscription does not renew.');
            updated =
              status === SubscriptionStatuses.ACTIVE
                ? await apply(
                    tx,
                    { app, subscription },
                    {
                      subscription: {
                        currentPeriodStart: subscription.currentPeriodEnd,
                        currentPeriodEnd: subscription.currentPeriodEnd + periodOf(subscription),
                        ...renewal,
                      },
                    },
                  )
                : await apply(
                    tx,
                    { app, subscription },
                    {
                      subscription: { status: SubscriptionStatuses.INACTIVE },
                      endsAt: subscription.currentPeriodEnd,
                    },
                  );
            break;
          case 'end':
            if (status === SubscriptionStatuses.INACTIVE)
              throw refuse('The subscription has ended already.');
            updated = await apply(
              tx,
              { app, subscription },
              {
                subscription: {
                  status: SubscriptionStatuses.INACTIVE,
                  canceledAt: subscription.canceledAt ?? now,
                  renewalSkuIds: null,
                },
                endsAt: now,
              },
            );
            break;
        }
        const [wire] = await withEntitlements(tx, [updated]);
        return wire;
      });
    },

    /**
     * DELETE /applications/{id}/subscriptions/{subscription_id}: removes a test subscription
     * (SUBSCRIPTION_DELETE) and deletes its entitlements (ENTITLEMENT_DELETE).
     */
    async remove(caller: Caller, where: { applicationId: string; subscriptionId: string }) {
      const { applicationId, subscriptionId } = where;
      await storage.transaction(async (tx) => {
        const { app, subscription } = await ownSubscription(tx, caller, {
          applicationId,
          subscriptionId,
        });
        const now = clock.now();
        const entitlements = await tx.entitlements.listBySubscriptions([subscription.id]);
        // The event names its entitlements as they were; the rows stay, deleted.
        await announceSubscription(tx, { type: 'SUBSCRIPTION_DELETE', app, subscription });
        for (const entitlement of entitlements) {
          if (entitlement.deleted) continue;
          const changed = await tx.entitlements.update(entitlement.id, {
            deleted: true,
            updatedAt: now,
          });
          if (changed !== null) {
            await announceEntitlement(tx, deps, {
              type: 'ENTITLEMENT_DELETE',
              app,
              entitlement: changed,
            });
          }
        }
        await tx.subscriptions.delete(subscription.id);
      });
    },
  };
}
