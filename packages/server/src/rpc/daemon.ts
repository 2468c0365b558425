/**
 * @module rpc/daemon: the local client's IPC side for one person (docs/rpc.md). It listens on the
 * first free `discord-ipc-{n}` (rpc/socketPath.ts), runs one {@link RpcConnection} per client,
 * and publishes the activities they set, each under its application, as the person's presence
 * through one gateway session (rpc/presenceLink.ts). A client's activity goes when it
 * disconnects.
 */
import { createServer, type Server } from 'node:net';
import { RpcCloseCodes } from '@guildhall/protocol';
import type { RpcConnection, RateLimit } from './connection.js';
import { connectEvents, type DispatchSource } from './eventHub.js';
import { MAX_FRAME_BYTES } from './framing.js';
import { ipcConnection } from './ipcTransport.js';
import type { LocalClient } from './localClient.js';
import { createSpeakingFollow, type SpeakingTarget } from './speakingFollow.js';
import { VoiceStates } from './voiceStates.js';
import { PlatformRequestError, type PlatformApi } from './platformApi.js';
import { listenOnFreeSocket } from './socketPath.js';
import { RPC_WS_PORTS, listenWebSocket, wsConnection } from './wsTransport.js';
import type { ConsentDecider, RpcApplication, RpcClientConfig, RpcUser } from './types.js';

/**
 * The person's gateway session (rpc/presenceLink.ts): what the daemon publishes through, hears
 * events from, and moves the person's voice state and voice settings with.
 */
export interface ActivityPublisher extends DispatchSource, Omit<LocalClient, 'voice' | 'speaking'> {
  setActivities(activities: Record<string, unknown>[]): void;
  /** Sends op 1001 (rpc/speakingFollow.ts). */
  followSpeaking(target: SpeakingTarget): boolean;
}

export interface RpcDaemonOptions {
  api: PlatformApi;
  publisher: ActivityPublisher;
  /** The person (GET /users/@me with the session token). */
  user: RpcUser;
  consent: ConsentDecider;
  /** Where the socket folder comes from (XDG_RUNTIME_DIR, TMPDIR…). */
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  limits?: Partial<RpcDaemonLimits>;
  now?: () => number;
  platform?: NodeJS.Platform;
  /** The local WebSocket's ports, the first free one taken (default 6463–6472; [] for none). */
  wsPorts?: readonly number[];
}

export interface RpcDaemonLimits {
  /** The longest frame read (bytes of JSON). */
  maxFrameBytes: number;
  /** Frames per connection per window before close 4002. */
  rateLimit: RateLimit;
  /** Clients connected at once; more are refused. */
  maxConnections: number;
  /** How long a client may stay connected without a HANDSHAKE (then CLOSE 1003). */
  handshakeTimeoutMs: number;
  /** How often an AUTHENTICATE token is checked again (a revoked one closes with 4003). */
  authCheckMs: number;
}

export const DEFAULT_RPC_DAEMON_LIMITS = {
  maxFrameBytes: MAX_FRAME_BYTES,
  rateLimit: { frames: 60, windowMs: 10_000 },
  maxConnections: 32,
  handshakeTimeoutMs: 30_000,
  authCheckMs: 60_000,
} as const satisfies RpcDaemonLimits;

export interface RpcDaemon {
  /** The socket (or pipe) path the daemon listens on. */
  readonly path: string;
  /** The local WebSocket's port; null when none of its ports was free (or none was asked). */
  readonly wsPort: number | null;
  /** How many clients are connected. */
  connections(): number;
  close(): Promise<void>;
}

/** A valid S256 challenge: the application lookup asks the local authorize route, which wants one. */
const LOOKUP_CHALLENGE = 'A'.repeat(43);

/**
 * The application of a client id, from the local authorize route's description of a harmless
 * request (it issues nothing); null when the platform does not know the id.
 */
export function applicationLookup(api: PlatformApi) {
  return async (clientId: string): Promise<RpcApplication | null> => {
    try {
      const info = await api.get<{ application: RpcApplication }>('/oauth2/authorize/local', {
        client_id: clientId,
        scope: 'identify',
        response_type: 'code',
        code_challenge: LOOKUP_CHALLENGE,
        code_challenge_method: 'S256',
      });
      return info.application;
    } catch (err) {
      // Everything but the client id is fixed and valid: a 400 is the unknown client.
      if (err instanceof PlatformRequestError && err.status === 400) return null;
      throw err;
    }
  };
}

/** READY's config for the API at `apiBase`, and the CDN base (the platform's origin). */
export function clientConfigOf(apiBase: string): { config: RpcClientConfig; cdnBase: string } {
  const url = new URL(apiBase);
  return {
    config: {
      cdn_host: url.host,
      api_endpoint: `//${url.host}${url.pathname.replace(/\/v\d+$/, '')}`,
      environment: 'production',
    },
    cdnBase: url.origin,
  };
}

/** Starts the daemon; resolves once it listens. */
export async function startRpcDaemon(options: RpcDaemonOptions): Promise<RpcDaemon> {
  const limits = { ...DEFAULT_RPC_DAEMON_LIMITS, ...options.limits };
  const { config, cdnBase } = clientConfigOf(options.api.apiBase);
  const live = new Set<RpcConnection>();
  const activities = new Map<RpcConnection, Record<string, unknown>>();
  const link = options.publisher;
  const publish = () => {
    link.setActivities([...activities.values()]);
  };
  const local: LocalClient = {
    voice: new VoiceStates(options.user.id),
    sendVoiceState: (state) => link.sendVoiceState(state),
    voiceSettings: () => link.voiceSettings(),
    changeVoiceSettings: (change) => {
      link.changeVoiceSettings(change);
    },
    sessionId: () => link.sessionId(),
    activitiesOf: (userId) => link.activitiesOf(userId),
    speaking: createSpeakingFollow({
      send: (target) => {
        link.followSpeaking(target);
      },
      held: () => live,
    }),
  };
  connectEvents({ source: link, local, personId: options.user.id, targets: () => live });
  const deps = {
    local,
    authCheckMs: limits.authCheckMs,
    api: options.api,
    user: options.user,
    config,
    cdnBase,
    consent: options.consent,
    rateLimit: limits.rateLimit,
    maxFrameBytes: limits.maxFrameBytes,
    handshakeTimeoutMs: limits.handshakeTimeoutMs,
    findApplication: applicationLookup(options.api),
    setActivity: (connection: RpcConnection, activity: Record<string, unknown> | null) => {
      if (activity === null) activities.delete(connection);
      else activities.set(connection, activity);
      publish();
    },
    log: options.log,
    now: options.now ?? Date.now,
  };
  const track = (connection: RpcConnection, closed: (done: () => void) => void) => {
    live.add(connection);
    closed(() => {
      live.delete(connection);
      if (activities.delete(connection)) publish();
      local.speaking.changed();
    });
  };
  const server: Server = createServer((socket) => {
    track(ipcConnection(socket, deps), (done) => socket.once('close', done));
  });
  server.maxConnections = limits.maxConnections;
  const path = await listenOnFreeSocket(server, options.env, options.platform);
  const ports = options.wsPorts ?? RPC_WS_PORTS;
  const ws = await listenWebSocket(ports, {
    maxPayload: limits.maxFrameBytes,
    onConnection: (socket, request) => {
      if (live.size >= limits.maxConnections) {
        // 1013: try again later.
        socket.close(1013, 'Too many clients.');
        return;
      }
      const connection = wsConnection(socket, request, deps);
      if (connection !== null) track(connection, (done) => socket.once('close', done));
    },
  });
  if (ws === null && ports.length > 0) {
    options.log(
      `rpc: ports ${ports[0]}–${ports.at(-1)} are all taken: the WebSocket transport is not served`,
    );
  }
  return {
    path,
    wsPort: ws?.port ?? null,
    connections: () => live.size,
    close: async () => {
      await ws?.close();
      for (const connection of live) {
        connection.close(RpcCloseCodes.CLOSE_NORMAL, 'The daemon is stopping.');
      }
      if (activities.size > 0) {
        activities.clear();
        publish();
      }
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
