import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import {
  ApplicationIdParams,
  AssetParams,
  CreateApplicationBody,
  CreateAssetBody,
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

  // A bot token reads and edits its own application (the bot's fields only, as for @me).
  app.get('/applications/:application_id', { config: { auth: ['session', 'bot'] } }, (request) =>
    applications.get(
      principalOf(request),
      parseInput(ApplicationIdParams, request.params).application_id,
    ),
  );

  app.patch(
    '/applications/:application_id',
    { config: { auth: ['session', 'bot'] } },
    (request) => {
      const principal = principalOf(request);
      return applications.modify(
        principal,
        parseInput(ApplicationIdParams, request.params).application_id,
        principal.kind === 'bot'
          ? parseInput(ModifyApplicationBody, request.body ?? {})
          : parseInput(ModifyOwnedApplicationBody, request.body ?? {}),
      );
    },
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

  // Rich presence assets: listed to anyone (the platform's public route), changed by the owner.
  app.get('/oauth2/applications/:application_id/assets', { config: { auth: 'none' } }, (request) =>
    applications.assets.list(parseInput(ApplicationIdParams, request.params).application_id),
  );

  app.post(
    '/applications/:application_id/assets',
    { config: { auth: ['session'] } },
    async (request, reply) => {
      const created = await applications.assets.create(
        principalOf(request),
        parseInput(ApplicationIdParams, request.params).application_id,
        parseInput(CreateAssetBody, request.body ?? {}),
      );
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/applications/:application_id/assets/:asset_id',
    { config: { auth: ['session'] } },
    async (request, reply) => {
      const params = parseInput(AssetParams, request.params);
      await applications.assets.delete(
        principalOf(request),
        params.application_id,
        params.asset_id,
      );
      return reply.status(204).send();
    },
  );
}
