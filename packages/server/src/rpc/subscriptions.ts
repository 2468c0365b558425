/**
 * @module rpc/subscriptions: SUBSCRIBE and UNSUBSCRIBE (docs/rpc.md, Events). Each event says
 * what it needs: the person's guild, channel and voice events an AUTHENTICATE with `rpc` (and,
 * for a guild or channel, that the person can see it); the game's own activity events only the
 * handshake. A subscription is kept per connection under `EVT` or `EVT:id`; the daemon sends an
 * event to the connections holding its key (rpc/eventHub.ts).
 */
import { RpcErrorCodes } from '@guildhall/protocol';
import {
  CHANNEL,
  GUILD,
  iconUrl,
  idArg,
  readChannel,
  readGuild,
  requireAuth,
  type Args,
  type CommandContext,
  type Handler,
  type IdKind,
} from './commandArgs.js';
import { RpcError } from './types.js';

interface EventSpec {
  /** The scope an AUTHENTICATE must hold; null: the handshake is enough. */
  scope: string | null;
  /** The id argument that narrows it. */
  arg: IdKind | null;
}

const PERSON = { scope: 'rpc', arg: null } as const;
const PER_CHANNEL = { scope: 'rpc', arg: CHANNEL } as const;
const GAME = { scope: null, arg: null } as const;

const EVENTS: Readonly<Record<string, EventSpec>> = {
  GUILD_STATUS: { scope: 'rpc', arg: GUILD },
  GUILD_CREATE: PERSON,
  CHANNEL_CREATE: PERSON,
  VOICE_CHANNEL_SELECT: PERSON,
  VOICE_SETTINGS_UPDATE: PERSON,
  VOICE_STATE_CREATE: PER_CHANNEL,
  VOICE_STATE_UPDATE: PER_CHANNEL,
  VOICE_STATE_DELETE: PER_CHANNEL,
  MESSAGE_CREATE: PER_CHANNEL,
  MESSAGE_UPDATE: PER_CHANNEL,
  MESSAGE_DELETE: PER_CHANNEL,
  // Followed through the gateway (op 1001), the daemon being in no call: rpc/speakingFollow.ts.
  SPEAKING_START: PER_CHANNEL,
  SPEAKING_STOP: PER_CHANNEL,
  ACTIVITY_JOIN: GAME,
  ACTIVITY_SPECTATE: GAME,
  ACTIVITY_JOIN_REQUEST: GAME,
  ACTIVITY_INVITE: GAME,
  // The Connected Game flow: the person asked, in the web client, to link this game.
  AUTHORIZE_REQUEST: GAME,
};

/** Why a known platform event is refused. */
const UNSUPPORTED_EVENTS: Readonly<Record<string, string>> = {
  VOICE_CONNECTION_STATUS: 'the daemon holds no voice connection',
  NOTIFICATION_CREATE: 'the daemon shows no notifications',
  CAPTURE_SHORTCUT_CHANGE: 'the daemon reads no keyboard',
};

/** The events a SUBSCRIBE is answered for, for the docs' table and the tests. */
export const SUPPORTED_EVENTS = Object.keys(EVENTS);

/** The subscription key of an event, narrowed by its id. */
export function eventKey(evt: string, id: string | null = null): string {
  return id === null ? evt : `${evt}:${id}`;
}

async function checked(ctx: CommandContext, args: Args, evt: string | null) {
  const spec = evt === null ? undefined : EVENTS[evt];
  if (evt === null || spec === undefined) {
    const why = evt === null ? undefined : UNSUPPORTED_EVENTS[evt];
    throw new RpcError(
      RpcErrorCodes.INVALID_EVENT,
      why === undefined ? `Unknown event ${String(evt)}.` : `${evt} is not sent: ${why}.`,
    );
  }
  if (spec.scope !== null) await requireAuth(ctx, `SUBSCRIBE ${evt}`, spec.scope);
  if (spec.arg === null) return { evt, key: eventKey(evt), guild: null };
  const id = idArg(args, spec.arg);
  if (spec.arg === GUILD) return { evt, key: eventKey(evt, id), guild: await readGuild(ctx, args) };
  const channel = await readChannel(ctx, id);
  return { evt, key: eventKey(evt, id), guild: null, channel };
}

/** Whether an event is one of who speaks (followed through the gateway). */
const isSpeaking = (evt: string) => evt === 'SPEAKING_START' || evt === 'SPEAKING_STOP';

/**
 * SUBSCRIBE `evt` `{guild_id | channel_id}`: answered `{evt}`; the events follow. GUILD_STATUS
 * comes once at once with `online` 0 (the platform stopped counting online members).
 */
export const subscribe: Handler = async (ctx, args, given) => {
  const { evt, key, guild, channel } = await checked(ctx, args, given);
  ctx.subscriptions.add(key);
  // A guild channel's speakers; a DM's call has no feed (its members are in the call).
  const guildId = channel?.guild_id;
  if (isSpeaking(evt) && channel !== undefined && guildId !== undefined) {
    ctx.local.speaking.subscribed(channel.id, guildId);
  }
  if (guild !== null) {
    queueMicrotask(() => {
      ctx.dispatch('GUILD_STATUS', {
        guild: { id: guild.id, name: guild.name, icon_url: iconUrl(ctx, guild) },
        online: 0,
      });
    });
  }
  return { data: { evt }, evt };
};

export const unsubscribe: Handler = async (ctx, args, given) => {
  const { evt, key } = await checked(ctx, args, given);
  ctx.subscriptions.delete(key);
  if (isSpeaking(evt)) ctx.local.speaking.changed();
  return { data: { evt }, evt };
};
