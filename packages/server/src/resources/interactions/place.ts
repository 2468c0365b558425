/**
 * Where an interaction happens, and who it is for: the app, the channel and the invoking user's
 * access to it, the interaction context (0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL) and the
 * installations that authorize it (docs/interactions.md#installations). A guild install is the
 * app's bot being a member of the guild; a user install is the user's live OAuth2 grant of
 * `applications.commands` with integration_type 1 (oauth/authorize.ts records it).
 */
import { ChannelTypes, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { channelPermissions, hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type { ApplicationRecord, ChannelAccessContext, Repositories } from '../../storage/index.js';
import { loadMessageChannel, type MessageChannelAccess } from '../messages/index.js';

/** Interaction context types. */
export const InteractionContexts = { GUILD: 0, BOT_DM: 1, PRIVATE_CHANNEL: 2 } as const;
export type InteractionContext = (typeof InteractionContexts)[keyof typeof InteractionContexts];

/** The scope a command needs of a user's grant for a user install. */
const COMMANDS_SCOPE = 'applications.commands';
/** A user install's integration type. */
const USER_INSTALL = 1;

/**
 * What an app may do through responses where its bot is not in the guild (a user-installed app)
 * and in DMs and group DMs: embed, attach, mention everyone, use external emojis.
 */
export const APP_PERMISSIONS_WITHOUT_BOT =
  P.EMBED_LINKS | P.ATTACH_FILES | P.MENTION_EVERYONE | P.USE_EXTERNAL_EMOJIS;

/** The place of one interaction, loaded once per request. */
export interface InvocationPlace {
  application: ApplicationRecord;
  /** The invoking user's access to the channel (their permissions, membership, the channel). */
  access: MessageChannelAccess;
  context: InteractionContext;
  /** '0' guild install → the guild id ('0' in the bot's DM); '1' user install → the user id. */
  authorizingIntegrationOwners: { '0'?: string; '1'?: string };
  /** Whether the app's bot is a member of the guild (a guild install). */
  botInGuild: boolean;
  /** The bot's permissions in the channel; null when the bot is not there. */
  botPermissions: bigint | null;
}

/** The channel's permissions for a user, with what computing them read; null for a non-member. */
export function permissionsInContext(
  context: ChannelAccessContext,
  userId: string,
  nowMs: number,
): bigint | null {
  const { member } = context;
  if (member?.userId !== userId) return null;
  return channelPermissions(
    {
      guildId: context.guild.id,
      ownerId: context.guild.ownerId,
      roles: new Map(context.roles.map((role) => [role.id, role])),
      member: {
        userId,
        roleIds: member.roleIds,
        communicationDisabledUntil: member.communicationDisabledUntil,
      },
      nowMs,
    },
    {
      type: context.channel.type,
      overwrites: context.overwrites.map((o) => ({
        id: o.targetId,
        type: o.type,
        allow: o.allow,
        deny: o.deny,
      })),
    },
  );
}

/** A user's permissions in a guild channel; null when they are not a member (or no channel). */
export async function permissionsIn(
  repos: Repositories,
  request: { channelId: string; userId: string; nowMs: number },
): Promise<bigint | null> {
  const context = await repos.channels.findAccessContext(request.channelId, request.userId);
  return context === null ? null : permissionsInContext(context, request.userId, request.nowMs);
}

/** Whether the user installed the app to their account (a live user-install grant). */
async function userInstalled(repos: Repositories, applicationId: string, userId: string) {
  const grant = await repos.oauth.findAuthorization(userId, applicationId);
  return (
    grant !== null &&
    grant.revokedAt === null &&
    grant.integrationType === USER_INSTALL &&
    grant.scopes.includes(COMMANDS_SCOPE)
  );
}

/**
 * Loads the place: 10002 for an unknown app, 10003 for an unknown channel (or one outside the
 * named guild), 50001 for a channel the user cannot view. `commands` (types 2 and 4) also needs
 * USE_APPLICATION_COMMANDS in a guild, and USE_EXTERNAL_APPS for an app only the user installed.
 */
export async function loadInvocationPlace(
  repos: Repositories,
  request: {
    applicationId: string;
    channelId: string;
    guildId: string | null;
    userId: string;
    nowMs: number;
    commands: boolean;
  },
): Promise<InvocationPlace> {
  const application = isSnowflake(request.applicationId)
    ? await repos.applications.findById(request.applicationId)
    : null;
  if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
  const access = await loadMessageChannel(repos, request);
  if (request.guildId !== null && request.guildId !== access.guildId) {
    throw new ApiError('UNKNOWN_CHANNEL');
  }
  access.require(P.VIEW_CHANNEL);
  const botId = application.botUserId;
  const owners: InvocationPlace['authorizingIntegrationOwners'] = {};
  if (await userInstalled(repos, application.id, request.userId)) owners['1'] = request.userId;
  if (access.guildId === null) {
    const recipients = access.privateChannel?.recipients ?? [];
    const botDm =
      access.channel.type === ChannelTypes.DM &&
      botId !== null &&
      recipients.some((r) => r.userId === botId);
    // The bot's own DM is the app's guild-install surface: the platform names it guild '0'.
    if (botDm) owners['0'] = '0';
    return {
      application,
      access,
      context: botDm ? InteractionContexts.BOT_DM : InteractionContexts.PRIVATE_CHANNEL,
      authorizingIntegrationOwners: owners,
      botInGuild: false,
      botPermissions: null,
    };
  }
  const botPermissions =
    botId === null
      ? null
      : await permissionsIn(repos, {
          channelId: access.channel.id,
          userId: botId,
          nowMs: request.nowMs,
        });
  const botInGuild = botPermissions !== null;
  if (botInGuild) owners['0'] = access.guildId;
  if (request.commands) {
    access.require(P.USE_APPLICATION_COMMANDS);
    if (
      !botInGuild &&
      owners['1'] !== undefined &&
      !hasAll(access.permissions, P.USE_EXTERNAL_APPS)
    ) {
      throw new ApiError('MISSING_PERMISSIONS');
    }
  }
  return {
    application,
    access,
    context: InteractionContexts.GUILD,
    authorizingIntegrationOwners: owners,
    botInGuild,
    botPermissions,
  };
}
