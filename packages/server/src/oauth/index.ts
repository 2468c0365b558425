/** @module oauth: OAuth2 and OpenID Connect (authorizations, tokens, consent, ID tokens). */
import { createAuthorizeRequests } from './authorizeRequests.js';
import type { SecretBox } from '../domain/secretBox.js';
import type { ServiceDeps } from '../resources/deps.js';
import type { GuildService } from '../resources/guilds/index.js';
import { createAuthorizeFlow } from './authorize.js';
import { createGrants } from './grants.js';
import { createIdTokenKeys, type IdTokenKeyPair } from './keys.js';
import { createOAuthCore, type OAuthCoreDeps } from './service.js';

export { registerOAuthRoutes } from './routes.js';
export { OAuthError } from './errors.js';
export { generateIdTokenKeyPair, type IdTokenKeyPair } from './keys.js';
export { expandScopes, parseScopes } from './scopes.js';

/**
 * Everything OAuth2 over the service deps: the core (issueTokens, revokeAuthorization…) spread at
 * the top for other parts to call, and the consent flow, grants and ID token keys for the routes.
 * The consent flow adds bots through the app's guild service, the same one the REST routes use.
 */
export function createOAuth(
  deps: ServiceDeps & {
    webhookEvents: OAuthCoreDeps['webhookEvents'];
    issuer: () => string;
    secrets: SecretBox;
    guilds: GuildService;
    /** The ID token key pair stored when the database has none (tests); else one is made. */
    idTokenKey?: IdTokenKeyPair | undefined;
  },
) {
  const keys = createIdTokenKeys({ ...deps, initialKey: deps.idTokenKey });
  const coreDeps = { ...deps, keys };
  const core = createOAuthCore(coreDeps);
  return {
    ...core,
    keys,
    flow: createAuthorizeFlow({ ...coreDeps, core }),
    grants: createGrants({ ...coreDeps, core }),
    authorizeRequests: createAuthorizeRequests(deps),
  };
}

export type OAuth = ReturnType<typeof createOAuth>;
