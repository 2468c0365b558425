import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import {
  ApplicationIdParams,
  ApplicationProfilesParams,
  DeleteParams,
  LookupParams,
  LookupQuery,
  ModifyProfileBody,
  ProfileParams,
  UserIdentitiesParams,
} from './schemas.js';
import type { GameStatsService } from './service.js';
import { StatsLayoutBody } from './layout.js';

const PROFILE =
  '/applications/:application_id/users/:user_id/identities/:provider_issued_user_id/profile';

/** Game stats (api-facts §9) and user application profiles; docs/social-stats.md. */
export function registerGameStatsRoutes(app: FastifyInstance, stats: GameStatsService): void {
  app.patch(PROFILE, { config: { auth: ['bot'] } }, async (request, reply) => {
    const params = parseInput(ProfileParams, request.params);
    const input = parseInput(ModifyProfileBody, request.body ?? {});
    const result = await stats.writeProfile(
      principalOf(request),
      {
        applicationId: params.application_id,
        userId: params.user_id,
        providerIssuedUserId: params.provider_issued_user_id,
      },
      input,
    );
    return result.created ? reply.status(201).send(result.profile) : reply.status(204).send();
  });

  app.get(PROFILE, { config: { auth: ['bot', 'bearer', 'session'] } }, (request) => {
    const params = parseInput(ProfileParams, request.params);
    return stats.readProfile(principalOf(request), {
      applicationId: params.application_id,
      userId: params.user_id,
      providerIssuedUserId: params.provider_issued_user_id,
    });
  });

  app.get(
    '/users/:user_id/application-identities/:application_id',
    { config: { auth: ['bot', 'bearer', 'session'] } },
    (request) => {
      const params = parseInput(UserIdentitiesParams, request.params);
      return stats.listIdentities(principalOf(request), {
        userId: params.user_id,
        applicationId: params.application_id,
      });
    },
  );

  app.get(
    '/applications/:application_id/application-identities/:provider_type/:provider_issued_user_id',
    { config: { auth: ['bot'] } },
    (request) => {
      const params = parseInput(LookupParams, request.params);
      const query = parseInput(LookupQuery, request.query);
      return stats.lookup(
        principalOf(request),
        {
          applicationId: params.application_id,
          providerType: params.provider_type,
          providerIssuedUserId: params.provider_issued_user_id,
        },
        query.provider_id,
      );
    },
  );

  app.post(
    '/users/:user_id/application-identities/:application_id/:provider_type/:provider_issued_user_id/delete',
    { config: { auth: ['bot', 'bearer', 'session'] } },
    async (request, reply) => {
      const params = parseInput(DeleteParams, request.params);
      await stats.deleteIdentity(principalOf(request), {
        userId: params.user_id,
        applicationId: params.application_id,
        providerType: params.provider_type,
        providerIssuedUserId: params.provider_issued_user_id,
      });
      return reply.status(204).send();
    },
  );

  app.get(
    '/users/:user_id/application-profiles',
    { config: { auth: ['bot', 'bearer'] } },
    (request) =>
      stats.applicationProfiles(
        principalOf(request),
        parseInput(ApplicationProfilesParams, request.params).user_id,
      ),
  );

  // Widget layouts (layout.ts; a Guildhall extension): set by the owner in the portal.
  const LAYOUT = '/applications/:application_id/game-stats/layout';
  app.get(LAYOUT, { config: { auth: ['session'] } }, (request) =>
    stats.layout(
      principalOf(request),
      parseInput(ApplicationIdParams, request.params).application_id,
    ),
  );
  app.put(LAYOUT, { config: { auth: ['session'] } }, (request) =>
    stats.putLayout(
      principalOf(request),
      parseInput(ApplicationIdParams, request.params).application_id,
      parseInput(StatsLayoutBody, request.body),
    ),
  );

  app.get(
    '/users/:user_id/application-identities/:application_id/widgets',
    { config: { auth: ['bot', 'bearer', 'session'] } },
    (request) => {
      const params = parseInput(UserIdentitiesParams, request.params);
      return stats.widgets(principalOf(request), {
        userId: params.user_id,
        applicationId: params.application_id,
      });
    },
  );
}
