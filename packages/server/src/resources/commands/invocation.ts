import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type {
  ApplicationCommandRecord,
  CommandPermissionRecord,
  Repositories,
} from '../../storage/index.js';
import { isInstalledInGuild } from './installs.js';
import { CommandPermissionType, InteractionContext, IntegrationType } from './limits.js';

/** Where and by whom a command is invoked (built by the interactions service from the request). */
export interface CommandInvocationPlace {
  applicationId: string;
  commandId: string;
  userId: string;
  guildId: string | null;
  channelId: string;
  /** Interaction context type: 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL. */
  context: 0 | 1 | 2;
  /** The installations this invocation is authorized by: '0' guild install → guild id, '1' user install → user id. */
  authorizingIntegrationOwners: { '0'?: string; '1'?: string };
  /** The member's permissions in the channel (guild context) or null outside a guild. */
  memberPermissions: bigint | null;
  /** The member's role ids (guild context), else []. */
  memberRoleIds: readonly string[];
  channelNsfw: boolean;
}

/**
 * The contexts a command may be used in: its `contexts`, or, when never set, what the deprecated
 * `dm_permission` meant (guilds, and the bot's DM unless it was false).
 */
export function effectiveContexts(command: ApplicationCommandRecord): readonly number[] {
  if (command.contexts !== null) return command.contexts;
  return command.dmPermission
    ? [InteractionContext.GUILD, InteractionContext.BOT_DM]
    : [InteractionContext.GUILD];
}

/** The "all channels" constant of command permissions: the guild id minus one. */
export function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

/** The overwrites that apply, command-level first, then the application-wide ones. */
interface OverwriteLevels {
  command: readonly CommandPermissionRecord[];
  application: readonly CommandPermissionRecord[];
}

/**
 * The channel rule: the first overwrite found of this channel, then of "all channels", at the
 * command level and then at the application level. Null when none applies.
 */
function channelVerdict(levels: OverwriteLevels, place: CommandInvocationPlace, guildId: string) {
  const all = allChannelsId(guildId);
  for (const list of [levels.command, levels.application]) {
    for (const target of [place.channelId, all]) {
      const found = list.find((o) => o.type === CommandPermissionType.CHANNEL && o.id === target);
      if (found !== undefined) return found.permission;
    }
  }
  return null;
}

/**
 * The member rule of one level: the user's own overwrite; else, of the member's roles, allowed
 * when any is allowed and denied when all that apply are denied; else the @everyone overwrite
 * (the role whose id is the guild id). Null when none applies.
 */
function memberVerdict(
  list: readonly CommandPermissionRecord[],
  place: CommandInvocationPlace,
  guildId: string,
): boolean | null {
  const own = list.find((o) => o.type === CommandPermissionType.USER && o.id === place.userId);
  if (own !== undefined) return own.permission;
  const roleIds = new Set(place.memberRoleIds);
  const roles = list.filter((o) => o.type === CommandPermissionType.ROLE && roleIds.has(o.id));
  if (roles.length > 0) return roles.some((o) => o.permission);
  const everyone = list.find((o) => o.type === CommandPermissionType.ROLE && o.id === guildId);
  return everyone === undefined ? null : everyone.permission;
}

/** `default_member_permissions`: null lets everyone in; otherwise the bits are needed ("0": admins only). */
function defaultVerdict(command: ApplicationCommandRecord, permissions: bigint): boolean {
  if (command.defaultMemberPermissions === null) return true;
  if ((permissions & P.ADMINISTRATOR) !== 0n) return true;
  const required = BigInt(command.defaultMemberPermissions);
  return required !== 0n && (permissions & required) === required;
}

/**
 * Whether a member may use a guild-installed command in a guild channel: the channel overwrites
 * first (a denial there is final), then the member overwrites (command-level ones win over the
 * application-wide ones), and only when none applies `default_member_permissions`.
 */
async function guildPermits(
  repos: Repositories,
  command: ApplicationCommandRecord,
  place: CommandInvocationPlace & { guildId: string },
): Promise<boolean> {
  const { guildId } = place;
  const [own, appWide] = await Promise.all([
    repos.commands.findPermissions(command.applicationId, guildId, command.id),
    repos.commands.findPermissions(command.applicationId, guildId, command.applicationId),
  ]);
  const levels: OverwriteLevels = {
    command: own?.permissions ?? [],
    application: appWide?.permissions ?? [],
  };
  if (channelVerdict(levels, place, guildId) === false) return false;
  const member =
    memberVerdict(levels.command, place, guildId) ??
    memberVerdict(levels.application, place, guildId);
  if (member !== null) return member;
  return defaultVerdict(command, place.memberPermissions ?? 0n);
}

/**
 * The command a person invokes, when it is available to them there; otherwise the platform's
 * error: 10063 when the application has no such command for that place (another app's, another
 * guild's, a guild command outside its guild), 50001 when the command is not offered there
 * (context, installation, age-restricted command outside an NSFW channel), 50013 when the
 * guild's command permissions or `default_member_permissions` keep the member out.
 *
 * Installations: a guild install counts in a guild only when the application's bot is a member
 * of it (docs/commands.md#availability); a user install is taken as given by the caller.
 * Guild permissions apply only to a command used through its guild install; a command also
 * reachable through the user's own install of the app is then allowed by that one.
 */
export async function resolveCommandForInvocation(
  repos: Repositories,
  place: CommandInvocationPlace,
): Promise<ApplicationCommandRecord> {
  const command =
    isSnowflake(place.applicationId) && isSnowflake(place.commandId)
      ? await repos.commands.findById(place.applicationId, place.commandId)
      : null;
  if (command === null) throw new ApiError('UNKNOWN_APPLICATION_COMMAND');
  if (command.guildId !== null) {
    // A guild command exists only in its guild, through the guild's install.
    if (command.guildId !== place.guildId || place.context !== InteractionContext.GUILD) {
      throw new ApiError('UNKNOWN_APPLICATION_COMMAND');
    }
  } else if (!effectiveContexts(command).includes(place.context)) {
    throw new ApiError('MISSING_ACCESS');
  }
  if (command.nsfw && !place.channelNsfw) throw new ApiError('MISSING_ACCESS');

  const owners = place.authorizingIntegrationOwners;
  const guildInstall =
    (command.guildId !== null ||
      command.integrationTypes.includes(IntegrationType.GUILD_INSTALL)) &&
    owners['0'] !== undefined &&
    (place.guildId === null ||
      (owners['0'] === place.guildId &&
        (await isInstalledInGuild(repos, command.applicationId, place.guildId))));
  const userInstall =
    command.guildId === null &&
    command.integrationTypes.includes(IntegrationType.USER_INSTALL) &&
    owners['1'] === place.userId;
  if (!guildInstall && !userInstall) throw new ApiError('MISSING_ACCESS');

  if (guildInstall && place.guildId !== null && place.context === InteractionContext.GUILD) {
    const permitted = await guildPermits(repos, command, { ...place, guildId: place.guildId });
    if (!permitted && !userInstall) throw new ApiError('MISSING_PERMISSIONS');
  }
  return command;
}
