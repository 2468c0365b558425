/**
 * @module rpc/commandArgs: what every RPC command shares: the context a command runs in (its
 * connection, the daemon's person and their client), its arguments and how bad ones are
 * refused, and the channel as RPC describes it.
 */
import { RpcErrorCodes, isSnowflake } from '@guildhall/protocol';
import { PlatformRequestError, type PlatformApi } from './platformApi.js';
import type { LocalClient } from './localClient.js';
import { RpcError, type ConsentDecider, type RpcApplication, type RpcUser } from './types.js';

/** An app's AUTHENTICATE: the token and its scopes. */
export interface RpcAuth {
  scopes: string[];
  accessToken: string;
}

/** A join request the game heard of (ACTIVITY_JOIN_REQUEST) and has not answered. */
export interface PendingJoinRequest {
  user: Record<string, unknown>;
  partyId: string;
}

/** What a command sees of its connection and of the daemon. */
export interface CommandContext {
  /** The handshake's client id, and its application. */
  clientId: string;
  application: RpcApplication;
  api: PlatformApi;
  user: RpcUser;
  /** The CDN's base URL (icons). */
  cdnBase: string;
  consent: ConsentDecider;
  auth: RpcAuth | null;
  setAuth(auth: RpcAuth): void;
  /** Publishes (or with null, clears) this connection's rich presence. */
  setActivity(activity: Record<string, unknown> | null): void;
  /** This connection's published activity. */
  activity(): Record<string, unknown> | null;
  /** Sends a `cmd: "DISPATCH"` event to this connection. */
  dispatch(evt: string, data: unknown): void;
  /** The person's client: their gateway session's view, voice and voice settings. */
  local: LocalClient;
  /** This connection's event subscriptions (`EVT` or `EVT:id`). */
  subscriptions: Set<string>;
  /** The join requests this game heard of, by the asking user's id. */
  joinRequests: Map<string, PendingJoinRequest>;
  /**
   * Checks with the platform that the AUTHENTICATE token still holds; a revoked one closes the
   * connection (4003) and throws.
   */
  verifyAuth(): Promise<void>;
}

/** A command's answer: its `data`, and the `evt` it names (SUBSCRIBE's). */
export interface CommandResult {
  data: unknown;
  evt?: string | null;
}

export type Args = Record<string, unknown>;
export type Handler = (
  ctx: CommandContext,
  args: Args,
  evt: string | null,
) => Promise<CommandResult>;

export interface CommandSpec {
  /** Needs an AUTHENTICATE whose token holds this scope. */
  scope?: string;
  run: Handler;
}

/**
 * What `what` (a command, or a SUBSCRIBE to an event) needs: an AUTHENTICATE whose token holds
 * `scope` and still holds (4006 before it or without the scope).
 */
export async function requireAuth(ctx: CommandContext, what: string, scope: string) {
  if (ctx.auth === null) {
    throw new RpcError(
      RpcErrorCodes.INVALID_PERMISSIONS,
      `${what} needs authentication: send AUTHENTICATE first.`,
    );
  }
  if (!ctx.auth.scopes.includes(scope)) {
    throw new RpcError(
      RpcErrorCodes.INVALID_PERMISSIONS,
      `${what} needs the ${scope} scope: AUTHORIZE with it.`,
    );
  }
  await ctx.verifyAuth();
}

export function stringArg(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') {
    throw new RpcError(RpcErrorCodes.INVALID_PAYLOAD, `args.${name} must be a string.`);
  }
  return value;
}

/** What an id argument names, and the error code for a bad one. */
export interface IdKind {
  arg: string;
  code: RpcError['code'];
  what: string;
}
export const GUILD: IdKind = { arg: 'guild_id', code: RpcErrorCodes.INVALID_GUILD, what: 'guild' };
export const CHANNEL: IdKind = {
  arg: 'channel_id',
  code: RpcErrorCodes.INVALID_CHANNEL,
  what: 'channel',
};
export const USER: IdKind = { arg: 'user_id', code: RpcErrorCodes.INVALID_USER, what: 'user' };

export function idArg(args: Args, kind: IdKind): string {
  const value = args[kind.arg];
  if (typeof value !== 'string' || !isSnowflake(value)) {
    throw new RpcError(kind.code, `Invalid ${kind.what} id: ${String(value)}`);
  }
  return value;
}

export function iconUrl(
  ctx: CommandContext,
  guild: { id: string; icon?: string | null },
): string | null {
  return guild.icon ? `${ctx.cdnBase}/icons/${guild.id}/${guild.icon}.png` : null;
}

/** A platform refusal of a guild or channel read, as the RPC error for it. */
export async function orInvalid<T>(request: Promise<T>, kind: IdKind): Promise<T> {
  try {
    return await request;
  } catch (err) {
    if (err instanceof PlatformRequestError && [400, 403, 404].includes(err.status)) {
      throw new RpcError(kind.code, `Invalid ${kind.what} id`);
    }
    throw err;
  }
}

export interface WireGuild {
  id: string;
  name: string;
  icon?: string | null;
}
export interface WireChannel {
  id: string;
  name?: string | null;
  type: number;
  guild_id?: string;
  topic?: string | null;
  bitrate?: number;
  user_limit?: number;
  position?: number;
}

/** A guild the person is in, or error 4003. */
export function readGuild(ctx: CommandContext, args: Args): Promise<WireGuild> {
  const id = idArg(args, GUILD);
  return orInvalid(ctx.api.get<WireGuild>(`/guilds/${id}`), GUILD);
}

/** A channel the person can see (GET /channels/{id} as them), or error 4005. */
export function readChannel(ctx: CommandContext, channelId: string): Promise<WireChannel> {
  return orInvalid(ctx.api.get<WireChannel>(`/channels/${channelId}`), CHANNEL);
}

/** GET_CHANNEL's answer: the channel, its voice states, no messages (the daemon keeps none). */
export function rpcChannel(ctx: CommandContext, c: WireChannel) {
  return {
    id: c.id,
    guild_id: c.guild_id ?? null,
    name: c.name ?? '',
    type: c.type,
    topic: c.topic ?? null,
    bitrate: c.bitrate ?? null,
    user_limit: c.user_limit ?? null,
    position: c.position ?? null,
    voice_states: ctx.local.voice.inChannel(c.id),
    messages: [],
  };
}
