/**
 * @module resources/monetization/commands: `guildhall sku …` and `guildhall subscription …`, the
 * operator's side of the SKU routes and of the test purchase flow (docs/monetization.md#cli).
 */
import type { AdminCommand } from '../../adminCommand.js';
import { UsageError, requireFlag } from '../../cliFlags.js';
import { parseInput } from '../../http/validate.js';
import { OPERATOR } from './access.js';
import type { MonetizationService } from './service.js';
import type { SubscriptionService } from './subscriptions.js';
import { CreateSkuBody, EditSkuBody, SubscriptionActionBody, TestPurchaseBody } from './schemas.js';

/** A flag holding an integer, when given. */
function intFlag(flags: Map<string, string>, name: string): number | undefined {
  const raw = flags.get(name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,10}$/.test(raw))
    throw new UsageError(`--${name} must be a whole number, got "${raw}".`);
  return Number(raw);
}

const SKU_TYPES: Record<string, number> = {
  durable: 2,
  consumable: 3,
  subscription: 5,
  'subscription-group': 6,
};

function skuType(raw: string): number {
  const type = SKU_TYPES[raw] ?? (/^\d$/.test(raw) ? Number(raw) : undefined);
  if (type === undefined) {
    throw new UsageError(`--type must be durable, consumable, subscription or subscription-group.`);
  }
  return type;
}

const defined = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

export const MONETIZATION_COMMANDS: AdminCommand<{
  monetization: MonetizationService;
  subscriptions: SubscriptionService;
}>[] = [
  {
    name: 'sku list',
    usage: 'guildhall sku list --app APPLICATION_ID',
    summary: "List an application's SKUs.",
    run(app, flags) {
      return app.services.monetization.listSkus(OPERATOR, requireFlag(flags, 'app', this.usage));
    },
  },
  {
    name: 'sku create',
    usage:
      'guildhall sku create --app APPLICATION_ID --name NAME --type durable|consumable|subscription|subscription-group [--slug SLUG] [--flags BITS]',
    summary:
      'Create a SKU (flags: 4 AVAILABLE, 128 GUILD_SUBSCRIPTION, 256 USER_SUBSCRIPTION; a subscription defaults to 260).',
    run(app, flags) {
      const usage = this.usage;
      const input = parseInput(
        CreateSkuBody,
        defined({
          name: requireFlag(flags, 'name', usage),
          type: skuType(requireFlag(flags, 'type', usage)),
          slug: flags.get('slug'),
          flags: intFlag(flags, 'flags'),
        }),
      );
      return app.services.monetization.createSku(OPERATOR, requireFlag(flags, 'app', usage), input);
    },
  },
  {
    name: 'sku edit',
    usage:
      'guildhall sku edit --app APPLICATION_ID --sku SKU_ID [--name NAME] [--slug SLUG] [--flags BITS]',
    summary: "Change a SKU's name, slug or flags (its type stays).",
    run(app, flags) {
      const usage = this.usage;
      const input = parseInput(
        EditSkuBody,
        defined({
          name: flags.get('name'),
          slug: flags.get('slug'),
          flags: intFlag(flags, 'flags'),
        }),
      );
      return app.services.monetization.editSku(
        OPERATOR,
        {
          applicationId: requireFlag(flags, 'app', usage),
          skuId: requireFlag(flags, 'sku', usage),
        },
        input,
      );
    },
  },
  {
    name: 'sku purchase',
    usage:
      'guildhall sku purchase --app APPLICATION_ID --sku SKU_ID --user USER_ID [--guild GUILD_ID] [--period-days DAYS]',
    summary:
      'Test purchase: grant a user (or a guild) the SKU as a purchase would: an entitlement, or a subscription and its entitlement, with their events.',
    run(app, flags) {
      const usage = this.usage;
      const input = parseInput(
        TestPurchaseBody,
        defined({
          sku_id: requireFlag(flags, 'sku', usage),
          user_id: requireFlag(flags, 'user', usage),
          guild_id: flags.get('guild'),
          period_days: intFlag(flags, 'period-days'),
        }),
      );
      return app.services.subscriptions.testPurchase(
        OPERATOR,
        requireFlag(flags, 'app', usage),
        input,
      );
    },
  },
  {
    name: 'subscription list',
    usage: 'guildhall subscription list --app APPLICATION_ID',
    summary: "List an application's subscriptions, newest first.",
    run(app, flags) {
      return app.services.subscriptions.listByApplication(
        OPERATOR,
        requireFlag(flags, 'app', this.usage),
      );
    },
  },
  {
    name: 'subscription update',
    usage:
      'guildhall subscription update --app APPLICATION_ID --subscription SUBSCRIPTION_ID --action cancel|resume|renew|end',
    summary:
      'Move a test subscription on: cancel (ENDING), resume (ACTIVE), renew (next period, or INACTIVE when ending), end (INACTIVE now).',
    run(app, flags) {
      const usage = this.usage;
      return app.services.subscriptions.act(
        OPERATOR,
        {
          applicationId: requireFlag(flags, 'app', usage),
          subscriptionId: requireFlag(flags, 'subscription', usage),
        },
        parseInput(SubscriptionActionBody, { action: requireFlag(flags, 'action', usage) }),
      );
    },
  },
  {
    name: 'subscription delete',
    usage: 'guildhall subscription delete --app APPLICATION_ID --subscription SUBSCRIPTION_ID',
    summary: 'Delete a test subscription and its entitlements.',
    async run(app, flags) {
      const usage = this.usage;
      const subscriptionId = requireFlag(flags, 'subscription', usage);
      await app.services.subscriptions.remove(OPERATOR, {
        applicationId: requireFlag(flags, 'app', usage),
        subscriptionId,
      });
      return { subscription_id: subscriptionId, deleted: true };
    },
  },
];
