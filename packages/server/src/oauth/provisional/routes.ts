import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/index.js';
import { requireOperator } from '../../http/operator.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { IdentityTestKeyRecord, OidcProviderRecord } from '../../storage/index.js';
import {
  AdminBanBody,
  AdminLinkParams,
  AdminUserParams,
  ApplicationParams,
  BotTokenBody,
  ChildTokenBody,
  CredentialsBody,
  OidcProviderBody,
  TestKeyBody,
  TestProviderParams,
  UnmergeBotBody,
} from './schemas.js';
import { PROVIDER_AUTH_TYPES } from './testIdentity.js';
import type { ProvisionalService } from './service.js';

const PUBLIC = { config: { auth: 'none' } } as const;
const BOT = { config: { auth: ['bot'] } } as const;
const SESSION = { config: { auth: ['session'] } } as const;

function serializeProvider(provider: OidcProviderRecord) {
  return {
    issuer: provider.issuer,
    client_id: provider.clientId,
    validation: provider.validation,
    updated_at: new Date(provider.updatedAt).toISOString(),
  };
}

function serializeTestKey(key: IdentityTestKeyRecord) {
  return {
    type: key.provider,
    mode: 'test' as const,
    external_auth_types: PROVIDER_AUTH_TYPES[key.provider],
    public_key: key.publicKey,
    updated_at: new Date(key.updatedAt).toISOString(),
  };
}

/**
 * The partner SDK routes (docs/platform-notes.md#provisional-accounts): provisional account tokens,
 * unmerge, child tokens; and the owner's OpenID provider settings of an application.
 */
export function registerProvisionalRoutes(
  app: FastifyInstance,
  provisional: ProvisionalService,
): void {
  app.post('/partner-sdk/token/bot', BOT, (request) => {
    const body = parseInput(BotTokenBody, request.body ?? {});
    return provisional.botToken(principalOf(request).user.id, {
      externalUserId: body.external_user_id,
      preferredGlobalName: body.preferred_global_name ?? null,
    });
  });

  app.post('/partner-sdk/token', PUBLIC, (request) => {
    const body = parseInput(CredentialsBody, request.body ?? {});
    return provisional.exchange({
      clientId: body.client_id,
      clientSecret: body.client_secret,
      credential: { type: body.external_auth_type, token: body.external_auth_token },
    });
  });

  app.post('/partner-sdk/provisional-accounts/unmerge', PUBLIC, async (request, reply) => {
    const body = parseInput(CredentialsBody, request.body ?? {});
    const application = await provisional.authenticateClient(body.client_id, body.client_secret);
    await provisional.unmerge(application, {
      type: body.external_auth_type,
      token: body.external_auth_token,
    });
    return reply.status(204).send();
  });

  app.post('/partner-sdk/provisional-accounts/unmerge/bot', BOT, async (request, reply) => {
    const body = parseInput(UnmergeBotBody, request.body ?? {});
    await provisional.unmergeBot(principalOf(request).user.id, body.external_user_id);
    return reply.status(204).send();
  });

  app.post('/partner-sdk/child-token', PUBLIC, (request) => {
    const body = parseInput(ChildTokenBody, request.body ?? {});
    return provisional.childToken({
      parentAccessToken: body.parent_access_token,
      childApplicationId: body.child_application_id,
      parentClientSecret: body.parent_client_secret,
    });
  });

  // Every provider of the app, none saved being an empty list: what a settings page loads.
  app.get('/applications/:application_id/identity-providers', SESSION, async (request) => {
    const params = parseInput(ApplicationParams, request.params);
    const owner = { applicationId: params.application_id, ownerId: principalOf(request).user.id };
    const provider = await provisional.findOidcProvider(owner);
    const testKeys = await provisional.listTestKeys(owner);
    return [
      ...(provider === null ? [] : [{ type: 'oidc', ...serializeProvider(provider) }]),
      ...testKeys.map(serializeTestKey),
    ];
  });

  app.get('/applications/:application_id/identity-providers/oidc', SESSION, async (request) => {
    const params = parseInput(ApplicationParams, request.params);
    return serializeProvider(
      await provisional.oidcProvider({
        applicationId: params.application_id,
        ownerId: principalOf(request).user.id,
      }),
    );
  });

  app.put('/applications/:application_id/identity-providers/oidc', SESSION, async (request) => {
    const params = parseInput(ApplicationParams, request.params);
    const body = parseInput(OidcProviderBody, request.body ?? {});
    return serializeProvider(
      await provisional.saveOidcProvider({
        applicationId: params.application_id,
        ownerId: principalOf(request).user.id,
        issuer: body.issuer,
        clientId: body.client_id,
        legacy: false,
      }),
    );
  });

  registerTestProviderRoutes(app, provisional);
}

/**
 * The owner's test-mode providers (Steam, Epic Online Services, Unity, Apple, PlayStation): the
 * public key their test credentials are signed with.
 */
function registerTestProviderRoutes(app: FastifyInstance, provisional: ProvisionalService): void {
  const PATH = '/applications/:application_id/identity-providers/:provider';
  const target = (request: FastifyRequest) => {
    const params = parseInput(TestProviderParams, request.params);
    return {
      applicationId: params.application_id,
      ownerId: principalOf(request).user.id,
      provider: params.provider,
    };
  };

  app.get(PATH, SESSION, async (request) =>
    serializeTestKey(await provisional.findTestKey(target(request))),
  );

  app.put(PATH, SESSION, async (request) => {
    const body = parseInput(TestKeyBody, request.body ?? {});
    return serializeTestKey(
      await provisional.saveTestKey({ ...target(request), publicKey: body.public_key }),
    );
  });

  app.delete(PATH, SESSION, async (request, reply) => {
    if (!(await provisional.deleteTestKey(target(request)))) {
      throw new ApiError('PROVISIONAL_ACCOUNTS_NOT_ENABLED');
    }
    return reply.status(204).send();
  });
}

/** Operator routes: platform account bans and publisher link approval. */
export function registerProvisionalAdminRoutes(
  app: FastifyInstance,
  deps: { provisional: ProvisionalService; adminTokenHash: string | null },
): void {
  const { provisional, adminTokenHash } = deps;

  app.put('/admin/users/:user_id/ban', PUBLIC, async (request) => {
    requireOperator(request, adminTokenHash);
    const params = parseInput(AdminUserParams, request.params);
    const body = parseInput(AdminBanBody, request.body ?? {});
    const { ban, moved } = await provisional.ban(params.user_id, {
      reason: body.reason ?? null,
      durationSeconds: body.duration_seconds ?? null,
    });
    return {
      user_id: ban.userId,
      reason: ban.reason,
      expires_at: ban.expiresAt === null ? null : new Date(ban.expiresAt).toISOString(),
      provisional_accounts: moved.map((m) => ({
        application_id: m.applicationId,
        user_id: m.provisionalUserId,
      })),
    };
  });

  app.delete('/admin/users/:user_id/ban', PUBLIC, async (request, reply) => {
    requireOperator(request, adminTokenHash);
    const params = parseInput(AdminUserParams, request.params);
    if (!(await provisional.unban(params.user_id))) throw new ApiError('UNKNOWN_BAN');
    return reply.status(204).send();
  });

  app.put('/admin/application-links/:parent_id/:child_id', PUBLIC, async (request) => {
    requireOperator(request, adminTokenHash);
    const params = parseInput(AdminLinkParams, request.params);
    const link = await provisional.linkChild(params.parent_id, params.child_id);
    return {
      parent_id: link.parentId,
      child_id: link.childId,
      approved_at: new Date(link.approvedAt).toISOString(),
    };
  });

  app.delete('/admin/application-links/:parent_id/:child_id', PUBLIC, async (request, reply) => {
    requireOperator(request, adminTokenHash);
    const params = parseInput(AdminLinkParams, request.params);
    if (!(await provisional.unlinkChild(params.parent_id, params.child_id))) {
      throw new ApiError('UNKNOWN_APPLICATION');
    }
    return reply.status(204).send();
  });
}
