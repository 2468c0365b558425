import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import {
  ApplicationIdParams,
  CreateApplicationBody,
  ModifyApplicationBody,
  ModifyOwnedApplicationBody,
} from './schemas.js';
import type { ApplicationService } from './service.js';

/**
 * The bot's own application (`/applications/@me`, bot tokens), and the developer's routes for
 * making and managing applications (session tokens).
 */
export function registerApplicationRoutes(
  app: FastifyInstance,
  applications: ApplicationService,
): void {
  app.get('/applications/@me', { config: { auth: ['bot'] } }, (request) =>
    applications.current(principalOf(request)),
  );

  app.patch('/applications/@me', { config: { auth: ['bot'] } }, (request) => {
    const principal = principalOf(request);
    return applications.modify(
      principal,
      principal.applicationId ?? '',
      parseInput(ModifyApplicationBody, request.body ?? {}),
    );
  });

  app.get('/applications', { config: { auth: ['session'] } }, (request) =>
    applications.list(principalOf(request)),
  );

  app.post('/applications', { config: { auth: ['session'] } }, async (request, reply) => {
    const principal = principalOf(request);
    const created = await applications.create(
      principal.user.id,
      parseInput(CreateApplicationBody, request.body ?? {}),
    );
    // The secrets are shown this once; only their hashes are kept.
    return reply.status(201).send({
      ...(await applications.view(created.application)),
      bot_token: created.botToken,
      client_secret: created.clientSecret,
    });
  });

  app.get('/applications/:application_id', { config: { auth: ['session'] } }, (request) =>
    applications.get(
      principalOf(request),
      parseInput(ApplicationIdParams, request.params).application_id,
    ),
  );

  app.patch('/applications/:application_id', { config: { auth: ['session'] } }, (request) =>
    applications.modify(
      principalOf(request),
      parseInput(ApplicationIdParams, request.params).application_id,
      parseInput(ModifyOwnedApplicationBody, request.body ?? {}),
    ),
  );

  app.post('/applications/:application_id/reset', { config: { auth: ['session'] } }, (request) =>
    applications.resetSecret(
      principalOf(request),
      parseInput(ApplicationIdParams, request.params).application_id,
    ),
  );

  app.post(
    '/applications/:application_id/bot/reset',
    { config: { auth: ['session'] } },
    (request) =>
      applications.resetBotToken(
        principalOf(request),
        parseInput(ApplicationIdParams, request.params).application_id,
      ),
  );
}
