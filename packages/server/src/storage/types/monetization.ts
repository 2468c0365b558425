/**
 * Monetization (migration 0031): the SKUs an application sells, its users' subscriptions and the
 * entitlements they hold (docs/monetization.md).
 */

/** SKU types: 2 durable, 3 consumable, 5 subscription, 6 the subscription's group. */
export const SkuTypes = {
  DURABLE: 2,
  CONSUMABLE: 3,
  SUBSCRIPTION: 5,
  SUBSCRIPTION_GROUP: 6,
} as const;
export type SkuType = (typeof SkuTypes)[keyof typeof SkuTypes];

/** SKU flags: AVAILABLE 1<<2, GUILD_SUBSCRIPTION 1<<7, USER_SUBSCRIPTION 1<<8. */
export const SkuFlags = {
  AVAILABLE: 1 << 2,
  GUILD_SUBSCRIPTION: 1 << 7,
  USER_SUBSCRIPTION: 1 << 8,
} as const;

/** Entitlement types Guildhall grants (the platform's list; the others need real payments). */
export const EntitlementTypes = {
  PURCHASE: 1,
  DEVELOPER_GIFT: 3,
  TEST_MODE_PURCHASE: 4,
  APPLICATION_SUBSCRIPTION: 8,
} as const;

/** Subscription statuses: 0 active, 1 inactive, 2 ending (canceled, runs to its period's end). */
export const SubscriptionStatuses = { ACTIVE: 0, INACTIVE: 1, ENDING: 2 } as const;
export type SubscriptionStatus = (typeof SubscriptionStatuses)[keyof typeof SubscriptionStatuses];

export interface SkuRecord {
  id: string;
  applicationId: string;
  type: number;
  name: string;
  slug: string;
  flags: number;
  createdAt: number;
}

export type SkuPatch = Partial<Pick<SkuRecord, 'name' | 'slug' | 'flags'>>;

export interface SkuRepository {
  listByApplication(applicationId: string): Promise<SkuRecord[]>;
  findById(id: string): Promise<SkuRecord | null>;
  /** Inserts; a StorageConflictError when the application has a SKU with that slug. */
  create(sku: SkuRecord): Promise<void>;
  /** Updates and returns the SKU (null when gone); a StorageConflictError on a taken slug. */
  update(id: string, patch: SkuPatch): Promise<SkuRecord | null>;
}

export interface EntitlementRecord {
  id: string;
  applicationId: string;
  skuId: string;
  /** The user it is for, or who bought it for its guild. */
  userId: string;
  /** The guild it is for (a guild subscription), else null. */
  guildId: string | null;
  type: number;
  startsAt: number | null;
  endsAt: number | null;
  consumed: boolean;
  deleted: boolean;
  subscriptionId: string | null;
  createdAt: number;
  updatedAt: number;
}

export type EntitlementPatch = Partial<
  Pick<EntitlementRecord, 'startsAt' | 'endsAt' | 'consumed' | 'deleted'>
> & { updatedAt: number };

/** The filters of a listing (GET /applications/{id}/entitlements and the user's own). */
export interface EntitlementQuery {
  applicationId: string;
  userId?: string;
  guildId?: string;
  skuIds?: readonly string[];
  /** Ids below this, newest first. */
  before?: string;
  /** Ids above this, oldest first (wins over `before` for the order). */
  after?: string;
  limit: number;
  /** Leave out entitlements whose `endsAt` is at or before this time. */
  endedBefore?: number;
  excludeDeleted: boolean;
  excludeConsumed?: boolean;
  /** Only those in force at this time: started, not ended, not deleted, not consumed. */
  activeAt?: number;
}

export interface EntitlementRepository {
  list(query: EntitlementQuery): Promise<EntitlementRecord[]>;
  findById(id: string): Promise<EntitlementRecord | null>;
  create(entitlement: EntitlementRecord): Promise<void>;
  update(id: string, patch: EntitlementPatch): Promise<EntitlementRecord | null>;
  /** The entitlements granted for these subscriptions. */
  listBySubscriptions(subscriptionIds: readonly string[]): Promise<EntitlementRecord[]>;
  /**
   * What a user may use of an application at a time, as interactions carry it: the user's own
   * entitlements and, in a guild, the guild's; in force (started, not ended, not deleted or
   * consumed).
   */
  listInForce(
    applicationId: string,
    owner: { userId: string; guildId: string | null },
    nowMs: number,
  ): Promise<EntitlementRecord[]>;
}

export interface SubscriptionRecord {
  id: string;
  applicationId: string;
  skuId: string;
  userId: string;
  guildId: string | null;
  renewalSkuIds: string[] | null;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  status: number;
  canceledAt: number | null;
  country: string | null;
  createdAt: number;
  updatedAt: number;
}

export type SubscriptionPatch = Partial<
  Pick<
    SubscriptionRecord,
    'renewalSkuIds' | 'currentPeriodStart' | 'currentPeriodEnd' | 'status' | 'canceledAt'
  >
> & { updatedAt: number };

export interface SubscriptionRepository {
  /** A SKU's subscriptions, newest first below `before` or oldest first above `after`. */
  listBySku(query: {
    skuId: string;
    userId?: string;
    before?: string;
    after?: string;
    limit: number;
  }): Promise<SubscriptionRecord[]>;
  findById(id: string): Promise<SubscriptionRecord | null>;
  create(subscription: SubscriptionRecord): Promise<void>;
  update(id: string, patch: SubscriptionPatch): Promise<SubscriptionRecord | null>;
  delete(id: string): Promise<boolean>;
}
