/** @module gateway/session: a session, the connection it is served on, and its shard. */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { TokenGrant } from '../domain/tokenAccess.js';
import type { UserRecord } from '../storage/index.js';
import type { EncodedDispatch, Encoding, Transport } from './frames.js';

/** One identified session: it outlives its connection for RESUME. */
export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly user: UserRecord;
  readonly isApp: boolean;
  readonly applicationId: string | null;
  /**
   * An SDK session (an OAuth2 Bearer token with a Social SDK scope): no guilds, user-addressed
   * dispatches whatever its intents, op 3 activities of its token's application.
   */
  readonly sdk: boolean;
  /**
   * The kind and scopes of the token it logged in with: what it reads of its user's data
   * (gateway/tokenRouting.ts). A RESUME must bring a token of the same grant.
   */
  readonly grant: TokenGrant;
  readonly intents: number;
  readonly obfuscate: boolean;
  readonly largeThreshold: number;
  readonly shard: readonly [number, number];
  seq: number;
  readonly guildIds: Set<string>;
  /** The hash of the token the session last identified or resumed with; its revocation ends it. */
  credential: string;
  conn: Connection | null;
  detachedAt: number;
  /** The last dispatches sent, oldest first, for RESUME. */
  readonly replay: SentDispatch[];
  /**
   * Dispatches kept back, in order, while the session is not ready for them (before its READY,
   * or while another node hands it over); null once it receives them as they come.
   */
  held: HeldDispatch[] | null;
}

/**
 * The bus dispatch a session's dispatch came from: its envelope id, the same on every subject and
 * node, and when it was published (epoch ms, by the publisher's clock).
 */
export interface DispatchSource {
  id: string;
  publishedAt: number;
}

/**
 * A dispatch and the bus dispatch it came from, when it came from one: a node taking over a
 * session skips what the old node already sent.
 */
export interface HeldDispatch {
  event: EncodedDispatch;
  source: DispatchSource | null;
}

/** A dispatch as sent to a session, with its sequence number. */
export interface SentDispatch extends HeldDispatch {
  seq: number;
}

/** One WebSocket connection: before IDENTIFY, and then serving one session. */
export interface Connection {
  readonly ws: WebSocket;
  readonly transport: Transport;
  readonly encoding: Encoding;
  readonly version: number;
  /** The raw socket, corked while READY and the GUILD_CREATEs are written (fewer syscalls). */
  readonly socket: Duplex;
  lastBeatAt: number;
  windowStart: number;
  windowCount: number;
  session: Session | null;
  /** IDENTIFY or RESUME in progress. */
  busy: boolean;
}

/** The shard of a guild: (id >> 22) % count. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/** Whether the guild is in the session's shard. */
export function inShard(guildId: string, shard: readonly [number, number]): boolean {
  return shardOf(guildId, shard[1]) === shard[0];
}
