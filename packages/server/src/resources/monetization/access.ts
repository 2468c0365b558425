/**
 * Who may read and change an application's monetization: its bot, its owner (a session: the
 * developer portal), an OAuth2 token of the application (its user's own entitlements), and the
 * operator (the `guildhall sku …` commands).
 */
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ApplicationRecord } from '../../storage/index.js';
import { findApplication } from '../access/index.js';

export { findApplication };

/** The operator at the command line: any application, no user of its own. */
export const OPERATOR = { kind: 'operator' } as const;
export type Caller = Principal | typeof OPERATOR;

/** The OAuth2 scope that lets a token read and consume its user's entitlements. */
export const ENTITLEMENTS_SCOPE = 'applications.entitlements';

/** The application's bot, its owner's session, or the operator; anyone else 50001. */
export function requireDeveloper(caller: Caller, app: ApplicationRecord): void {
  if (caller.kind === 'operator') return;
  if (caller.kind === 'bot' && caller.applicationId === app.id) return;
  if (caller.kind === 'session' && caller.user.id === app.ownerId) return;
  throw new ApiError('MISSING_ACCESS');
}

/** The owner's session or the operator (the portal's and CLI's own routes). */
export function requireOwner(caller: Caller, app: ApplicationRecord): void {
  if (caller.kind === 'operator') return;
  if (caller.kind === 'session' && caller.user.id === app.ownerId) return;
  throw new ApiError('MISSING_ACCESS');
}

/**
 * A reader of entitlements: a developer sees all of them; an OAuth2 token of the application
 * with `applications.entitlements` only its user's (the returned user id). Another
 * application's token is 50001, a token without the scope 50026.
 */
export function entitlementReader(caller: Caller, app: ApplicationRecord): { onlyUserId?: string } {
  if (caller.kind === 'bearer') {
    if (caller.applicationId !== app.id) throw new ApiError('MISSING_ACCESS');
    if (!caller.scopes.includes(ENTITLEMENTS_SCOPE)) throw new ApiError('MISSING_OAUTH2_SCOPE');
    return { onlyUserId: caller.user.id };
  }
  requireDeveloper(caller, app);
  return {};
}
