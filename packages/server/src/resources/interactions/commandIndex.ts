/**
 * GET /channels/{channel_id}/application-command-index: the apps and commands a person may use
 * in a channel, which the client's command picker and context menus show
 * (docs/commands.md#the-command-index). The candidates are the apps installed where the channel
 * is (the bots in its guild, or the bot of a DM) and the apps the person installed for
 * themselves; each command is then kept only when `resolveCommandForInvocation` would let the
 * person invoke it there, so the index never offers what POST /interactions refuses.
 */
import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { ApplicationRecord, Repositories } from '../../storage/index.js';
import {
  resolveCommandForInvocation,
  serializeCommand,
  type CommandWire,
  type LocalizationView,
} from '../commands/index.js';
import { loadMessageChannel } from '../messages/index.js';
import { loadInvocationPlace, type InvocationPlace } from './place.js';

/** The scope a user install's grant holds. */
const COMMANDS_SCOPE = 'applications.commands';
/** A user install's integration type. */
const USER_INSTALL = 1;

/** An application as the index lists it. */
export interface CommandIndexApplication {
  id: string;
  name: string;
  icon: string | null;
  description: string;
  bot_id: string | null;
}

export interface CommandIndex {
  applications: CommandIndexApplication[];
  application_commands: CommandWire[];
  /** The newest command version in the index ("0" when empty): changes whenever a command does. */
  version: string;
}

/** The apps the user installed to their account (live grants of `applications.commands`). */
async function userInstalledApps(repos: Repositories, userId: string) {
  const grants = await repos.oauth.listAuthorizationsForUser(userId);
  return grants
    .filter(
      (g) =>
        g.revokedAt === null &&
        g.integrationType === USER_INSTALL &&
        g.scopes.includes(COMMANDS_SCOPE),
    )
    .map((g) => g.applicationId);
}

/** The apps that may offer commands in the channel: installed where it is, or by the user. */
async function candidateApps(
  repos: Repositories,
  request: { channelId: string; userId: string; nowMs: number },
): Promise<ApplicationRecord[]> {
  const access = await loadMessageChannel(repos, request);
  access.require(P.VIEW_CHANNEL);
  const byId = new Map<string, ApplicationRecord>();
  if (access.guildId !== null) {
    for (const app of await repos.applications.listInstalledInGuild(access.guildId)) {
      byId.set(app.id, app);
    }
  } else {
    // The bot of a DM offers its commands there (the BOT_DM context).
    for (const recipient of access.privateChannel?.recipients ?? []) {
      if (recipient.userId === request.userId) continue;
      const app = await repos.applications.findByBotUserId(recipient.userId);
      if (app !== null) byId.set(app.id, app);
    }
  }
  for (const appId of await userInstalledApps(repos, request.userId)) {
    if (byId.has(appId)) continue;
    const app = await repos.applications.findById(appId);
    if (app !== null) byId.set(app.id, app);
  }
  return [...byId.values()].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

/** The place an app would be invoked in, or null when the person may not invoke it there. */
async function placeOrNull(
  repos: Repositories,
  request: {
    applicationId: string;
    channelId: string;
    userId: string;
    nowMs: number;
    commands: boolean;
  },
): Promise<InvocationPlace | null> {
  try {
    return await loadInvocationPlace(repos, { ...request, guildId: null });
  } catch (err) {
    // No USE_APPLICATION_COMMANDS, or USE_EXTERNAL_APPS for a user app: none of its commands.
    if (err instanceof ApiError) return null;
    throw err;
  }
}

/** The commands of the app a person may invoke at `place`. */
async function usableCommands(
  repos: Repositories,
  place: InvocationPlace,
  userId: string,
): Promise<Awaited<ReturnType<typeof resolveCommandForInvocation>>[]> {
  const { access, application } = place;
  const records = [
    ...(await repos.commands.listByScope(application.id, null)),
    ...(access.guildId === null
      ? []
      : await repos.commands.listByScope(application.id, access.guildId)),
  ];
  const usable = [];
  for (const record of records) {
    try {
      usable.push(
        await resolveCommandForInvocation(repos, {
          applicationId: application.id,
          commandId: record.id,
          userId,
          guildId: access.guildId,
          channelId: access.channel.id,
          context: place.context,
          authorizingIntegrationOwners: place.authorizingIntegrationOwners,
          memberPermissions: access.guildId === null ? null : access.permissions,
          memberRoleIds: access.member?.roleIds ?? [],
          channelNsfw: access.channel.nsfw,
        }),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return usable;
}

/**
 * The index of the channel for the user: 10003 for an unknown channel, 50001 without
 * VIEW_CHANNEL. Every app the person may interact with there is listed (a client maps a bot's
 * messages to their app by `bot_id`), with the commands they may invoke.
 */
export async function loadCommandIndex(
  repos: Repositories,
  request: { channelId: string; userId: string; nowMs: number; view: LocalizationView },
): Promise<CommandIndex> {
  if (!isSnowflake(request.channelId)) throw new ApiError('UNKNOWN_CHANNEL');
  const index: CommandIndex = { applications: [], application_commands: [], version: '0' };
  let newest = 0n;
  for (const app of await candidateApps(repos, request)) {
    // Listed when the person may interact with it here (its components too), with the
    // commands they may invoke (which also needs USE_APPLICATION_COMMANDS in a guild).
    const base = { ...request, applicationId: app.id };
    if ((await placeOrNull(repos, { ...base, commands: false })) === null) continue;
    const place = await placeOrNull(repos, { ...base, commands: true });
    const commands = place === null ? [] : await usableCommands(repos, place, request.userId);
    index.applications.push({
      id: app.id,
      name: app.name,
      icon: app.icon,
      description: app.description,
      bot_id: app.botUserId,
    });
    for (const command of commands) {
      index.application_commands.push(serializeCommand(command, request.view));
      if (BigInt(command.version) > newest) newest = BigInt(command.version);
    }
  }
  index.version = newest.toString();
  return index;
}
