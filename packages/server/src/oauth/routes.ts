import type { AuthorizeRequests } from './authorizeRequests.js';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../domain/clock.js';
import type { Authenticator } from '../http/authenticator.js';
import type { ApplicationService } from '../resources/applications/index.js';
import type { AuthService } from '../resources/auth/index.js';
import type { Storage } from '../storage/index.js';
import { registerOAuthApi } from './apiRoutes.js';
import type { AuthorizeFlow } from './authorize.js';
import type { Grants, ProvisionalHooks } from './grants.js';
import type { IdTokenKeys } from './keys.js';
import { registerOAuthPages } from './pageRoutes.js';

export interface OAuthRouteDeps {
  storage: Storage;
  authenticator: Authenticator;
  auth: AuthService;
  applications: ApplicationService;
  flow: AuthorizeFlow;
  grants: Grants;
  keys: IdTokenKeys;
  /** AUTHORIZE_REQUEST to a person's SDK sessions of a game (the Connected Game entry point). */
  authorizeRequests: AuthorizeRequests;
  /** The public base URL (no /api): the issuer. */
  issuer: () => string;
  apiPrefix: string;
  clock: Clock;
  /** The provisional-accounts hooks of the token endpoint (merge, OIDC refresh deprecation). */
  provisional: ProvisionalHooks | null;
}

/**
 * The OAuth2 and OpenID Connect routes: the consent and device pages at the root (browsers, a
 * session cookie), and the API endpoints under the API prefix (and /api, by the version rewrite).
 * Token-endpoint errors are RFC 6749 bodies; everything else keeps the platform's.
 */
export async function registerOAuthRoutes(
  root: FastifyInstance,
  deps: OAuthRouteDeps,
): Promise<void> {
  // The signing key is loaded (or made) now: signing inside a transaction must not need a second
  // connection, which SQLite does not have.
  await deps.keys.jwks();
  const authorizePage = registerOAuthPages(root, deps);
  await registerOAuthApi(root, deps, authorizePage);
}
