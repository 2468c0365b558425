/**
 * @module activities/routes: the HTTP routes of activities (docs/activities.md). The
 * config is the developer portal's (the app owner's session); instances are launched, joined,
 * listed and left by people (session tokens); the app's backend reads one instance with its bot
 * token, as the platform's GET /applications/{id}/activity-instances/{instance_id}; people get
 * the proxy host's tickets for the apps they may launch.
 */
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/server.js';
import { parseInput } from '../http/validate.js';
import { ActivityConfigBody, ActivityConfigParams, type ActivityConfigService } from './config.js';
import {
  AppInstanceParams,
  ChannelParams,
  LaunchBody,
  LeaveParams,
  type ActivityInstanceService,
} from './instances.js';
import type { ProxyTicketService } from './proxyTickets.js';

const SESSION = { config: { auth: ['session'] } } as const;
const BOT = { config: { auth: ['bot'] } } as const;

export function registerActivityRoutes(
  app: FastifyInstance,
  services: {
    config: ActivityConfigService;
    instances: ActivityInstanceService;
    proxyTickets: ProxyTicketService;
  },
): void {
  const { config, instances, proxyTickets } = services;

  app.get('/applications/:application_id/embedded-activity-config', SESSION, (request) =>
    config.get(
      principalOf(request),
      parseInput(ActivityConfigParams, request.params).application_id,
    ),
  );

  app.patch('/applications/:application_id/embedded-activity-config', SESSION, (request) =>
    config.modify(
      principalOf(request),
      parseInput(ActivityConfigParams, request.params).application_id,
      parseInput(ActivityConfigBody, request.body ?? {}),
    ),
  );

  app.post('/channels/:channel_id/activity-instances', SESSION, (request) =>
    instances.join(
      principalOf(request),
      parseInput(ChannelParams, request.params).channel_id,
      parseInput(LaunchBody, request.body ?? {}).application_id,
    ),
  );

  app.get('/channels/:channel_id/activity-instances', SESSION, (request) =>
    instances.list(principalOf(request), parseInput(ChannelParams, request.params).channel_id),
  );

  app.delete(
    '/channels/:channel_id/activity-instances/:instance_id/participants/@me',
    SESSION,
    async (request, reply) => {
      const params = parseInput(LeaveParams, request.params);
      await instances.leave(principalOf(request), params.channel_id, params.instance_id);
      return reply.status(204).send();
    },
  );

  // The client asks for the proxy host's ticket when it frames the app (proxyTickets.ts).
  app.post('/applications/:application_id/proxy-tickets', SESSION, (request) =>
    proxyTickets.issue(
      principalOf(request),
      parseInput(ActivityConfigParams, request.params).application_id,
    ),
  );

  app.get('/applications/:application_id/activity-instances/:instance_id', BOT, (request) => {
    const params = parseInput(AppInstanceParams, request.params);
    return instances.getForApp(principalOf(request), params.application_id, params.instance_id);
  });
}
