import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Snowflake, queryInt } from '../http/schemas.js';
import { principalOf } from '../http/server.js';
import { parseInput } from '../http/validate.js';
import type { WebhookEventsService } from './service.js';

const DeliveriesParams = z.object({ application_id: z.string() });
const DeliveriesQuery = z.object({
  limit: queryInt(1, 100).default(50),
  before: Snowflake.optional(),
});

/** GET /applications/{id}/webhook-events/deliveries: the app's webhook events and attempts. */
export function registerWebhookEventRoutes(
  app: FastifyInstance,
  webhookEvents: WebhookEventsService,
): void {
  app.get(
    '/applications/:application_id/webhook-events/deliveries',
    { config: { auth: ['session', 'bot'] } },
    (request) => {
      const query = parseInput(DeliveriesQuery, request.query);
      return webhookEvents.listDeliveries(
        principalOf(request),
        parseInput(DeliveriesParams, request.params).application_id,
        { limit: query.limit, ...(query.before === undefined ? {} : { before: query.before }) },
      );
    },
  );
}
