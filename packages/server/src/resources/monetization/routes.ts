import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import {
  AppSubscriptionParams,
  ApplicationParams,
  CreateSkuBody,
  CreateTestEntitlementBody,
  EditSkuBody,
  EntitlementParams,
  GetSubscriptionQuery,
  ListEntitlementsQuery,
  ListSubscriptionsQuery,
  MyEntitlementsQuery,
  SkuIdParams,
  SkuParams,
  SubscriptionActionBody,
  SubscriptionParams,
  TestPurchaseBody,
} from './schemas.js';
import type { MonetizationService } from './service.js';
import type { SubscriptionService } from './subscriptions.js';

const ENTITLEMENTS = '/applications/:application_id/entitlements';
const ENTITLEMENT = `${ENTITLEMENTS}/:entitlement_id`;
const APP_SUBSCRIPTION = '/applications/:application_id/subscriptions/:subscription_id';

/** SKUs, entitlements, subscriptions and the test purchase flow (docs/monetization.md). */
export function registerMonetizationRoutes(
  app: FastifyInstance,
  services: { monetization: MonetizationService; subscriptions: SubscriptionService },
): void {
  const { monetization, subscriptions } = services;
  const appId = (params: unknown) => parseInput(ApplicationParams, params).application_id;

  app.get(
    '/applications/:application_id/skus',
    { config: { auth: ['bot', 'session'] } },
    (request) => monetization.listSkus(principalOf(request), appId(request.params)),
  );
  app.post(
    '/applications/:application_id/skus',
    { config: { auth: ['session'] } },
    async (request, reply) => {
      const id = appId(request.params);
      const input = parseInput(CreateSkuBody, request.body ?? {});
      return reply.status(201).send(await monetization.createSku(principalOf(request), id, input));
    },
  );
  app.patch(
    '/applications/:application_id/skus/:sku_id',
    { config: { auth: ['session'] } },
    (request) => {
      const params = parseInput(SkuParams, request.params);
      return monetization.editSku(
        principalOf(request),
        { applicationId: params.application_id, skuId: params.sku_id },
        parseInput(EditSkuBody, request.body ?? {}),
      );
    },
  );

  app.get(ENTITLEMENTS, { config: { auth: ['bot', 'bearer', 'session'] } }, (request) =>
    monetization.listEntitlements(
      principalOf(request),
      appId(request.params),
      parseInput(ListEntitlementsQuery, request.query),
    ),
  );
  app.post(ENTITLEMENTS, { config: { auth: ['bot', 'session'] } }, (request) => {
    const id = appId(request.params);
    return monetization.createTestEntitlement(
      principalOf(request),
      id,
      parseInput(CreateTestEntitlementBody, request.body ?? {}),
    );
  });
  app.get(ENTITLEMENT, { config: { auth: ['bot', 'bearer', 'session'] } }, (request) => {
    const params = parseInput(EntitlementParams, request.params);
    return monetization.getEntitlement(
      principalOf(request),
      params.application_id,
      params.entitlement_id,
    );
  });
  app.delete(
    ENTITLEMENT,
    { config: { auth: ['bot', 'bearer', 'session'] } },
    async (request, reply) => {
      const params = parseInput(EntitlementParams, request.params);
      await monetization.deleteTestEntitlement(
        principalOf(request),
        params.application_id,
        params.entitlement_id,
      );
      return reply.status(204).send();
    },
  );
  app.post(
    `${ENTITLEMENT}/consume`,
    { config: { auth: ['bot', 'bearer', 'session'] } },
    async (request, reply) => {
      const params = parseInput(EntitlementParams, request.params);
      await monetization.consume(
        principalOf(request),
        params.application_id,
        params.entitlement_id,
      );
      return reply.status(204).send();
    },
  );
  app.get(
    '/users/@me/applications/:application_id/entitlements',
    { config: { auth: ['bearer', 'session'] } },
    (request) =>
      monetization.listMine(
        principalOf(request),
        appId(request.params),
        parseInput(MyEntitlementsQuery, request.query),
      ),
  );

  app.get(
    '/skus/:sku_id/subscriptions',
    { config: { auth: ['bot', 'bearer', 'session'] } },
    (request) =>
      subscriptions.listBySku(
        principalOf(request),
        parseInput(SkuIdParams, request.params).sku_id,
        parseInput(ListSubscriptionsQuery, request.query),
      ),
  );
  app.get(
    '/skus/:sku_id/subscriptions/:subscription_id',
    { config: { auth: ['bot', 'bearer', 'session'] } },
    (request) => {
      const params = parseInput(SubscriptionParams, request.params);
      const query = parseInput(GetSubscriptionQuery, request.query);
      return subscriptions.get(principalOf(request), {
        skuId: params.sku_id,
        subscriptionId: params.subscription_id,
        userId: query.user_id,
      });
    },
  );

  // The test purchase flow (Guildhall's own routes; the portal uses them).
  app.post(
    '/applications/:application_id/test-purchases',
    { config: { auth: ['session'] } },
    async (request, reply) => {
      const id = appId(request.params);
      const input = parseInput(TestPurchaseBody, request.body ?? {});
      return reply
        .status(201)
        .send(await subscriptions.testPurchase(principalOf(request), id, input));
    },
  );
  app.get(
    '/applications/:application_id/subscriptions',
    { config: { auth: ['session'] } },
    (request) => subscriptions.listByApplication(principalOf(request), appId(request.params)),
  );
  app.patch(APP_SUBSCRIPTION, { config: { auth: ['session'] } }, (request) => {
    const params = parseInput(AppSubscriptionParams, request.params);
    return subscriptions.act(
      principalOf(request),
      { applicationId: params.application_id, subscriptionId: params.subscription_id },
      parseInput(SubscriptionActionBody, request.body ?? {}),
    );
  });
  app.delete(APP_SUBSCRIPTION, { config: { auth: ['session'] } }, async (request, reply) => {
    const params = parseInput(AppSubscriptionParams, request.params);
    await subscriptions.remove(principalOf(request), {
      applicationId: params.application_id,
      subscriptionId: params.subscription_id,
    });
    return reply.status(204).send();
  });
}
