/**
 * SKUs and entitlements: the SKUs an application's owner defines, the entitlements its bot (or a
 * user's OAuth2 token) reads and consumes, and the test entitlements a developer grants and
 * deletes (docs/monetization.md). Subscriptions and the test purchase flow are subscriptions.ts.
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import {
  EntitlementTypes,
  SkuFlags,
  SkuTypes,
  StorageConflictError,
  type ApplicationRecord,
  type EntitlementRecord,
  type Repositories,
  type SkuRecord,
} from '../../storage/index.js';
import type { ServiceDeps, SocialWebhookEvents } from '../deps.js';
import {
  entitlementReader,
  findApplication,
  requireDeveloper,
  requireOwner,
  type Caller,
} from './access.js';
import { announceEntitlement } from './events.js';
import {
  EntitlementOwnerTypes,
  MAX_SKU_SLUG_LENGTH,
  type CreateSkuInput,
  type CreateTestEntitlementInput,
  type EditSkuInput,
  type ListEntitlementsInput,
} from './schemas.js';
import { serializeEntitlement, serializeSku } from './serialize.js';

export interface MonetizationDeps extends ServiceDeps {
  webhookEvents: SocialWebhookEvents;
}

const SUBSCRIPTION_OWNER_FLAGS = SkuFlags.GUILD_SUBSCRIPTION | SkuFlags.USER_SUBSCRIPTION;

/** A slug from a name: lower case, runs of other characters become one dash. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SKU_SLUG_LENGTH);
  return slug === '' ? 'sku' : slug;
}

/**
 * The flag rules: a subscription is for guilds or for users (exactly one of the two flags);
 * the other types carry neither.
 */
function checkFlags(type: number, flags: number): void {
  const owners = flags & SUBSCRIPTION_OWNER_FLAGS;
  if (type === SkuTypes.SUBSCRIPTION || type === SkuTypes.SUBSCRIPTION_GROUP) {
    if (owners === SUBSCRIPTION_OWNER_FLAGS || owners === 0) {
      throw invalidField(
        ['flags'],
        'SKU_FLAGS_INVALID',
        'A subscription SKU has exactly one of GUILD_SUBSCRIPTION (128) and USER_SUBSCRIPTION (256).',
      );
    }
  } else if (owners !== 0) {
    throw invalidField(
      ['flags'],
      'SKU_FLAGS_INVALID',
      'Only subscription SKUs carry GUILD_SUBSCRIPTION or USER_SUBSCRIPTION.',
    );
  }
}

function defaultFlags(type: number): number {
  return type === SkuTypes.SUBSCRIPTION || type === SkuTypes.SUBSCRIPTION_GROUP
    ? SkuFlags.AVAILABLE | SkuFlags.USER_SUBSCRIPTION
    : SkuFlags.AVAILABLE;
}

const slugTaken = () =>
  invalidField(['slug'], 'SKU_SLUG_TAKEN', 'The application has a SKU with this slug already.');

/** A SKU of the application, else 10027. */
export async function skuOf(
  repos: Repositories,
  app: ApplicationRecord,
  skuId: string,
): Promise<SkuRecord> {
  const sku = isSnowflake(skuId) ? await repos.skus.findById(skuId) : null;
  if (sku?.applicationId !== app.id) throw new ApiError('UNKNOWN_SKU');
  return sku;
}

/** An entitlement of the application a reader may see, else 10029. */
function visibleEntitlement(
  entitlement: EntitlementRecord | null,
  app: ApplicationRecord,
  reader: { onlyUserId?: string },
): EntitlementRecord {
  if (
    entitlement?.applicationId !== app.id ||
    (reader.onlyUserId !== undefined && entitlement.userId !== reader.onlyUserId)
  ) {
    throw new ApiError('UNKNOWN_ENTITLEMENT');
  }
  return entitlement;
}

export function createMonetizationService(deps: MonetizationDeps) {
  const { storage, clock, ids } = deps;

  const findEntitlement = async (repos: Repositories, entitlementId: string) =>
    isSnowflake(entitlementId) ? repos.entitlements.findById(entitlementId) : null;

  return {
    /** GET /applications/{id}/skus: the application's bot or owner. */
    /**
     * GET /applications/{id}/skus: every SKU for the bot, the owner and the operator; the SKUs
     * on sale (AVAILABLE) for any other person's session, as the client's store shows them.
     */
    async listSkus(caller: Caller, applicationId: string) {
      const app = await findApplication(storage, applicationId);
      const skus = await storage.skus.listByApplication(app.id);
      if (caller.kind === 'session' && caller.user.id !== app.ownerId) {
        return skus.filter((sku) => (sku.flags & SkuFlags.AVAILABLE) !== 0).map(serializeSku);
      }
      requireDeveloper(caller, app);
      return skus.map(serializeSku);
    },

    /** POST /applications/{id}/skus: the owner (portal) or the operator (CLI). */
    async createSku(caller: Caller, applicationId: string, input: CreateSkuInput) {
      const app = await findApplication(storage, applicationId);
      requireOwner(caller, app);
      const flags = input.flags ?? defaultFlags(input.type);
      checkFlags(input.type, flags);
      const sku: SkuRecord = {
        id: ids(),
        applicationId: app.id,
        type: input.type,
        name: input.name,
        slug: input.slug ?? slugOf(input.name),
        flags,
        createdAt: clock.now(),
      };
      try {
        await storage.skus.create(sku);
      } catch (err) {
        if (err instanceof StorageConflictError) throw slugTaken();
        throw err;
      }
      return serializeSku(sku);
    },

    /** PATCH /applications/{id}/skus/{sku_id}: name, slug, flags (the type stays). */
    async editSku(
      caller: Caller,
      where: { applicationId: string; skuId: string },
      input: EditSkuInput,
    ) {
      const { applicationId, skuId } = where;
      const app = await findApplication(storage, applicationId);
      requireOwner(caller, app);
      const sku = await skuOf(storage, app, skuId);
      if (input.flags !== undefined) checkFlags(sku.type, input.flags);
      try {
        const updated = await storage.skus.update(sku.id, input);
        if (updated === null) throw new ApiError('UNKNOWN_SKU');
        return serializeSku(updated);
      } catch (err) {
        if (err instanceof StorageConflictError) throw slugTaken();
        throw err;
      }
    },

    /** GET /applications/{id}/entitlements with every filter. */
    async listEntitlements(caller: Caller, applicationId: string, query: ListEntitlementsInput) {
      const app = await findApplication(storage, applicationId);
      const reader = entitlementReader(caller, app);
      if (
        reader.onlyUserId !== undefined &&
        query.user_id !== undefined &&
        query.user_id !== reader.onlyUserId
      ) {
        throw new ApiError('MISSING_ACCESS');
      }
      const userId = reader.onlyUserId ?? query.user_id;
      const now = clock.now();
      const rows = await storage.entitlements.list({
        applicationId: app.id,
        ...(userId === undefined ? {} : { userId }),
        ...(query.guild_id === undefined ? {} : { guildId: query.guild_id }),
        ...(query.sku_ids === undefined ? {} : { skuIds: query.sku_ids }),
        ...(query.before === undefined ? {} : { before: query.before }),
        ...(query.after === undefined ? {} : { after: query.after }),
        limit: query.limit,
        ...(query.exclude_ended ? { endedBefore: now } : {}),
        excludeDeleted: query.exclude_deleted,
        ...(query.only_active ? { activeAt: now } : {}),
      });
      return rows.map(serializeEntitlement);
    },

    /** GET /applications/{id}/entitlements/{entitlement_id}. */
    async getEntitlement(caller: Caller, applicationId: string, entitlementId: string) {
      const app = await findApplication(storage, applicationId);
      const reader = entitlementReader(caller, app);
      const found = await findEntitlement(storage, entitlementId);
      return serializeEntitlement(visibleEntitlement(found, app, reader));
    },

    /**
     * GET /users/@me/applications/{id}/entitlements: the caller's own, for a session or a token
     * of that application with `applications.entitlements` (50001 for another app's, 50026
     * without the scope).
     */
    async listMine(
      principal: Principal,
      applicationId: string,
      query: { sku_ids?: string[] | undefined; exclude_consumed: boolean },
    ) {
      const app = await findApplication(storage, applicationId);
      // A token reads as it does on the application's routes: its own app, with the scope.
      if (principal.kind === 'bearer') entitlementReader(principal, app);
      const rows = await storage.entitlements.list({
        applicationId: app.id,
        userId: principal.user.id,
        ...(query.sku_ids === undefined ? {} : { skuIds: query.sku_ids }),
        limit: Number.MAX_SAFE_INTEGER,
        excludeDeleted: true,
        excludeConsumed: query.exclude_consumed,
      });
      return rows.map(serializeEntitlement);
    },

    /**
     * POST …/entitlements/{id}/consume: a consumable's entitlement becomes consumed (an
     * ENTITLEMENT_UPDATE); consuming it again changes nothing.
     */
    async consume(caller: Caller, applicationId: string, entitlementId: string) {
      await storage.transaction(async (tx) => {
        const app = await findApplication(tx, applicationId);
        const reader = entitlementReader(caller, app);
        const entitlement = visibleEntitlement(
          await findEntitlement(tx, entitlementId),
          app,
          reader,
        );
        if (entitlement.deleted) throw new ApiError('UNKNOWN_ENTITLEMENT');
        const sku = await tx.skus.findById(entitlement.skuId);
        if (sku?.type !== SkuTypes.CONSUMABLE)
          throw new ApiError('ONLY_CONSUMABLE_SKUS_CONSUMABLE');
        if (entitlement.consumed) return;
        const updated = await tx.entitlements.update(entitlement.id, {
          consumed: true,
          updatedAt: clock.now(),
        });
        if (updated !== null) {
          await announceEntitlement(tx, deps, {
            type: 'ENTITLEMENT_UPDATE',
            app,
            entitlement: updated,
          });
        }
      });
    },

    /**
     * POST /applications/{id}/entitlements: a test entitlement (TEST_MODE_PURCHASE, no start or
     * end) of a SKU for a user, or for a guild (recorded as bought by the app's owner).
     */
    async createTestEntitlement(
      caller: Caller,
      applicationId: string,
      input: CreateTestEntitlementInput,
    ) {
      return storage.transaction(async (tx) => {
        const app = await findApplication(tx, applicationId);
        requireDeveloper(caller, app);
        const sku = await skuOf(tx, app, input.sku_id);
        let owner: { userId: string; guildId: string | null };
        if (input.owner_type === EntitlementOwnerTypes.USER) {
          const user = await tx.users.findById(input.owner_id);
          if (user === null) throw new ApiError('UNKNOWN_USER');
          owner = { userId: user.id, guildId: null };
        } else {
          const guild = await tx.guilds.findById(input.owner_id);
          if (guild === null) throw new ApiError('UNKNOWN_GUILD');
          owner = { userId: app.ownerId, guildId: guild.id };
        }
        const now = clock.now();
        if (sku.type !== SkuTypes.CONSUMABLE)
          await refuseSecond(tx, { applicationId: app.id, skuId: sku.id, owner, nowMs: now });
        const entitlement: EntitlementRecord = {
          id: ids(),
          applicationId: app.id,
          skuId: sku.id,
          ...owner,
          type: EntitlementTypes.TEST_MODE_PURCHASE,
          startsAt: null,
          endsAt: null,
          consumed: false,
          deleted: false,
          subscriptionId: null,
          createdAt: now,
          updatedAt: now,
        };
        await tx.entitlements.create(entitlement);
        await announceEntitlement(tx, deps, { type: 'ENTITLEMENT_CREATE', app, entitlement });
        return serializeEntitlement(entitlement);
      });
    },

    /** DELETE /applications/{id}/entitlements/{entitlement_id}: test entitlements only (40019). */
    async deleteTestEntitlement(caller: Caller, applicationId: string, entitlementId: string) {
      await storage.transaction(async (tx) => {
        const app = await findApplication(tx, applicationId);
        const reader = entitlementReader(caller, app);
        const entitlement = visibleEntitlement(
          await findEntitlement(tx, entitlementId),
          app,
          reader,
        );
        if (entitlement.deleted) throw new ApiError('UNKNOWN_ENTITLEMENT');
        if (entitlement.type !== EntitlementTypes.TEST_MODE_PURCHASE) {
          throw new ApiError('ONLY_SANDBOX_ENTITLEMENTS_DELETABLE');
        }
        const updated = await tx.entitlements.update(entitlement.id, {
          deleted: true,
          updatedAt: clock.now(),
        });
        if (updated !== null) {
          await announceEntitlement(tx, deps, {
            type: 'ENTITLEMENT_DELETE',
            app,
            entitlement: updated,
          });
        }
      });
    },
  };
}

/** A durable or subscription SKU is held once: a second grant in force is 40074. */
export async function refuseSecond(
  tx: Repositories,
  grant: {
    applicationId: string;
    skuId: string;
    owner: { userId: string; guildId: string | null };
    nowMs: number;
  },
): Promise<void> {
  const { applicationId, skuId, owner, nowMs } = grant;
  const held = await tx.entitlements.listInForce(applicationId, owner, nowMs);
  if (held.some((e) => e.skuId === skuId && e.guildId === owner.guildId)) {
    throw new ApiError('ENTITLEMENT_ALREADY_GRANTED');
  }
}

export type MonetizationService = ReturnType<typeof createMonetizationService>;
