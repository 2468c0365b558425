/** @module resources/access/scopes: what an OAuth2 Bearer caller's scopes allow. */
import type { ErrorName } from '@guildhall/protocol';
import { mayAccess, type Access } from '../../domain/tokenAccess.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';

/**
 * Refuses a Bearer token without `scope` (50026 unless the route answers otherwise); bot and
 * session callers need no scope. For reading a kind of the user's data, {@link requireAccess}.
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

/**
 * Refuses a caller who may not read this kind of the user's data (50026 unless the route
 * answers otherwise): the rule of `domain/tokenAccess.ts`, which the gateway applies to READY
 * and every dispatch too.
 */
export function requireAccess(
  principal: Principal,
  access: Access,
  refusal: ErrorName = 'MISSING_OAUTH2_SCOPE',
): void {
  if (!mayAccess(principal, access)) throw new ApiError(refusal);
}
