import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories } from '../../storage/index.js';
import { isInstalledInGuild } from './installs.js';

/** The OAuth2 scopes that let a Bearer token manage an application's commands. */
export const COMMAND_SCOPES = {
  update: 'applications.commands.update',
  permissions: 'applications.commands.permissions.update',
} as const;

/**
 * Whether the caller speaks for the application in `{application_id}`: its bot token, or a
 * Bearer token of that application holding `scope` (`applications.commands.update` only in its
 * owner's token, which client credentials issue; `applications.commands.permissions.update` in a
 * user's). Anything else is 50001 Missing Access, another application's id included.
 */
export async function requireApplication(
  repos: Repositories,
  principal: Principal,
  target: { applicationId: string; scope: (typeof COMMAND_SCOPES)[keyof typeof COMMAND_SCOPES] },
): Promise<void> {
  const { applicationId, scope } = target;
  const own = isSnowflake(applicationId) && principal.applicationId === applicationId;
  const allowed =
    own &&
    (principal.kind === 'bot' || (principal.kind === 'bearer' && principal.scopes.includes(scope)));
  if (!allowed) throw new ApiError('MISSING_ACCESS');
  if (principal.kind === 'bearer' && scope === COMMAND_SCOPES.update) {
    // No grant gives anyone else this scope (oauth/scopeGrants.ts); a token that holds it
    // anyway (issued under older rules) does not replace the owner's commands.
    const application = await repos.applications.findById(applicationId);
    if (application?.ownerId !== principal.user.id) throw new ApiError('MISSING_ACCESS');
  }
}

/**
 * Whether the caller is the application's owner with a session (the developer portal): the
 * list, get and delete routes take the owner's session too. Anyone else is 50001.
 */
export async function requireOwner(
  repos: Repositories,
  principal: Principal,
  applicationId: string,
): Promise<void> {
  const application = isSnowflake(applicationId)
    ? await repos.applications.findById(applicationId)
    : null;
  if (principal.kind !== 'session' || application?.ownerId !== principal.user.id) {
    throw new ApiError('MISSING_ACCESS');
  }
}

/**
 * The guild of a guild-command route: 10004 when there is none, 50001 when the application is
 * not installed there (its bot is not a member).
 */
export async function requireInstalledGuild(
  repos: Repositories,
  applicationId: string,
  guildId: string,
): Promise<string> {
  const guild = isSnowflake(guildId) ? await repos.guilds.findById(guildId) : null;
  if (guild === null) throw new ApiError('UNKNOWN_GUILD');
  if (!(await isInstalledInGuild(repos, applicationId, guild.id))) {
    throw new ApiError('MISSING_ACCESS');
  }
  return guild.id;
}
