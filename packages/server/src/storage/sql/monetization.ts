/** @module SKUs, subscriptions and entitlements (migration 0031). */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type {
  EntitlementPatch,
  EntitlementQuery,
  EntitlementRecord,
  EntitlementRepository,
  SkuRecord,
  SkuRepository,
  SubscriptionPatch,
  SubscriptionRecord,
  SubscriptionRepository,
} from '../types/monetization.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import type { EntitlementsTable, SkusTable, SubscriptionsTable } from './monetizationSchema.js';
import { bool, flag, id, idOrNull, int, intOrNull, jsonArray } from './rows.js';
import type { Database } from './schema.js';

function toSku(row: Selectable<SkusTable>): SkuRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    type: int(row.type),
    name: row.name,
    slug: row.slug,
    flags: int(row.flags),
    createdAt: int(row.created_at),
  };
}

function toEntitlement(row: Selectable<EntitlementsTable>): EntitlementRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    skuId: id(row.sku_id),
    userId: id(row.user_id),
    guildId: idOrNull(row.guild_id),
    type: int(row.type),
    startsAt: intOrNull(row.starts_at),
    endsAt: intOrNull(row.ends_at),
    consumed: bool(row.consumed),
    deleted: bool(row.deleted),
    subscriptionId: idOrNull(row.subscription_id),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

function toSubscription(row: Selectable<SubscriptionsTable>): SubscriptionRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    skuId: id(row.sku_id),
    userId: id(row.user_id),
    guildId: idOrNull(row.guild_id),
    renewalSkuIds: row.renewal_sku_ids === null ? null : jsonArray(row.renewal_sku_ids),
    currentPeriodStart: int(row.current_period_start),
    currentPeriodEnd: int(row.current_period_end),
    status: int(row.status),
    canceledAt: intOrNull(row.canceled_at),
    country: row.country,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function createSkuRepository(db: Kysely<Database>): SkuRepository {
  const findById = async (skuId: string) => {
    const row = await db.selectFrom('skus').selectAll().where('id', '=', skuId).executeTakeFirst();
    return row ? toSku(row) : null;
  };
  return {
    async listByApplication(applicationId) {
      const rows = await db
        .selectFrom('skus')
        .selectAll()
        .where('application_id', '=', applicationId)
        .orderBy('id')
        .execute();
      return rows.map(toSku);
    },
    findById,
    async create(sku) {
      await conflictsAsStorageErrors(
        db
          .insertInto('skus')
          .values({
            id: sku.id,
            application_id: sku.applicationId,
            type: sku.type,
            name: sku.name,
            slug: sku.slug,
            flags: sku.flags,
            created_at: sku.createdAt,
          })
          .execute(),
      );
    },
    async update(skuId, patch) {
      const values = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.slug === undefined ? {} : { slug: patch.slug }),
        ...(patch.flags === undefined ? {} : { flags: patch.flags }),
      };
      if (Object.keys(values).length > 0) {
        await conflictsAsStorageErrors(
          db.updateTable('skus').set(values).where('id', '=', skuId).execute(),
        );
      }
      return findById(skuId);
    },
  };
}

type EntitlementSelect = SelectQueryBuilder<
  Database,
  'entitlements',
  Selectable<EntitlementsTable>
>;

/** The filters of a listing, without its page. */
function filtered(query: EntitlementSelect, filters: EntitlementQuery): EntitlementSelect {
  let q = query.where('application_id', '=', filters.applicationId);
  if (filters.userId !== undefined) q = q.where('user_id', '=', filters.userId);
  if (filters.guildId !== undefined) q = q.where('guild_id', '=', filters.guildId);
  if (filters.skuIds !== undefined) {
    q =
      filters.skuIds.length === 0
        ? q.where('id', '<', '0')
        : q.where('sku_id', 'in', [...filters.skuIds]);
  }
  if (filters.excludeDeleted) q = q.where('deleted', '=', 0);
  if (filters.excludeConsumed === true) q = q.where('consumed', '=', 0);
  const ended = filters.endedBefore;
  if (ended !== undefined)
    q = q.where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', ended)]));
  const at = filters.activeAt;
  if (at !== undefined) q = inForce(q, at);
  return q;
}

/** Started (or open-ended), not ended, not deleted, not consumed at `nowMs`. */
function inForce(query: EntitlementSelect, nowMs: number): EntitlementSelect {
  return query
    .where('deleted', '=', 0)
    .where('consumed', '=', 0)
    .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', nowMs)]))
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', nowMs)]));
}

export function createEntitlementRepository(db: Kysely<Database>): EntitlementRepository {
  const all = () => db.selectFrom('entitlements').selectAll();
  const findById = async (entitlementId: string) => {
    const row = await all().where('id', '=', entitlementId).executeTakeFirst();
    return row ? toEntitlement(row) : null;
  };
  return {
    async list(query) {
      let q = filtered(all(), query);
      if (query.after !== undefined) {
        q = q.where('id', '>', query.after);
        if (query.before !== undefined) q = q.where('id', '<', query.before);
        q = q.orderBy('id', 'asc');
      } else {
        if (query.before !== undefined) q = q.where('id', '<', query.before);
        q = q.orderBy('id', 'desc');
      }
      const rows = await q.limit(query.limit).execute();
      return rows.map(toEntitlement);
    },
    findById,
    async create(e) {
      await db
        .insertInto('entitlements')
        .values({
          id: e.id,
          application_id: e.applicationId,
          sku_id: e.skuId,
          user_id: e.userId,
          guild_id: e.guildId,
          type: e.type,
          starts_at: e.startsAt,
          ends_at: e.endsAt,
          consumed: flag(e.consumed),
          deleted: flag(e.deleted),
          subscription_id: e.subscriptionId,
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .execute();
    },
    async update(entitlementId, patch: EntitlementPatch) {
      await db
        .updateTable('entitlements')
        .set({
          ...(patch.startsAt === undefined ? {} : { starts_at: patch.startsAt }),
          ...(patch.endsAt === undefined ? {} : { ends_at: patch.endsAt }),
          ...(patch.consumed === undefined ? {} : { consumed: flag(patch.consumed) }),
          ...(patch.deleted === undefined ? {} : { deleted: flag(patch.deleted) }),
          updated_at: patch.updatedAt,
        })
        .where('id', '=', entitlementId)
        .execute();
      return findById(entitlementId);
    },
    async listBySubscriptions(subscriptionIds) {
      if (subscriptionIds.length === 0) return [];
      const rows = await all()
        .where('subscription_id', 'in', [...subscriptionIds])
        .orderBy('id')
        .execute();
      return rows.map(toEntitlement);
    },
    async listInForce(applicationId, owner, nowMs) {
      const rows = await inForce(all().where('application_id', '=', applicationId), nowMs)
        .where((eb) =>
          owner.guildId === null
            ? eb.and([eb('user_id', '=', owner.userId), eb('guild_id', 'is', null)])
            : eb.or([
                eb.and([eb('user_id', '=', owner.userId), eb('guild_id', 'is', null)]),
                eb('guild_id', '=', owner.guildId),
              ]),
        )
        .orderBy('id')
        .execute();
      return rows.map(toEntitlement);
    },
  };
}

export function createSubscriptionRepository(db: Kysely<Database>): SubscriptionRepository {
  const findById = async (subscriptionId: string) => {
    const row = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', subscriptionId)
      .executeTakeFirst();
    return row ? toSubscription(row) : null;
  };
  return {
    async listBySku(query) {
      let q = db.selectFrom('subscriptions').selectAll().where('sku_id', '=', query.skuId);
      if (query.userId !== undefined) q = q.where('user_id', '=', query.userId);
      if (query.after !== undefined) {
        q = q.where('id', '>', query.after);
        if (query.before !== undefined) q = q.where('id', '<', query.before);
        q = q.orderBy('id', 'asc');
      } else {
        if (query.before !== undefined) q = q.where('id', '<', query.before);
        q = q.orderBy('id', 'desc');
      }
      const rows = await q.limit(query.limit).execute();
      return rows.map(toSubscription);
    },
    findById,
    async create(s) {
      await db
        .insertInto('subscriptions')
        .values({
          id: s.id,
          application_id: s.applicationId,
          sku_id: s.skuId,
          user_id: s.userId,
          guild_id: s.guildId,
          renewal_sku_ids: s.renewalSkuIds === null ? null : JSON.stringify(s.renewalSkuIds),
          current_period_start: s.currentPeriodStart,
          current_period_end: s.currentPeriodEnd,
          status: s.status,
          canceled_at: s.canceledAt,
          country: s.country,
          created_at: s.createdAt,
          updated_at: s.updatedAt,
        })
        .execute();
    },
    async update(subscriptionId, patch: SubscriptionPatch) {
      await db
        .updateTable('subscriptions')
        .set({
          ...(patch.renewalSkuIds === undefined
            ? {}
            : {
                renewal_sku_ids:
                  patch.renewalSkuIds === null ? null : JSON.stringify(patch.renewalSkuIds),
              }),
          ...(patch.currentPeriodStart === undefined
            ? {}
            : { current_period_start: patch.currentPeriodStart }),
          ...(patch.currentPeriodEnd === undefined
            ? {}
            : { current_period_end: patch.currentPeriodEnd }),
          ...(patch.status === undefined ? {} : { status: patch.status }),
          ...(patch.canceledAt === undefined ? {} : { canceled_at: patch.canceledAt }),
          updated_at: patch.updatedAt,
        })
        .where('id', '=', subscriptionId)
        .execute();
      return findById(subscriptionId);
    },
    async delete(subscriptionId) {
      const result = await db
        .deleteFrom('subscriptions')
        .where('id', '=', subscriptionId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
