/**
 * @module oauth/routeDeps: what the OAuth2 routes need, shared by the page routes, the API
 * routes and `routes.ts` that registers both (a leaf, so they do not import each other).
 */
import type { AuthorizeRequests } from './authorizeRequests.js';
import type { Clock } from '../domain/clock.js';
import type { Authenticator } from '../http/authenticator.js';
import type { ApplicationService } from '../resources/applications/index.js';
import type { AuthService } from '../resources/auth/index.js';
import type { Storage } from '../storage/index.js';
import type { AuthorizeFlow } from './authorize.js';
import type { Grants } from './grants.js';
import type { ProvisionalHooks } from './grantChecks.js';
import type { IdTokenKeys } from './keys.js';

/** What the OAuth2 and OpenID Connect routes take from `createOAuth`. */
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
