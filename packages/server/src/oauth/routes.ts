import type { FastifyInstance } from 'fastify';
import { registerOAuthApi } from './apiRoutes.js';
import { registerOAuthPages } from './pageRoutes.js';
import type { OAuthRouteDeps } from './routeDeps.js';

/**
 * The OAuth2 and OpenID Connect routes: the consent and device pages at the root (browsers, a
 * session cookie), and the API endpoints under the API prefix (and /api, by the version rewrite).
 * Token-endpoint errors are RFC 6749 bodies; everything else keeps the platform's.
 */
export async function registerOAuthRoutes(
  root: FastifyInstance,
  deps: OAuthRouteDeps,
): Promise<void> {
  // The signing key is made at its first use (oauth/keys.ts), not at start.
  const authorizePage = registerOAuthPages(root, deps);
  await registerOAuthApi(root, deps, authorizePage);
}
