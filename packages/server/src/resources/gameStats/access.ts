/**
 * Who may do what with game stats: the application and user a route names, the application's
 * own bot, the readers of a user's identities, and the grant that lets an application write a
 * user's stats.
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ApplicationRecord, Repositories, UserRecord } from '../../storage/index.js';
import { findApplication } from '../access/index.js';

export { findApplication };

/**
 * The granted scopes that let an application write a user's stats: the scope itself, or a
 * Social SDK scope that stands for it (oauth/scopes.ts expands them at grant time; both are
 * accepted so an authorization stored either way counts).
 */
export const STATS_WRITE_SCOPES: readonly string[] = [
  'application_identities.write',
  'sdk.social_layer_presence',
  'sdk.social_layer',
];

/** `@me` is the caller (people only); otherwise a known user. */
export async function findUser(
  repos: Repositories,
  principal: Principal,
  userId: string,
): Promise<UserRecord> {
  if (userId === '@me') {
    if (principal.kind === 'bot') throw new ApiError('UNKNOWN_USER');
    return principal.user;
  }
  const found = isSnowflake(userId) ? await repos.users.findById(userId) : null;
  if (found === null) throw new ApiError('UNKNOWN_USER');
  return found;
}

/** The application its owner manages with a session (the developer portal); else 10002. */
export async function ownApplication(
  repos: Repositories,
  principal: Principal,
  applicationId: string,
): Promise<ApplicationRecord> {
  const app = await findApplication(repos, applicationId);
  if (principal.kind !== 'session' || app.ownerId !== principal.user.id) {
    throw new ApiError('UNKNOWN_APPLICATION');
  }
  return app;
}

/** The application's own bot; another application's bot, or a person, is refused (50001). */
export function requireOwnBot(principal: Principal, applicationId: string): void {
  if (principal.kind !== 'bot' || principal.applicationId !== applicationId) {
    throw new ApiError('MISSING_ACCESS');
  }
}

/**
 * Reads of one user's identities: the application's bot, or the user themself (a session, or
 * an OAuth2 token of that application).
 */
export function requireReader(principal: Principal, applicationId: string, userId: string): void {
  if (principal.kind === 'bot') {
    requireOwnBot(principal, applicationId);
    return;
  }
  if (principal.user.id !== userId) throw new ApiError('MISSING_ACCESS');
  if (principal.kind === 'bearer' && principal.applicationId !== applicationId) {
    throw new ApiError('MISSING_ACCESS');
  }
}

/** Whether the user let the application write their stats (50026 otherwise). */
export async function requireGrant(
  repos: Repositories,
  applicationId: string,
  userId: string,
): Promise<void> {
  const authorization = await repos.oauth.findAuthorization(userId, applicationId);
  if (
    authorization !== null &&
    authorization.revokedAt === null &&
    authorization.scopes.some((scope) => STATS_WRITE_SCOPES.includes(scope))
  ) {
    return;
  }
  // A provisional account the application made holds the Social SDK scope by construction.
  const identities = await repos.provisional.listIdentitiesOfUser(userId);
  if (identities.some((identity) => identity.applicationId === applicationId)) return;
  throw new ApiError('MISSING_OAUTH2_SCOPE');
}
