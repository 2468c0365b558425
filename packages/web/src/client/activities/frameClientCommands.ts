/**
 * The frame protocol's commands on the client itself (docs/activities.md#the-frame-protocol):
 * the activity's channel and its permissions, the participants, the person's relationships and
 * locale, the rich presence (SET_ACTIVITY), external links, the app's logs, and the platform
 * behaviours and orientation lock a desktop browser has none of. The host (frameProtocol.ts)
 * runs them with its scopes; the store, user, invite and share commands are frameCommands.ts's.
 *
 * @module
 */
import { RpcErrorCodes } from '@guildhall/protocol';
import {
  FrameCommandError,
  LOG_LEVELS,
  invalid,
  isExternalUrl,
  presenceFromArgs,
  stringArg,
  type Args,
} from './frameArgs.js';
import type { FrameAbilities, FrameContext } from './frameHostTypes.js';

/** What a client command may use of its frame. */
export interface ClientCommandFrame {
  context: FrameContext;
  abilities: FrameAbilities;
  /** 4006 unless AUTHENTICATE granted the scope. */
  requireScope(scope: string): void;
  /** The application's name, as AUTHENTICATE's answer gave it (the presence's name). */
  applicationName(): string;
  now(): number;
}

type ClientCommand = (frame: ClientCommandFrame, args: Args) => unknown;

/** The scopes GET_CHANNEL needs for a channel: guilds in a guild, dm_channels.read otherwise. */
function channelScope(guildId: string | null): string {
  return guildId === null ? 'dm_channels.read' : 'guilds';
}

function getChannel(frame: ClientCommandFrame, args: Args): unknown {
  const channelId = stringArg(args, 'channel_id');
  const channel = frame.abilities.channel(channelId);
  if (channel === null) {
    throw new FrameCommandError(RpcErrorCodes.INVALID_CHANNEL, `Invalid channel id: ${channelId}`);
  }
  const guildId = (channel as { guild_id?: string | null }).guild_id ?? null;
  frame.requireScope(channelScope(guildId));
  return channel;
}

function setActivity(frame: ClientCommandFrame, args: Args): unknown {
  frame.requireScope('rpc.activities.write');
  if (!('activity' in args)) throw invalid('activity is required');
  const activity = presenceFromArgs(
    args['activity'],
    { id: frame.context.applicationId, name: frame.applicationName() },
    frame.now(),
  );
  frame.abilities.setActivity(activity);
  // The answer is the activity as published (the SDK's Activity schema); null clears it.
  return activity;
}

async function openExternalLink(
  frame: ClientCommandFrame,
  args: Args,
): Promise<{ opened: boolean }> {
  const url = stringArg(args, 'url');
  if (!isExternalUrl(url)) throw invalid('url must be an http or https URL');
  return { opened: await frame.abilities.openExternalLink(url) };
}

function captureLog(frame: ClientCommandFrame, args: Args): null {
  const level = stringArg(args, 'level');
  if (!LOG_LEVELS.has(level)) throw invalid('level must be log, warn, debug, info or error');
  const message = args['message'];
  if (typeof message !== 'string') throw invalid('message must be a string');
  frame.abilities.captureLog(level, message);
  return null;
}

function channelPermissions(frame: ClientCommandFrame): { permissions: string } {
  frame.requireScope('guilds.members.read');
  const permissions = frame.abilities.channelPermissions();
  if (permissions === null) {
    throw new FrameCommandError(RpcErrorCodes.INVALID_CHANNEL, 'Not in a guild channel');
  }
  return { permissions: permissions.toString() };
}

/**
 * Accepted and kept to itself: a desktop browser window has no orientation to lock (as the
 * platform's desktop client, which answers the same).
 */
function orientationLock(_frame: ClientCommandFrame, args: Args): null {
  for (const key of ['lock_state', 'picture_in_picture_lock_state', 'grid_lock_state']) {
    const value = args[key];
    if (key !== 'lock_state' && (value === undefined || value === null)) continue;
    if (value !== 1 && value !== 2 && value !== 3) {
      throw invalid(`${key} must be 1 (unlocked), 2 (portrait) or 3 (landscape)`);
    }
  }
  return null;
}

/** Every command this module answers, by name. */
export const CLIENT_COMMANDS: Record<string, ClientCommand> = {
  GET_CHANNEL: getChannel,
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS: (frame) => ({
    participants: frame.abilities.participants(),
  }),
  GET_RELATIONSHIPS: (frame) => {
    frame.requireScope('relationships.read');
    return { relationships: frame.abilities.relationships() };
  },
  SET_ACTIVITY: setActivity,
  OPEN_EXTERNAL_LINK: openExternalLink,
  CAPTURE_LOG: captureLog,
  USER_SETTINGS_GET_LOCALE: (frame) => {
    frame.requireScope('identify');
    return { locale: frame.abilities.locale() };
  },
  GET_CHANNEL_PERMISSIONS: channelPermissions,
  // The web client has none of the mobile behaviours this reports (iOS keyboard resizing).
  GET_PLATFORM_BEHAVIORS: () => ({}),
  SET_ORIENTATION_LOCK_STATE: orientationLock,
};
