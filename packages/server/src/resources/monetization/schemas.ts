/** @module The edge of monetization: SKU bodies, entitlement and subscription queries (docs/monetization.md). */
import { z } from 'zod';
import { QueryBoolean, Snowflake, queryInt } from '../../http/schemas.js';
import { SkuFlags, SkuTypes } from '../../storage/index.js';

/** The most SKU ids one listing may filter by, and the most rows a page holds. */
export const MAX_SKU_IDS = 100;
export const MAX_PAGE = 100;
/** The longest SKU name and slug. */
export const MAX_SKU_NAME_LENGTH = 100;
export const MAX_SKU_SLUG_LENGTH = 100;
/** The flags a SKU may carry. */
export const SKU_FLAG_MASK =
  SkuFlags.AVAILABLE | SkuFlags.GUILD_SUBSCRIPTION | SkuFlags.USER_SUBSCRIPTION;

const SkuType = z.union([
  z.literal(SkuTypes.DURABLE),
  z.literal(SkuTypes.CONSUMABLE),
  z.literal(SkuTypes.SUBSCRIPTION),
  z.literal(SkuTypes.SUBSCRIPTION_GROUP),
]);

const SkuFlagBits = z
  .number()
  .int()
  .min(0)
  .refine((value) => (value & ~SKU_FLAG_MASK) === 0, {
    message: 'Unknown SKU flags.',
    params: { code: 'SKU_FLAGS_INVALID' },
  });

const Slug = z
  .string()
  .min(1)
  .max(MAX_SKU_SLUG_LENGTH)
  .regex(/^[a-z0-9][a-z0-9-]*$/, {
    message: 'A slug is lower-case letters, digits and dashes.',
  });

const Name = z.string().trim().min(1).max(MAX_SKU_NAME_LENGTH);

/** POST /applications/{id}/skus (the owner's session; Guildhall's own route). */
export const CreateSkuBody = z.strictObject({
  name: Name,
  type: SkuType,
  slug: Slug.optional(),
  flags: SkuFlagBits.optional(),
});
export type CreateSkuInput = z.output<typeof CreateSkuBody>;

/** PATCH /applications/{id}/skus/{sku_id}: the type never changes. */
export const EditSkuBody = z.strictObject({
  name: Name.optional(),
  slug: Slug.optional(),
  flags: SkuFlagBits.optional(),
});
export type EditSkuInput = z.output<typeof EditSkuBody>;

export const ApplicationParams = z.object({ application_id: z.string() });
export const SkuParams = z.object({ application_id: z.string(), sku_id: z.string() });
export const EntitlementParams = z.object({
  application_id: z.string(),
  entitlement_id: z.string(),
});
export const SubscriptionParams = z.object({ sku_id: z.string(), subscription_id: z.string() });
export const SkuIdParams = z.object({ sku_id: z.string() });

/** `sku_ids`: one comma-separated value or the key repeated; at most 100 snowflakes. */
const SkuIds = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  )
  .pipe(z.array(Snowflake).max(MAX_SKU_IDS));

/** GET /applications/{id}/entitlements. */
export const ListEntitlementsQuery = z.object({
  user_id: Snowflake.optional(),
  sku_ids: SkuIds.optional(),
  guild_id: Snowflake.optional(),
  before: Snowflake.optional(),
  after: Snowflake.optional(),
  limit: queryInt(1, MAX_PAGE).default(MAX_PAGE),
  exclude_ended: QueryBoolean.default(false),
  exclude_deleted: QueryBoolean.default(true),
  only_active: QueryBoolean.default(false),
});
export type ListEntitlementsInput = z.output<typeof ListEntitlementsQuery>;

/** GET /users/@me/applications/{id}/entitlements. */
export const MyEntitlementsQuery = z.object({
  sku_ids: SkuIds.optional(),
  exclude_consumed: QueryBoolean.default(true),
});

/** POST /applications/{id}/entitlements: a test entitlement (owner_type 1 guild, 2 user). */
export const EntitlementOwnerTypes = { GUILD: 1, USER: 2 } as const;
export const CreateTestEntitlementBody = z.strictObject({
  sku_id: Snowflake,
  owner_id: Snowflake,
  owner_type: z.union([
    z.literal(EntitlementOwnerTypes.GUILD),
    z.literal(EntitlementOwnerTypes.USER),
  ]),
});
export type CreateTestEntitlementInput = z.output<typeof CreateTestEntitlementBody>;

/** GET /skus/{id}/subscriptions. */
export const ListSubscriptionsQuery = z.object({
  before: Snowflake.optional(),
  after: Snowflake.optional(),
  limit: queryInt(1, MAX_PAGE).default(50),
  user_id: Snowflake.optional(),
});
export type ListSubscriptionsInput = z.output<typeof ListSubscriptionsQuery>;

export const GetSubscriptionQuery = z.object({ user_id: Snowflake.optional() });

/**
 * POST /applications/{id}/test-purchases (Guildhall's test purchase flow): grants a user, or a
 * guild through a user, a SKU as a purchase would: a one-time SKU an entitlement, a subscription
 * SKU a subscription with its entitlement.
 */
export const TestPurchaseBody = z.strictObject({
  sku_id: Snowflake,
  user_id: Snowflake,
  guild_id: Snowflake.optional(),
  /** A subscription's period in days (default 30). */
  period_days: z.number().int().min(1).max(366).optional(),
});
export type TestPurchaseInput = z.output<typeof TestPurchaseBody>;

/** What a developer may do to a test subscription (PATCH …/subscriptions/{id}). */
export const SUBSCRIPTION_ACTIONS = ['cancel', 'resume', 'renew', 'end'] as const;
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number];
export const SubscriptionActionBody = z.strictObject({
  action: z.enum(SUBSCRIPTION_ACTIONS),
  renewal_sku_ids: z.array(Snowflake).max(MAX_SKU_IDS).nullable().optional(),
});
export type SubscriptionActionInput = z.output<typeof SubscriptionActionBody>;

export const AppSubscriptionParams = z.object({
  application_id: z.string(),
  subscription_id: z.string(),
});
