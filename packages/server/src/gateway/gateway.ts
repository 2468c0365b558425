/**
 * @module gateway/gateway: the WebSocket gateway of one node, wired from its parts:
 *
 * - connection.ts: the connection loop (upgrade, frames parsed by clientOps.ts, close);
 * - handshake.ts, login.ts, guildCreate.ts: IDENTIFY, RESUME, READY and GUILD_CREATE;
 * - registry.ts, handoff.ts, recovery.ts: the sessions, and their handoff to another node on
 *   RESUME (from the bus history when the node serving them died);
 * - fanout.ts, routing.ts, send.ts: the bus's dispatches to the sessions, per the routing rules;
 * - commands.ts: op 3, 4, 8, 31 and 43;
 * - sweep.ts: heartbeats, the identify timeout and the resume window.
 */
import type { IncomingMessage, Server } from 'node:http';
import {
  GatewayCloseCodes as Close,
  GatewayOpcodes as Op,
  GuildhallGatewayOpcodes as GuildhallOp,
} from '@guildhall/protocol';
import type { Logger } from 'pino';
import type { BusGap, EventBus } from '../bus/index.js';
import { realTimers, type Timers } from '../domain/clock.js';
import type { GatewayHooks, SessionAction } from './hooks.js';
import { performSessionAction } from './sessionActions.js';
import type { Clock } from '../domain/clock.js';
import {
  GUILD_SUBJECT_PREFIX,
  SPEAKING_SUBJECT_PREFIX,
  USER_SUBJECT_PREFIX,
  type Dispatcher,
} from '../events/dispatcher.js';
import type { Revocation } from '../events/revocations.js';
import type { Authenticator } from '../http/authenticator.js';
import type { SessionStartLimit } from '../resources/gatewayInfo/index.js';
import type { SharedState } from '../sharedState/index.js';
import type { Storage } from '../storage/index.js';
import { createCommands, InvalidCommandError, type CommandContext } from './commands.js';
import { createConnections } from './connection.js';
import { createFanout } from './fanout.js';
import { EncodedDispatch } from './frames.js';
import { createGuildDirectory, type GuildDirectory } from './guildDirectory.js';
import { createGuildJoin } from './guildCreate.js';
import { createHandoff } from './handoff.js';
import { createHandshake } from './handshake.js';
import { createLifecycle } from './lifecycle.js';
import { gatewayMetricLines } from './metrics.js';
import { createLogin } from './login.js';
import { DEFAULT_GATEWAY_OPTIONS, type GatewayOptions } from './options.js';
import { createPresences } from './presences.js';
import { createRecovery } from './recovery.js';
import { createSessionRegistry, type SessionRegistry } from './registry.js';
import { createSpeakingWatch } from './speakingWatch.js';
import { createSender, type Sender } from './send.js';
import { socialProviders, type SocialProviders } from './social.js';
import type { Session } from './session.js';
import { LOCAL_SESSION_STORE, type SessionStore } from './sessionStore.js';
import { createSubjectSubscriptions } from '../bus/subscriptions.js';
import { startSweep } from './sweep.js';
import type { CallLifecycle } from '../resources/calls/index.js';
import type { VoiceServers } from './voiceServer.js';

export type { Session } from './session.js';

/** How long a closing gateway waits for a connection to close before it drops it, ms. */
const CLOSE_GRACE_MS = 1000;
/** The close a gateway that shuts down sends (service restart). */
const SERVICE_RESTART = 1012;
/** dropAll's default close: resumable. */
const DROPPED = 4000;

export interface GatewayDeps {
  storage: Storage;
  bus: EventBus;
  /** The platform's clock: what dated rules read (member timeouts, dated rules, op 8's window). */
  clock: Clock;
  /**
   * The real clock of what the client drives over the wire: heartbeats, the identify deadline,
   * the resume window, the identify queue, presences, sessions shared between nodes. Default:
   * `clock`.
   */
  wireClock?: Clock;
  logger: Logger;
  authenticator: Pick<Authenticator, 'authenticate'>;
  sessionStartLimit: SessionStartLimit;
  /**
   * The identify buckets, presences and the op 8 window: in this process, or in Redis when
   * several gateway nodes serve one platform.
   */
  sharedState: Pick<SharedState, 'identifyBuckets' | 'presences' | 'rateLimits'>;
  /** Where the gateway's own commands announce what they changed (presence, voice states). */
  events: Dispatcher;
  /** The URL READY names as resume_gateway_url. */
  gatewayUrl: () => string;
  options?: Partial<GatewayOptions>;
  /** Where sessions live for a RESUME on another node; this node's memory by default. */
  sessionStore?: SessionStore;
  /**
   * The client's address for the cap on unidentified connections (behind a trusted proxy, the
   * forwarded one); the socket's peer by default.
   */
  clientAddress?: (request: IncomingMessage) => string;
  /** Where the gateway's waits (sweep, identify queue, handoff, shutdown) come from. */
  timers?: Timers;
  /**
   * The social graph SDK sessions see (READY's relationships, private channels, lobbies; the
   * friends a presence goes to); each part missing shows nothing.
   */
  social?: Partial<SocialProviders>;
  /**
   * The voice nodes op 4 sends a session to (VOICE_SERVER_UPDATE); absent: op 4 keeps voice
   * states only.
   */
  voice?: VoiceServers;
  /** DM and group-DM calls (op 4 naming a private channel); absent: none. */
  calls?: CallLifecycle;
  /** What a test harness watches and bends (gateway/hooks.ts, control/); absent: nothing. */
  hooks?: GatewayHooks;
  /**
   * A person's last session on this node ended for good (not handed to another node), after
   * their presence went offline: what else follows them out (activities/participantWatch.ts).
   */
  onPersonGone?: (userId: string) => void;
}

export interface Gateway {
  /** Starts receiving dispatches from the bus. */
  start(): Promise<void>;
  /** Serves WebSocket upgrades at /gateway and /gateway/ of `server`. */
  attach(server: Server): void;
  /** Open connections. */
  connectionCount(): number;
  /** Identified sessions, connected or waiting for a RESUME. */
  sessionCount(): number;
  /** The gateway's figures in Prometheus's text format (for /metrics). */
  metricLines(): string[];
  /** Drops every connection without a word (sessions stay resumable); for tests of RESUME. */
  dropAll(code?: number): void;
  /** Asks every connection for a heartbeat now (op 1). */
  requestHeartbeats(): void;
  /** Whether the node watches a bus subject now (a guild's or a user's; docs/gateway.md). */
  watches(subject: string): boolean;
  /** The sessions of a user (for voice state checks). */
  sessionsOf(userId: string): readonly Session[];
  /** Ends every session opened or resumed with a revoked credential: close 4004, no RESUME. */
  revoke(revocation: Pick<Revocation, 'tokenHashes' | 'userIds'>): void;
  /**
   * Does `action` (op 7, op 9, a close) to each connected session `take` accepts, in the order
   * they identified; how many it did it to.
   */
  act(take: (session: Session) => boolean, action: SessionAction): number;
  /**
   * Ends every session of this node (no RESUME: its client identifies again) and closes every
   * connection with 4000, for a server returned to a snapshot (control/reset.ts).
   */
  endAll(): void;
  /** Sends op 7 RECONNECT to every session, closes every connection and stops. */
  close(): Promise<void>;
}

/**
 * The bus could not deliver some of a subject's dispatches (it was unreachable and keeps no
 * history of them): the sessions that should have had them cannot be resumed whole, so each
 * gets INVALID_SESSION (not resumable) and identifies anew, rather than going on without them.
 */
function invalidateWatchers(
  parts: { guilds: GuildDirectory; registry: SessionRegistry; send: Sender; logger: Logger },
  subject: string,
  gap: BusGap,
) {
  const { guilds, registry, send, logger } = parts;
  const watchers = subject.startsWith(GUILD_SUBJECT_PREFIX)
    ? guilds.get(subject.slice(GUILD_SUBJECT_PREFIX.length))?.sessions
    : registry.ofUser(subject.slice(USER_SUBJECT_PREFIX.length));
  if (watchers === undefined || watchers.size === 0) return;
  logger.warn(
    { subject, reason: gap.reason, sessions: watchers.size },
    'gateway: dispatches missed while the bus was unreachable; sessions invalidated',
  );
  for (const session of [...watchers]) {
    const conn = session.conn;
    session.conn = null;
    registry.drop(session);
    if (conn === null) continue;
    // The connection stays open: the client may IDENTIFY on it again.
    conn.session = null;
    send.invalidSession(conn, { resumable: false, reason: 'bus_gap', session });
  }
}

export function createGateway(deps: GatewayDeps): Gateway {
  const { storage, bus, clock, logger } = deps;
  const wireClock = deps.wireClock ?? clock;
  const options: GatewayOptions = { ...DEFAULT_GATEWAY_OPTIONS, ...deps.options };
  const timers = deps.timers ?? realTimers;
  const social = socialProviders(deps.social);
  const sessionStore = deps.sessionStore ?? LOCAL_SESSION_STORE;
  const state = { closing: false };
  const closing = () => state.closing;

  // Each part is built after the parts it uses. The subjects' events go to the fan-out, which
  // reads the sessions that acquire the subjects: it is handed to them once built (below).
  const subscriptions = createSubjectSubscriptions({ bus });
  const hooks = deps.hooks ?? {};
  const lifecycle = createLifecycle(logger);
  const send = createSender({ options, sessionStore, hooks, clock: wireClock, timers, lifecycle });
  const presences = createPresences({
    store: deps.sharedState.presences,
    clock: wireClock,
    timers,
    onError: (err) => {
      logger.warn({ err }, 'gateway: presences not refreshed');
    },
  });
  const guilds = createGuildDirectory({ storage, subscriptions, presences });
  const speaking = createSpeakingWatch({
    subscriptions,
    guilds,
    send,
    clock,
    onError: (err) => {
      logger.warn({ err }, 'gateway: speaking feed not watched');
    },
  });
  const commands = createCommands({
    presences,
    rateLimits: deps.sharedState.rateLimits,
    voice: deps.voice ?? null,
    calls: deps.calls ?? null,
  });
  const commandContext = (session: Session | null): CommandContext => ({
    storage,
    clock,
    wireClock,
    events: deps.events,
    guild: (guildId) => guilds.get(guildId),
    friendIds: social.friendIds,
    reply: (type, data) => {
      if (session !== null) send.deliver(session, new EncodedDispatch(type, data));
    },
  });
  const registry = createSessionRegistry({
    sessionStore,
    guilds,
    send,
    subscriptions,
    onPersonGone: (userId) => {
      commands.personGone(commandContext(null), userId).catch((err: unknown) => {
        logger.warn({ err }, 'gateway: offline presence not announced');
      });
      deps.onPersonGone?.(userId);
    },
    onSessionEnded: (session) => {
      speaking.forget(session);
      commands.sessionEnded(commandContext(null), session.id).catch((err: unknown) => {
        logger.warn({ err }, 'gateway: voice states of an ended session not ended');
      });
    },
  });
  const joinGuild = createGuildJoin({ clock, guilds, registry, send });
  const fanout = createFanout({
    storage,
    clock,
    logger,
    registry,
    guilds,
    send,
    joinGuild,
    presences,
    sent: () => lifecycle.stats.dispatchesSent,
  });
  subscriptions.deliverTo({
    handler: (event, subject) => {
      if (subject.startsWith(SPEAKING_SUBJECT_PREFIX)) speaking.receive(event);
      else fanout.receive(event, subject);
    },
    onGap: (subject, gap) => {
      // A missed speaking change is not worth a session: the next one says who speaks.
      if (subject.startsWith(SPEAKING_SUBJECT_PREFIX)) return;
      invalidateWatchers({ guilds, registry, send, logger }, subject, gap);
    },
  });
  const handoff = createHandoff({
    storage,
    bus,
    clock: wireClock,
    timers,
    sessionStore,
    registry,
    send,
    joinGuild,
    recover: createRecovery({
      history: bus.history,
      fanout,
      replayed: (recovered) => {
        lifecycle.historyReplayed(recovered);
      },
    }),
    lifecycle,
  });
  const handshake = createHandshake({
    storage,
    clock,
    wireClock,
    hooks,
    timers,
    options,
    sessionStartLimit: deps.sessionStartLimit,
    identifyBuckets: deps.sharedState.identifyBuckets,
    sessionStore,
    gatewayUrl: deps.gatewayUrl,
    login: createLogin({ storage, clock, authenticator: deps.authenticator, options }),
    registry,
    handoff,
    send,
    lifecycle,
    joinGuild,
    holdGuilds: guilds.holdMany,
    closing,
    social,
    presences,
    setPresence: (session, presence) =>
      commands.run(commandContext(session), {
        session,
        frame: { op: Op.PRESENCE_UPDATE, d: presence },
      }),
  });
  const connections = createConnections({
    clock: wireClock,
    hooks,
    logger,
    lifecycle,
    options,
    send,
    clientAddress:
      deps.clientAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? ''),
    closing,
    handlers: {
      login: (conn, frame, admit) =>
        frame.op === Op.IDENTIFY
          ? handshake.identify(conn, frame.d, admit)
          : handshake.resume(conn, frame.d, admit),
      async command(conn, session, frame) {
        try {
          if (frame.op === GuildhallOp.SPEAKING_SUBSCRIBE) speaking.follow(session, frame.d);
          else await commands.run(commandContext(session), { session, frame });
        } catch (err) {
          if (!(err instanceof InvalidCommandError)) throw err;
          send.close(conn, Close.UNKNOWN_OPCODE, 'Invalid payload for opcode.');
        }
      },
      detached(session, ended) {
        if (ended) registry.drop(session);
      },
    },
  });
  const sweep = startSweep({
    clock: wireClock,
    timers,
    options,
    connections: connections.all,
    identifyOverdue: connections.identifyOverdue,
    registry,
    send,
  });

  return {
    async start() {
      presences.start(() => registry.users());
      await handoff.start();
    },
    attach: connections.attach,
    connectionCount: () => connections.all.size,
    sessionCount: () => registry.size(),
    metricLines: () =>
      gatewayMetricLines(lifecycle.stats, {
        connections: connections.all,
        sessions: registry.size(),
      }),
    dropAll(code = DROPPED) {
      for (const conn of connections.all) send.close(conn, code, 'Dropped.');
    },
    requestHeartbeats() {
      for (const conn of connections.all) send.control(conn, Op.HEARTBEAT, null);
    },
    watches: (subject) => subscriptions.watches(subject),
    sessionsOf: (userId) => [...(registry.ofUser(userId) ?? [])],
    revoke: registry.revoke,
    act(take, action) {
      let done = 0;
      for (const session of registry.all()) {
        const conn = session.conn;
        if (conn === null || !take(session)) continue;
        performSessionAction({ send, registry, timers }, conn, action);
        done++;
      }
      return done;
    },
    endAll() {
      for (const session of [...registry.all()]) {
        session.conn = null;
        registry.drop(session);
      }
      for (const conn of connections.all) send.close(conn, DROPPED, 'Session ended.');
    },
    async close() {
      state.closing = true;
      sweep.stop();
      presences.stop();
      handshake.close();
      // Until the connections are closed the node keeps its subjects and answers RELEASE: a
      // session resuming on another node meanwhile is handed over with nothing lost.
      const closed = [...connections.all].map(
        (conn) =>
          new Promise<void>((resolve) => {
            const cancel = timers.schedule(() => {
              conn.ws.terminate();
              resolve();
            }, CLOSE_GRACE_MS);
            conn.ws.once('close', () => {
              cancel();
              resolve();
            });
            send.control(conn, Op.RECONNECT, null);
            send.close(conn, SERVICE_RESTART, 'Server restarting.');
          }),
      );
      await Promise.all(closed);
      handoff.stop();
      subscriptions.close();
      connections.closeServer();
      await sessionStore.close();
    },
  };
}
