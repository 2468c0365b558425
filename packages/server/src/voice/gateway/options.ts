/**
 * @module voice/gateway/options: what a voice node is built from (its options, limits and
 * dependencies) and what it offers (listen, stats, close), with the default tuning.
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { EventBus } from '../../bus/index.js';
import type { Clock, Timers } from '../../domain/clock.js';
import type { DaveCall } from '../dave/index.js';
import type { MediaRelay, MediaRelayStats } from '../relay/index.js';
import type { VoicePlacement } from '../placement.js';
import type { VoiceTokens } from '../token.js';
import type { CurrentVoiceState } from '../voiceStates.js';

/** The user's voice state now (voiceStates.ts), for the Identify check. */
export type VoiceStateLookup = (q: {
  guildId: string | null;
  channelId: string;
  userId: string;
}) => Promise<CurrentVoiceState | null>;

/** The voice node's side of call placement (placement.ts). */
export type VoiceNodeRegistry = Pick<
  VoicePlacement,
  'register' | 'heartbeat' | 'release' | 'withdraw'
>;

export interface VoiceNodeOptions {
  host: string;
  /** The voice port (TCP for the WebSocket, UDP for media); 0: any free one. */
  port: number;
  /** The host VOICE_SERVER_UPDATE's endpoint names (no port). */
  endpointHost: string;
  /** The port it names; null: the port listened on. */
  endpointPort: number | null;
  maxMembersPerCall: number;
  heartbeatIntervalMs: number;
  /** How long a connection may stay without Identify or Resume. */
  identifyTimeoutMs: number;
  /** Open connections without Identify or Resume one client address may hold; more get 429. */
  maxUnidentifiedPerAddress: number;
  /** How long a member whose socket dropped keeps its place for a Resume. */
  resumeWindowMs: number;
  /** Frames one connection may send per 10 s. */
  framesPer10s: number;
}

/** A voice node's limits and waits (what the config does not name). */
export type VoiceNodeTuning = Omit<
  VoiceNodeOptions,
  'host' | 'port' | 'endpointHost' | 'endpointPort'
>;

export const DEFAULT_VOICE_NODE_OPTIONS: VoiceNodeTuning = {
  maxMembersPerCall: 99,
  heartbeatIntervalMs: 13_750,
  identifyTimeoutMs: 10_000,
  maxUnidentifiedPerAddress: 32,
  resumeWindowMs: 30_000,
  framesPer10s: 200,
};

export interface VoiceNodeDeps {
  options: VoiceNodeOptions;
  /**
   * The certificate and key the voice port serves, read (or made) at the first TLS connection, or
   * when it starts listening with `tlsAtListen`.
   */
  tls: () => Promise<{ cert: string; key: string }>;
  /** Whether the certificate is read before listening (the operator's files: errors stop it). */
  tlsAtListen?: boolean;
  clock: Clock;
  /** Where the node's periodic pass waits (the event loop's timers by default). */
  timers?: Timers;
  /** The client address of an upgrade (the socket's peer by default), for the unidentified cap. */
  clientAddress?: (request: IncomingMessage) => string;
  logger: Logger;
  bus: EventBus;
  tokens: Pick<VoiceTokens, 'verify'>;
  voiceState: VoiceStateLookup;
  /** Opens the media relay on a UDP port (the WebSocket's number). */
  openRelay: (host: string, port: number) => Promise<MediaRelay>;
  createDave: (channelId: string) => DaveCall;
  registry?: VoiceNodeRegistry;
}

export interface VoiceNodeStats {
  calls: number;
  members: number;
  connections: number;
  /** The media relay's counters (null before it listens). */
  relay: MediaRelayStats | null;
}

export interface VoiceNode {
  /** Listens; resolves to the endpoint (`host:port`) VOICE_SERVER_UPDATE names. */
  listen(): Promise<string>;
  endpoint(): string;
  stats(): VoiceNodeStats;
  close(): Promise<void>;
}
