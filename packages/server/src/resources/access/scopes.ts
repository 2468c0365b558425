/** @module resources/access/scopes: what an OAuth2 Bearer caller's scopes allow. */
import type { ErrorName } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';

/**
 * Refuses a Bearer token without `scope` (50026 unless the route answers otherwise); bot and
 * session callers need no scope.
 */
export function requireScope(
  principal: Principal,
  scope: string,
  refusal: ErrorName = 'MISSING_OAUTH2_SCOPE',
): void {
  if (principal.kind === 'bearer' && !principal.scopes.includes(scope)) {
    throw new ApiError(refusal);
  }
}
