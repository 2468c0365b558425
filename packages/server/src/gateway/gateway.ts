import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  ALL_INTENTS,
  GatewayCapabilities,
  GatewayCloseCodes as Close,
  GatewayIntentBits as I,
  GatewayOpcodes as Op,
  PRIVILEGED_INTENTS,
  PermissionFlags as P,
} from '@guildhall/protocol';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { EventBus, Subscription } from '../bus/index.js';
import type { Clock } from '../domain/clock.js';
import { ALL_DISPATCHES, type DispatchEnvelope, type Dispatcher } from '../events/dispatcher.js';
import { canManageInvites } from '../domain/permissions.js';
import type { Revocation } from '../events/revocations.js';
import type { Authenticator, Principal } from '../http/authenticator.js';
import type { SessionStartLimit } from '../resources/gatewayInfo/index.js';
import { serializeMember } from '../resources/members/index.js';
import { serializeUser } from '../resources/users/index.js';
import type { ApplicationRecord, MemberRecord, Storage, UserRecord } from '../storage/index.js';
import {
  EncodedDispatch,
  FrameDecodeError,
  PreserializedDispatch,
  Transport,
  controlFrame,
  decodeFrame,
  type Encoding,
} from './frames.js';
import {
  GuildState,
  loadGuild,
  obfuscateChannel,
  scalarText,
  type GuildSnapshot,
} from './guildState.js';
import { IdentifyQueue } from './identifyQueue.js';
import { intentFor } from './intents.js';
import { LOCAL_SESSION_STORE, type SessionStore, type StoredSession } from './sessionStore.js';
import {
  createCommands,
  InvalidCommandError,
  type CommandContext,
  guildPresenceWire,
  type Presence,
} from './commands.js';
import { guildDispatchVariants } from './filters.js';
import { privilegedIntentsAllowed } from './privileged.js';
import {
  CHANNEL_OBFUSCATION_MANDATORY_FROM_MS,
  DEFAULT_GATEWAY_OPTIONS,
  type GatewayOptions,
} from './options.js';

/** One identified session: it outlives its connection for RESUME. */
export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly user: UserRecord;
  readonly isApp: boolean;
  readonly applicationId: string | null;
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
  readonly replay: { seq: number; event: EncodedDispatch }[];
}

interface Connection {
  readonly ws: WebSocket;
  readonly transport: Transport;
  readonly encoding: Encoding;
  readonly version: number;
  /** The raw socket, corked while READY and the GUILD_CREATEs are written (fewer syscalls). */
  readonly socket: Duplex;
  lastBeatAt: number;
  readonly openedAt: number;
  /** The client address while the connection counts as unidentified; null once admitted. */
  unidentifiedFrom: string | null;
  windowStart: number;
  windowCount: number;
  session: Session | null;
  /** IDENTIFY or RESUME in progress. */
  busy: boolean;
}

export interface GatewayDeps {
  storage: Storage;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  authenticator: Pick<Authenticator, 'authenticate'>;
  sessionStartLimit: SessionStartLimit;
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
  /** Drops every connection without a word (sessions stay resumable); for tests of RESUME. */
  dropAll(code?: number): void;
  /** Asks every connection for a heartbeat now (op 1). */
  requestHeartbeats(): void;
  /** The sessions of a user (for voice state checks). */
  sessionsOf(userId: string): readonly Session[];
  /** Ends every session opened or resumed with a revoked credential: close 4004, no RESUME. */
  revoke(revocation: Revocation): void;
  /** Sends op 7 RECONNECT to every session, closes every connection and stops. */
  close(): Promise<void>;
}

/** Dispatches that can change which channels a session's user may view (besides the channel's own). */
const VISIBILITY_EVENTS = new Set([
  'GUILD_ROLE_CREATE',
  'GUILD_ROLE_UPDATE',
  'GUILD_ROLE_DELETE',
  'GUILD_MEMBER_UPDATE',
  'GUILD_UPDATE',
]);

/** Dispatches only sessions that may manage the channel's invites receive. */
const INVITE_EVENTS = new Set(['INVITE_CREATE', 'INVITE_DELETE']);

/**
 * Dispatches that leave a guild's GUILD_CREATE as it was, so a busy guild keeps its snapshot for
 * the identifies that come while messages flow.
 */
const SNAPSHOT_NEUTRAL_EVENTS = new Set([
  // Not MESSAGE_CREATE: it moves the channel's last_message_id.
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
  'MESSAGE_DELETE_BULK',
  'MESSAGE_REACTION_ADD',
  'MESSAGE_REACTION_REMOVE',
  'MESSAGE_REACTION_REMOVE_ALL',
  'MESSAGE_REACTION_REMOVE_EMOJI',
  'MESSAGE_POLL_VOTE_ADD',
  'MESSAGE_POLL_VOTE_REMOVE',
  'TYPING_START',
  'CHANNEL_PINS_UPDATE',
  'INVITE_CREATE',
  'INVITE_DELETE',
  'GUILD_AUDIT_LOG_ENTRY_CREATE',
  'VOICE_CHANNEL_STATUS_UPDATE',
]);

/**
 * A RESUME on another node: the resuming node asks for the session on RELEASE; the node serving
 * it detaches it, writes out what it buffered for it, and answers on RELEASED. The resuming node
 * waits for that answer (or, when the old node is gone, RELEASE_TIMEOUT_MS) before it reads the
 * replay, so nothing the old node received is missed.
 */
const SESSION_RELEASE_SUBJECT = 'gateway.session-release';
const SESSION_RELEASED_SUBJECT = 'gateway.session-released';
const RELEASE_TIMEOUT_MS = 2000;

const GATEWAY_PATH = /^\/gateway\/?(?:\?|$)/;
const SUPPORTED_VERSIONS = new Set(['9', '10']);
const MIN_LARGE_THRESHOLD = 50;
const MAX_LARGE_THRESHOLD = 250;
const MAX_CLIENT_PAYLOAD = 16 * 1024;

/** Why a login is refused: the close it gets. */
interface Refusal {
  code: number;
  reason: string;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** The shard of a guild: (id >> 22) % count. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

export function createGateway(deps: GatewayDeps): Gateway {
  const { storage, bus, clock, logger, authenticator, sessionStartLimit } = deps;
  const options: GatewayOptions = { ...DEFAULT_GATEWAY_OPTIONS, ...deps.options };
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_CLIENT_PAYLOAD,
  });
  const connections = new Set<Connection>();
  /** Open connections not yet identified, per client address. */
  const unidentified = new Map<string, number>();
  const clientAddress =
    deps.clientAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? '');
  const sessions = new Map<string, Session>();
  const sessionsByUser = new Map<string, Set<Session>>();
  const sessionsByCredential = new Map<string, Set<Session>>();
  const guilds = new Map<string, GuildState<Session>>();
  const identifyQueue = new IdentifyQueue({ clock, perBucket: options.identifiesPerBucket });
  const presences = new Map<string, Presence>();
  const sessionStore = deps.sessionStore ?? LOCAL_SESSION_STORE;
  const nodeId = randomBytes(8).toString('hex');
  let takeovers: Subscription | null = null;
  let releases: Subscription | null = null;
  /** Resuming sessions waiting for their old node to let go, by session id. */
  const releaseWaits = new Map<string, () => void>();
  let subscription: Subscription | null = null;
  let closing = false;

  // ---- sending ----

  const sendControl = (conn: Connection, op: number, d: unknown) => {
    conn.transport.send(controlFrame(conn.encoding, op, d));
  };

  const deliver = (session: Session, event: EncodedDispatch) => {
    const seq = ++session.seq;
    // READY is never replayed (a RESUME starts after it), so idle sessions do not keep it.
    if (event.type !== 'READY') session.replay.push({ seq, event });
    // Trimmed in halves, so a send costs no shift of the whole buffer.
    if (session.replay.length >= 2 * options.replayLimit) {
      session.replay.splice(0, session.replay.length - options.replayLimit);
    }
    if (sessionStore.shared) sessionStore.record({ sessionId: session.id, seq, event });
    const conn = session.conn;
    if (conn === null) return;
    conn.transport.send(event.frame(conn.encoding, seq));
    // A client that does not read: what it leaves queued is bounded (the READY burst and a RESUME's
    // replay, while busy, are let through whole; they are bounded by the session's own guilds).
    if (!conn.busy && conn.ws.bufferedAmount > options.maxBufferedBytes) {
      closeConn(conn, Close.RATE_LIMITED, 'Slow reader: too much unread.');
    }
  };

  const closeConn = (conn: Connection, code: number, reason = '') => {
    conn.transport.close(code, reason);
  };

  /** The connection no longer counts against its address's cap on unidentified connections. */
  const stopCounting = (conn: Connection) => {
    const address = conn.unidentifiedFrom;
    if (address === null) return;
    conn.unidentifiedFrom = null;
    const left = (unidentified.get(address) ?? 1) - 1;
    if (left <= 0) unidentified.delete(address);
    else unidentified.set(address, left);
  };

  /**
   * IDENTIFY or RESUME accepted: the connection leaves the unidentified count and, with
   * zlib-stream, gets its deflate context (a connection that never logs in costs none).
   */
  const admit = (conn: Connection) => {
    stopCounting(conn);
    conn.transport.startStream();
  };

  // ---- sessions and guild membership ----

  const stateOf = (guildId: string) => {
    let state = guilds.get(guildId);
    if (state === undefined) {
      state = new GuildState<Session>(guildId);
      guilds.set(guildId, state);
    }
    return state;
  };

  const leaveGuild = (session: Session, guildId: string) => {
    session.guildIds.delete(guildId);
    const state = guilds.get(guildId);
    if (state === undefined) return;
    state.sessions.delete(session);
    if (state.sessions.size === 0 && state.loading === null) guilds.delete(guildId);
  };

  const dropSession = (session: Session, options: { keepStored?: boolean } = {}) => {
    if (options.keepStored !== true) sessionStore.drop(session.id);
    sessions.delete(session.id);
    const mine = sessionsByUser.get(session.userId);
    mine?.delete(session);
    if (mine?.size === 0) sessionsByUser.delete(session.userId);
    forgetCredential(session);
    for (const guildId of [...session.guildIds]) leaveGuild(session, guildId);
  };

  const registerSession = (session: Session) => {
    sessions.set(session.id, session);
    const mine = sessionsByUser.get(session.userId) ?? new Set<Session>();
    mine.add(session);
    sessionsByUser.set(session.userId, mine);
    rememberCredential(session);
  };

  const rememberCredential = (session: Session) => {
    const same = sessionsByCredential.get(session.credential) ?? new Set<Session>();
    same.add(session);
    sessionsByCredential.set(session.credential, same);
  };

  const forgetCredential = (session: Session) => {
    const same = sessionsByCredential.get(session.credential);
    same?.delete(session);
    if (same?.size === 0) sessionsByCredential.delete(session.credential);
  };

  /** A RESUME may bring another token of the same user (a reset bot token): it is the one now. */
  const changeCredential = (session: Session, credential: string) => {
    if (session.credential === credential || !sessions.has(session.id)) return;
    forgetCredential(session);
    session.credential = credential;
    rememberCredential(session);
  };

  const endRevoked = (revocation: Revocation) => {
    const ended = new Set<Session>();
    for (const hash of revocation.tokenHashes) {
      for (const session of sessionsByCredential.get(hash) ?? []) ended.add(session);
    }
    for (const userId of revocation.userIds) {
      for (const session of sessionsByUser.get(userId) ?? []) ended.add(session);
    }
    for (const session of ended) {
      const conn = session.conn;
      session.conn = null;
      dropSession(session);
      if (conn !== null) closeConn(conn, Close.AUTHENTICATION_FAILED, 'Authentication failed.');
    }
  };

  const storedSession = (session: Session): StoredSession => ({
    id: session.id,
    userId: session.userId,
    intents: session.intents,
    shard: [session.shard[0], session.shard[1]],
    obfuscate: session.obfuscate,
    largeThreshold: session.largeThreshold,
  });

  /**
   * Takes over a session another node served (RESUME through the shared store): its settings,
   * its replay buffer and its guilds, without sending GUILD_CREATE again.
   */
  const adoptSession = async (stored: StoredSession): Promise<Session | null> => {
    const sessionId = stored.id;
    await releaseFromOtherNode(sessionId);
    const [user, entries] = await Promise.all([
      storage.users.findById(stored.userId),
      sessionStore.replay(sessionId),
    ]);
    if (user === null) return null;
    const application = user.bot ? await storage.applications.findByBotUserId(user.id) : null;
    const session: Session = {
      ...stored,
      shard: [stored.shard[0], stored.shard[1]],
      user,
      isApp: user.bot,
      applicationId: application?.id ?? null,
      seq: entries.at(-1)?.seq ?? 0,
      guildIds: new Set(),
      // Set by the RESUME that adopts it, once its token is checked.
      credential: '',
      conn: null,
      detachedAt: clock.now(),
      replay: entries.map((e) => ({
        seq: e.seq,
        event: new PreserializedDispatch(e.type, e.data),
      })),
    };
    registerSession(session);
    const guildRecords = await storage.guilds.listForUser(user.id);
    const guildIds = guildRecords
      .map((g) => g.id)
      .filter((id) => shardOf(id, session.shard[1]) === session.shard[0]);
    const members = await storage.members.findForUser(user.id, guildIds);
    for (const member of members) {
      const state = stateOf(member.guildId);
      state.setMember(user.id, {
        roleIds: member.roleIds,
        communicationDisabledUntil: member.communicationDisabledUntil,
        joinedAt: new Date(member.joinedAt).toISOString(),
      });
      if ((await snapshotOf(state)) === null) continue;
      state.sessions.add(session);
      session.guildIds.add(member.guildId);
    }
    return session;
  };

  /** Asks the node serving a session to let it go, and waits until it has (or is silent). */
  const releaseFromOtherNode = async (sessionId: string): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const released = new Promise<void>((resolve) => {
      releaseWaits.set(sessionId, resolve);
      timer = setTimeout(resolve, RELEASE_TIMEOUT_MS);
    });
    try {
      await bus.publish(SESSION_RELEASE_SUBJECT, {
        type: 'SESSION_RELEASE',
        topic: sessionId,
        data: { sessionId, node: nodeId },
        publishedAt: clock.now(),
      });
      await released;
    } finally {
      clearTimeout(timer);
      releaseWaits.delete(sessionId);
    }
  };

  /** Another node resumes one of ours: detach it, write out its replay, then say so. */
  const releaseToOtherNode = async (sessionId: string): Promise<void> => {
    const taken = sessions.get(sessionId);
    if (taken === undefined) return;
    if (taken.conn !== null)
      closeConn(taken.conn, Close.UNKNOWN_ERROR, 'Session resumed elsewhere.');
    taken.conn = null;
    dropSession(taken, { keepStored: true });
    await sessionStore.flush();
    await bus.publish(SESSION_RELEASED_SUBJECT, {
      type: 'SESSION_RELEASED',
      topic: sessionId,
      data: { sessionId, node: nodeId },
      publishedAt: clock.now(),
    });
  };

  /** The snapshot of a guild, loaded once however many sessions ask at the same time. */
  const snapshotOf = (state: GuildState<Session>): Promise<GuildSnapshot | null> => {
    if (state.snapshot !== null) return Promise.resolve(state.snapshot);
    if (state.loading !== null) return state.loading;
    const load = (async () => {
      try {
        for (let attempt = 0; ; attempt++) {
          const generation = state.generation;
          const snapshot = await loadGuild(storage, state);
          if (snapshot === null) return null;
          if (generation === state.generation || attempt >= 2) {
            state.snapshot = snapshot;
            return snapshot;
          }
        }
      } finally {
        state.loading = null;
      }
    })();
    state.loading = load as Promise<GuildSnapshot>;
    return load;
  };

  const guildPresences = (snapshot: GuildSnapshot) => {
    const out: unknown[] = [];
    for (const { userId } of snapshot.members) {
      const presence = guildPresenceWire(userId, presences.get(userId), snapshot.memberCount);
      if (presence !== null) out.push(presence);
    }
    return out;
  };

  const guildCreateData = (
    state: GuildState<Session>,
    snapshot: GuildSnapshot,
    input: { session: Session; self: MemberRecord },
  ): PreserializedDispatch => {
    const { session, self } = input;
    const wantsPresences = (session.intents & I.GUILD_PRESENCES) !== 0;
    const key = `${session.userId}|${session.obfuscate}|${session.largeThreshold}|${wantsPresences}`;
    const cached = snapshot.payloads.get(key);
    if (cached !== undefined) return cached;
    const nowMs = clock.now();
    const channels: unknown[] = [];
    for (const channel of state.channels.values()) {
      if (state.canView(session.userId, channel.id, nowMs)) channels.push(channel.wire);
      else if (session.obfuscate) channels.push(obfuscateChannel(channel.wire, state.id));
    }
    const members = snapshot.members.slice(0, session.largeThreshold).map((m) => m.wire);
    if (
      !snapshot.members.slice(0, session.largeThreshold).some((m) => m.userId === session.userId)
    ) {
      members.push(serializeMember(self, session.user));
    }
    const data = {
      ...snapshot.guild,
      joined_at: new Date(self.joinedAt).toISOString(),
      large: snapshot.memberCount > session.largeThreshold,
      unavailable: false,
      member_count: snapshot.memberCount,
      voice_states: snapshot.voiceStates,
      members,
      channels,
      threads: [],
      presences: presences.size === 0 || !wantsPresences ? [] : guildPresences(snapshot),
      stage_instances: [],
      guild_scheduled_events: snapshot.scheduledEvents
        .filter((e) => e.channelId === null || state.canView(session.userId, e.channelId, nowMs))
        .map((e) => e.wire),
      soundboard_sounds: [],
      lazy: true,
    };
    const event = new PreserializedDispatch('GUILD_CREATE', JSON.stringify(data));
    snapshot.payloads.set(key, event);
    return event;
  };

  /** Loads a guild for a session, sends its GUILD_CREATE and starts its dispatches. */
  const joinGuild = async (session: Session, input: { guildId: string; self: MemberRecord }) => {
    const state = stateOf(input.guildId);
    state.setMember(session.userId, {
      roleIds: input.self.roleIds,
      communicationDisabledUntil: input.self.communicationDisabledUntil,
      joinedAt: new Date(input.self.joinedAt).toISOString(),
    });
    const snapshot = await snapshotOf(state);
    if (snapshot === null || !sessions.has(session.id)) {
      if (state.sessions.size === 0) guilds.delete(input.guildId);
      return;
    }
    const event = guildCreateData(state, snapshot, { session, self: input.self });
    state.sessions.add(session);
    session.guildIds.add(input.guildId);
    deliver(session, event);
  };

  // ---- dispatches from the bus ----

  const onGuildMemberAdd = async (guildId: string, data: Record<string, unknown>) => {
    const user = asRecord(data['user']);
    const rawId = user?.['id'];
    const userId = typeof rawId === 'string' ? rawId : null;
    if (userId === null) return;
    const mine = sessionsByUser.get(userId);
    if (mine === undefined) return;
    const member = await storage.members.find(guildId, userId);
    if (member === null) return;
    for (const session of mine) {
      if (session.guildIds.has(guildId)) continue;
      if (shardOf(guildId, session.shard[1]) !== session.shard[0]) continue;
      await joinGuild(session, { guildId, self: member });
    }
  };

  const applyToModel = (
    state: GuildState<Session>,
    type: string,
    data: Record<string, unknown>,
  ) => {
    switch (type) {
      case 'GUILD_ROLE_CREATE':
      case 'GUILD_ROLE_UPDATE': {
        const role = asRecord(data['role']);
        if (role !== null) state.setRole(role);
        break;
      }
      case 'GUILD_ROLE_DELETE': {
        const roleId = scalarText(data['role_id']);
        state.roles.delete(roleId);
        for (const [userId, member] of state.members) {
          if (member.roleIds.includes(roleId)) {
            state.members.set(userId, {
              ...member,
              roleIds: member.roleIds.filter((r) => r !== roleId),
            });
          }
        }
        state.invalidate();
        break;
      }
      case 'CHANNEL_CREATE':
      case 'CHANNEL_UPDATE':
        state.setChannel(data);
        break;
      case 'CHANNEL_DELETE':
        state.channels.delete(scalarText(data['id']));
        state.invalidate();
        break;
      case 'GUILD_MEMBER_UPDATE': {
        const userId = scalarText(asRecord(data['user'])?.['id']);
        const known = state.members.get(userId);
        if (known !== undefined) {
          const until = data['communication_disabled_until'];
          state.setMember(userId, {
            roleIds: Array.isArray(data['roles']) ? data['roles'].map(String) : known.roleIds,
            communicationDisabledUntil: typeof until === 'string' ? Date.parse(until) : null,
            joinedAt: known.joinedAt,
          });
        }
        break;
      }
      case 'GUILD_UPDATE':
        if (typeof data['owner_id'] === 'string') state.ownerId = data['owner_id'];
        state.invalidate();
        break;
      default:
        break;
    }
  };

  const onGuildDispatch = (type: string, envelope: DispatchEnvelope) => {
    const guildId = envelope.guildId;
    if (guildId === null) return;
    const data = asRecord(envelope.data) ?? {};
    if (type === 'GUILD_MEMBER_ADD') {
      onGuildMemberAdd(guildId, data).catch((err: unknown) => {
        logger.error({ err, guildId }, 'gateway: guild join failed');
      });
    }
    const state = guilds.get(guildId);
    if (state === undefined) return;
    if (!SNAPSHOT_NEUTRAL_EVENTS.has(type)) {
      state.generation++;
      state.snapshot = null;
    }
    const nowMs = clock.now();
    // Who could view the channel before the change (CHANNEL_UPDATE/DELETE of a hidden channel).
    const channelId = envelope.channelId;
    const viewBefore = new Map<Session, boolean>();
    if (type === 'CHANNEL_DELETE' && channelId !== null) {
      for (const s of state.sessions) viewBefore.set(s, state.canView(s.userId, channelId, nowMs));
    }
    const visibleBefore = VISIBILITY_EVENTS.has(type) ? visibilityOf(state, nowMs) : null;
    applyToModel(state, type, data);
    const variants = guildDispatchVariants(type, data, guildId);
    const required = intentFor(type, true);
    const removedUserId =
      type === 'GUILD_MEMBER_REMOVE' ? scalarText(asRecord(data['user'])?.['id']) : null;
    for (const session of [...state.sessions]) {
      const own =
        (type === 'GUILD_MEMBER_UPDATE' || type === 'GUILD_MEMBER_REMOVE') &&
        scalarText(asRecord(data['user'])?.['id']) === session.userId;
      if (required !== 0 && (session.intents & required) === 0 && !own) continue;
      if (
        type === 'GUILD_AUDIT_LOG_ENTRY_CREATE' &&
        (state.guildPermissions(session.userId, nowMs) & P.VIEW_AUDIT_LOG) === 0n
      ) {
        continue;
      }
      // Invites go to those who may manage them (the REST rule), whether or not they can view the
      // channel: MANAGE_GUILD lists every channel's invites.
      const invite = INVITE_EVENTS.has(type);
      if (
        invite &&
        (channelId === null ||
          !canManageInvites({
            channel: state.channelPermissions(session.userId, channelId, nowMs),
            guild: state.guildPermissions(session.userId, nowMs),
          }))
      ) {
        continue;
      }
      let event = variants.full;
      if (channelId !== null && !invite) {
        const view = viewBefore.get(session) ?? state.canView(session.userId, channelId, nowMs);
        if (!view) {
          if (!session.obfuscate || variants.obfuscated === null) continue;
          event = variants.obfuscated;
        }
      }
      if (variants.withoutContent !== null && !variants.canRead(session)) {
        event = variants.withoutContent;
      }
      deliver(session, event);
      if (removedUserId === session.userId) {
        deliver(session, new EncodedDispatch('GUILD_DELETE', { id: guildId, unavailable: false }));
        leaveGuild(session, guildId);
      }
    }
    if (type === 'GUILD_DELETE') {
      for (const session of [...state.sessions]) leaveGuild(session, guildId);
      guilds.delete(guildId);
    }
    if (visibleBefore !== null) announceVisibilityChanges(state, { before: visibleBefore, nowMs });
  };

  /** Which channels each obfuscating session's user can view, keyed by user. */
  const visibilityOf = (state: GuildState<Session>, nowMs: number) => {
    const byUser = new Map<string, Set<string>>();
    for (const session of state.sessions) {
      if (!session.obfuscate || byUser.has(session.userId)) continue;
      const visible = new Set<string>();
      for (const id of state.channels.keys()) {
        if (state.canView(session.userId, id, nowMs)) visible.add(id);
      }
      byUser.set(session.userId, visible);
    }
    return byUser;
  };

  /**
   * After a role, member or guild change, an obfuscating session gets CHANNEL_UPDATE for each
   * channel whose visibility changed: the full channel when it gained access, the obfuscated one
   * when it lost it (docs/platform-notes.md#channel-obfuscation).
   */
  const announceVisibilityChanges = (
    state: GuildState<Session>,
    input: { before: Map<string, Set<string>>; nowMs: number },
  ) => {
    const after = visibilityOf(state, input.nowMs);
    const full = new Map<string, EncodedDispatch>();
    const hidden = new Map<string, EncodedDispatch>();
    for (const session of state.sessions) {
      const was = input.before.get(session.userId);
      const now = after.get(session.userId);
      if (was === undefined || now === undefined || (session.intents & I.GUILDS) === 0) continue;
      for (const channel of state.channels.values()) {
        const gained = now.has(channel.id) && !was.has(channel.id);
        const lost = was.has(channel.id) && !now.has(channel.id);
        if (gained) {
          let event = full.get(channel.id);
          if (event === undefined) {
            event = new EncodedDispatch('CHANNEL_UPDATE', channel.wire);
            full.set(channel.id, event);
          }
          deliver(session, event);
        } else if (lost) {
          let event = hidden.get(channel.id);
          if (event === undefined) {
            event = new EncodedDispatch('CHANNEL_UPDATE', obfuscateChannel(channel.wire, state.id));
            hidden.set(channel.id, event);
          }
          deliver(session, event);
        }
      }
    }
  };

  const onUserDispatch = (type: string, userId: string, envelope: DispatchEnvelope) => {
    const mine = sessionsByUser.get(userId);
    if (mine === undefined) return;
    const required = intentFor(type, false);
    const event = new EncodedDispatch(type, envelope.data);
    for (const session of mine) {
      if (required !== 0 && (session.intents & required) === 0) continue;
      deliver(session, event);
    }
  };

  // ---- commands ----

  const invalidSession = (conn: Connection, resumable: boolean) => {
    sendControl(conn, Op.INVALID_SESSION, resumable);
  };

  const authenticate = async (token: string): Promise<Principal | null> => {
    if (/^bot /i.test(token)) return authenticator.authenticate(token);
    return (await authenticator.authenticate(`Bot ${token}`)) ?? authenticator.authenticate(token);
  };

  /**
   * Reads shared by the IDENTIFYs in flight at the same moment: in a storm of one bot's sessions
   * the application, its guild list and its member rows are read once, not once per session. A
   * read that has finished is not reused (no cache to keep current).
   */
  const readsInFlight = new Map<string, Promise<unknown>>();
  const sharedRead = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    const pending = readsInFlight.get(key) as Promise<T> | undefined;
    if (pending !== undefined) return pending;
    const load = read().finally(() => readsInFlight.delete(key));
    readsInFlight.set(key, load);
    return load;
  };

  /**
   * What IDENTIFY and RESUME both require of a login, one rule for both so that a RESUME never
   * keeps what an IDENTIFY would now refuse: a bot or session token, intents within the defined
   * bits (a safe integer no larger than ALL_INTENTS: JavaScript's `&` truncates to 32 bits, so
   * 2^32 would pass a bitwise test alone), a valid shard, at most `shardingRequiredGuilds` guilds
   * in it, and privileged intents the application may use. A RESUME passes its session's intents
   * and shard.
   */
  const checkLogin = async (
    principal: Principal | null,
    input: { intents: unknown; shard: unknown },
  ): Promise<
    | { refused: Refusal }
    | {
        refused: null;
        principal: Principal;
        intents: number;
        shard: [number, number];
        application: ApplicationRecord | null;
        guildIds: string[];
      }
  > => {
    if (principal === null || principal.kind === 'bearer') {
      return { refused: { code: Close.AUTHENTICATION_FAILED, reason: 'Authentication failed.' } };
    }
    const intents = input.intents;
    if (!isInt(intents) || intents < 0 || intents > ALL_INTENTS || (intents & ~ALL_INTENTS) !== 0) {
      return { refused: { code: Close.INVALID_INTENTS, reason: 'Invalid intent(s).' } };
    }
    let shard: [number, number] = [0, 1];
    if (input.shard !== undefined && input.shard !== null) {
      const s = input.shard;
      if (
        !Array.isArray(s) ||
        s.length !== 2 ||
        !isInt(s[0]) ||
        !isInt(s[1]) ||
        s[1] < 1 ||
        s[0] < 0 ||
        s[0] >= s[1]
      ) {
        return { refused: { code: Close.INVALID_SHARD, reason: 'Invalid shard.' } };
      }
      shard = [s[0], s[1]];
    }
    const applicationId = principal.applicationId;
    const userId = principal.user.id;
    const application: ApplicationRecord | null =
      applicationId === null
        ? null
        : await sharedRead(`application:${applicationId}`, () =>
            storage.applications.findById(applicationId),
          );
    const allGuilds = await sharedRead(`guilds:${userId}`, () =>
      storage.guilds.listForUser(userId),
    );
    const guildIds = allGuilds.map((g) => g.id).filter((id) => shardOf(id, shard[1]) === shard[0]);
    if (guildIds.length > options.shardingRequiredGuilds) {
      return { refused: { code: Close.SHARDING_REQUIRED, reason: 'Sharding required.' } };
    }
    if (principal.user.bot && (intents & PRIVILEGED_INTENTS) !== 0) {
      const allowed = await privilegedIntentsAllowed(storage, {
        application,
        intents,
        reach: allGuilds.length,
        threshold: options.privilegedIntentReviewThreshold,
        nowMs: clock.now(),
      });
      if (!allowed) {
        return { refused: { code: Close.DISALLOWED_INTENTS, reason: 'Disallowed intent(s).' } };
      }
    }
    return { refused: null, principal, intents, shard, application, guildIds };
  };

  const identify = async (conn: Connection, d: Record<string, unknown>) => {
    const token = typeof d['token'] === 'string' ? d['token'] : '';
    const login = await checkLogin(token === '' ? null : await authenticate(token), {
      intents: d['intents'],
      shard: d['shard'],
    });
    if (login.refused !== null) {
      closeConn(conn, login.refused.code, login.refused.reason);
      return;
    }
    const { principal, intents, shard, application, guildIds } = login;
    const isApp = principal.user.bot;
    const userId = principal.user.id;
    if (isApp) {
      if (!(await sessionStartLimit.spend(principal.user.id))) {
        invalidSession(conn, false);
        return;
      }
      await identifyQueue.acquire(`${principal.user.id}:${shard[0] % options.maxConcurrency}`);
    }
    if (!conn.transport.open || closing) return;
    if (d['compress'] === true && conn.encoding === 'json') conn.transport.compressPayloads = true;
    const threshold = isInt(d['large_threshold'])
      ? Math.min(MAX_LARGE_THRESHOLD, Math.max(MIN_LARGE_THRESHOLD, d['large_threshold']))
      : MIN_LARGE_THRESHOLD;
    const capabilities = isInt(d['capabilities']) ? d['capabilities'] : 0;
    const obfuscate =
      (capabilities & GatewayCapabilities.CHANNEL_OBFUSCATION) !== 0 ||
      (isApp &&
        (clock.now() >= CHANNEL_OBFUSCATION_MANDATORY_FROM_MS ||
          (application !== null &&
            (await storage.gateway.privateChannelObfuscation(application.id)))));
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      userId: principal.user.id,
      user: principal.user,
      isApp,
      applicationId: principal.applicationId,
      intents,
      obfuscate,
      largeThreshold: threshold,
      shard,
      seq: 0,
      guildIds: new Set(),
      credential: principal.tokenHash,
      conn,
      detachedAt: 0,
      replay: [],
    };
    admit(conn);
    conn.session = session;
    registerSession(session);
    sessionStore.save(storedSession(session));
    const members = await sharedRead(`members:${userId}:${guildIds.join(',')}`, () =>
      storage.members.findForUser(userId, guildIds),
    );
    conn.socket.cork();
    try {
      await sendReady(session, { conn, members, application });
    } finally {
      conn.socket.uncork();
    }
  };

  const sendReady = async (
    session: Session,
    input: { conn: Connection; members: MemberRecord[]; application: ApplicationRecord | null },
  ) => {
    const { conn, members, application } = input;
    const principalUser = session.user;
    deliver(
      session,
      new EncodedDispatch('READY', {
        v: conn.version,
        user: {
          ...serializeUser(principalUser),
          verified: principalUser.verified,
          mfa_enabled: principalUser.mfaEnabled,
          email: session.isApp ? null : principalUser.email,
        },
        guilds: members.map((m) => ({ id: m.guildId, unavailable: true })),
        session_id: session.id,
        resume_gateway_url: deps.gatewayUrl(),
        session_type: 'normal',
        shard: session.shard,
        application:
          application === null
            ? undefined
            : { id: application.id, flags: Number(application.flags & 0x7fff_ffffn) },
        private_channels: [],
        presences: [],
        relationships: [],
        guild_join_requests: [],
        user_settings: {},
        geo_ordered_rtc_regions: [],
        auth: {},
      }),
    );
    for (const member of members) {
      await joinGuild(session, { guildId: member.guildId, self: member });
    }
  };

  const resume = async (conn: Connection, d: Record<string, unknown>) => {
    const sessionId = typeof d['session_id'] === 'string' ? d['session_id'] : '';
    const token = typeof d['token'] === 'string' ? d['token'] : '';
    const seq = d['seq'];
    // The token first: no session, here or on another node, is looked at for a caller who cannot
    // prove to be its user.
    const principal = token === '' ? null : await authenticate(token);
    if (principal === null || principal.kind === 'bearer') {
      closeConn(conn, Close.AUTHENTICATION_FAILED, 'Authentication failed.');
      return;
    }
    const local = sessions.get(sessionId);
    const stored =
      local === undefined && sessionStore.shared && sessionId !== ''
        ? await sessionStore.load(sessionId)
        : null;
    const found = local ?? stored;
    if (found === null) {
      invalidSession(conn, false);
      return;
    }
    if (found.userId !== principal.user.id) {
      closeConn(conn, Close.AUTHENTICATION_FAILED, 'Authentication failed.');
      return;
    }
    // What IDENTIFY refuses now, RESUME refuses too (a privileged intent turned off since, say).
    const login = await checkLogin(principal, { intents: found.intents, shard: found.shard });
    if (login.refused !== null) {
      closeConn(conn, login.refused.code, login.refused.reason);
      return;
    }
    const session = local ?? (stored === null ? null : await adoptSession(stored));
    if (session === null) {
      invalidSession(conn, false);
      return;
    }
    changeCredential(session, principal.tokenHash);
    const from = isInt(seq) ? seq : -1;
    if (from < 0 || from > session.seq) {
      closeConn(conn, Close.INVALID_SEQ, 'Invalid seq.');
      return;
    }
    const oldest = session.replay[0]?.seq ?? session.seq + 1;
    if (from < oldest - 1) {
      invalidSession(conn, false);
      dropSession(session);
      return;
    }
    if (!conn.transport.open) return;
    const previous = session.conn;
    if (previous !== null && previous !== conn) {
      previous.session = null;
      closeConn(previous, Close.UNKNOWN_ERROR, 'Session resumed elsewhere.');
    }
    admit(conn);
    session.conn = conn;
    conn.session = session;
    for (const entry of session.replay) {
      if (entry.seq > from) conn.transport.send(entry.event.frame(conn.encoding, entry.seq));
    }
    deliver(session, new EncodedDispatch('RESUMED', {}));
  };

  const onFrame = async (conn: Connection, raw: Buffer) => {
    const now = clock.now();
    if (now - conn.windowStart >= 60_000) {
      conn.windowStart = now;
      conn.windowCount = 0;
    }
    if (++conn.windowCount > options.clientEventsPerMinute) {
      closeConn(conn, Close.RATE_LIMITED, 'You are being rate limited.');
      return;
    }
    let frame: { op: number; d: unknown };
    try {
      frame = decodeFrame(conn.encoding, raw);
    } catch (err) {
      if (err instanceof FrameDecodeError) {
        closeConn(conn, Close.DECODE_ERROR, 'Error while decoding payload.');
        return;
      }
      throw err;
    }
    const { op, d } = frame;
    if (op === Op.HEARTBEAT) {
      conn.lastBeatAt = now;
      sendControl(conn, Op.HEARTBEAT_ACK, null);
      return;
    }
    if (op === Op.IDENTIFY || op === Op.RESUME) {
      if (conn.session !== null || conn.busy) {
        closeConn(conn, Close.ALREADY_AUTHENTICATED, 'You sent more than one identify payload.');
        return;
      }
      const body = asRecord(d);
      if (body === null) {
        closeConn(conn, Close.DECODE_ERROR, 'Invalid payload.');
        return;
      }
      conn.busy = true;
      try {
        await (op === Op.IDENTIFY ? identify(conn, body) : resume(conn, body));
      } finally {
        conn.busy = false;
      }
      return;
    }
    const session = conn.session;
    if (!Object.values(Op).includes(op as never) || op === Op.DISPATCH || op === Op.HELLO) {
      closeConn(conn, Close.UNKNOWN_OPCODE, 'Unknown opcode.');
      return;
    }
    if (session === null) {
      closeConn(conn, Close.NOT_AUTHENTICATED, 'You sent a payload prior to identifying.');
      return;
    }
    await runCommand({ op, d, session, conn });
  };

  const commands = createCommands({ presences, allMembersRequests: new Map() });
  const commandContext = (session: Session): CommandContext => ({
    storage,
    clock,
    events: deps.events,
    guild: (guildId) => guilds.get(guildId),
    reply: (type, data) => {
      deliver(session, new EncodedDispatch(type, data));
    },
  });

  const runCommand = async (input: {
    op: number;
    d: unknown;
    session: Session;
    conn: Connection;
  }) => {
    const { op, d, session, conn } = input;
    const ctx = commandContext(session);
    try {
      switch (op) {
        case Op.PRESENCE_UPDATE:
          await commands.presenceUpdate(ctx, { session, d });
          return;
        case Op.VOICE_STATE_UPDATE:
          await commands.voiceStateUpdate(ctx, { session, d });
          return;
        case Op.REQUEST_GUILD_MEMBERS:
          await commands.requestGuildMembers(ctx, { session, d });
          return;
        case Op.REQUEST_CHANNEL_INFO:
          await commands.requestChannelInfo(ctx, { session, d });
          return;
        case Op.REQUEST_SOUNDBOARD_SOUNDS:
          // No soundboard here: every asked guild has none.
          for (const guildId of Array.isArray(asRecord(d)?.['guild_ids'])
            ? (asRecord(d)?.['guild_ids'] as unknown[])
            : []) {
            if (typeof guildId === 'string' && session.guildIds.has(guildId)) {
              deliver(
                session,
                new EncodedDispatch('SOUNDBOARD_SOUNDS', {
                  guild_id: guildId,
                  soundboard_sounds: [],
                }),
              );
            }
          }
          return;
        default:
          closeConn(conn, Close.UNKNOWN_OPCODE, 'Unknown opcode.');
      }
    } catch (err) {
      if (err instanceof InvalidCommandError) {
        closeConn(conn, Close.UNKNOWN_OPCODE, 'Invalid payload for opcode.');
        return;
      }
      throw err;
    }
  };

  // ---- connections ----

  const onConnection = (
    ws: WebSocket,
    { request, socket, address }: { request: IncomingMessage; socket: Duplex; address: string },
  ) => {
    const url = new URL(request.url ?? '/', 'http://gateway');
    const v = url.searchParams.get('v') ?? '10';
    const encodingParam = url.searchParams.get('encoding') ?? 'json';
    const encoding: Encoding = encodingParam === 'etf' ? 'etf' : 'json';
    const transport = new Transport(ws, {
      socket,
      encoding,
      zlibStream: url.searchParams.get('compress') === 'zlib-stream',
    });
    const now = clock.now();
    const conn: Connection = {
      ws,
      transport,
      encoding,
      version: Number(v),
      socket,
      lastBeatAt: now,
      openedAt: now,
      unidentifiedFrom: null,
      windowStart: now,
      windowCount: 0,
      session: null,
      busy: false,
    };
    if (!SUPPORTED_VERSIONS.has(v)) {
      closeConn(conn, Close.INVALID_API_VERSION, 'Invalid API version.');
      return;
    }
    if (encodingParam !== 'json' && encodingParam !== 'etf') {
      closeConn(conn, Close.DECODE_ERROR, 'Invalid encoding.');
      return;
    }
    connections.add(conn);
    conn.unidentifiedFrom = address;
    unidentified.set(address, (unidentified.get(address) ?? 0) + 1);
    ws.on('message', (raw: RawData) => {
      const bytes = Buffer.isBuffer(raw)
        ? raw
        : Array.isArray(raw)
          ? Buffer.concat(raw)
          : Buffer.from(raw);
      onFrame(conn, bytes).catch((err: unknown) => {
        logger.error({ err }, 'gateway: frame handling failed');
        closeConn(conn, Close.UNKNOWN_ERROR, 'Unknown error.');
      });
    });
    ws.on('error', () => undefined);
    ws.on('close', (code: number) => {
      connections.delete(conn);
      stopCounting(conn);
      conn.transport.dispose();
      const session = conn.session;
      if (session?.conn !== conn) return;
      session.conn = null;
      session.detachedAt = clock.now();
      // A client that closes normally ends its session (the platform's rule for 1000 and 1001).
      if (!closing && (code === 1000 || code === 1001)) dropSession(session);
    });
    sendControl(conn, Op.HELLO, { heartbeat_interval: options.heartbeatIntervalMs });
  };

  const sweep = () => {
    const now = clock.now();
    const limit = options.heartbeatIntervalMs + options.heartbeatGraceMs;
    for (const conn of connections) {
      // Not identified in time (an IDENTIFY waiting its turn in the queue is not late).
      if (conn.session === null && !conn.busy && now - conn.openedAt > options.identifyTimeoutMs) {
        closeConn(conn, Close.NOT_AUTHENTICATED, 'Not identified in time.');
      } else if (now - conn.lastBeatAt > limit) {
        closeConn(conn, Close.SESSION_TIMED_OUT, 'Session timed out.');
      }
    }
    for (const session of sessions.values()) {
      if (session.conn === null && now - session.detachedAt > options.resumeWindowMs) {
        dropSession(session);
      }
    }
  };
  const sweepTimer = setInterval(
    sweep,
    Math.max(20, Math.min(options.heartbeatIntervalMs / 2, 5000)),
  );
  sweepTimer.unref();

  return {
    async start() {
      takeovers = await bus.subscribe(SESSION_RELEASE_SUBJECT, (event) => {
        const data = asRecord(event.data);
        if (data === null || data['node'] === nodeId) return;
        return releaseToOtherNode(scalarText(data['sessionId']));
      });
      releases = await bus.subscribe(SESSION_RELEASED_SUBJECT, (event) => {
        const data = asRecord(event.data);
        if (data === null || data['node'] === nodeId) return;
        releaseWaits.get(scalarText(data['sessionId']))?.();
      });
      subscription = await bus.subscribe(ALL_DISPATCHES, (event, subject) => {
        const envelope = event.data as DispatchEnvelope;
        if (subject.startsWith('dispatch.guild.')) onGuildDispatch(event.type, envelope);
        else if (subject.startsWith('dispatch.user.')) {
          onUserDispatch(event.type, subject.slice('dispatch.user.'.length), envelope);
        }
      });
    },
    attach(server) {
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (closing || !GATEWAY_PATH.test(request.url ?? '')) {
          socket.destroy();
          return;
        }
        // Too many connections from one address that have not logged in: refused before the
        // handshake, so they cost no WebSocket at all.
        const address = clientAddress(request);
        if ((unidentified.get(address) ?? 0) >= options.maxUnidentifiedPerAddress) {
          socket.end(
            'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain\r\n' +
              'Content-Length: 46\r\n\r\nToo many connections that have not identified.',
          );
          return;
        }
        // The 101 answer and HELLO leave in one write.
        socket.cork();
        wss.handleUpgrade(request, socket, head, (ws) => {
          onConnection(ws, { request, socket, address });
          socket.uncork();
        });
      });
    },
    connectionCount: () => connections.size,
    sessionCount: () => sessions.size,
    dropAll(code = 4000) {
      for (const conn of connections) closeConn(conn, code, 'Dropped.');
    },
    requestHeartbeats() {
      for (const conn of connections) sendControl(conn, Op.HEARTBEAT, null);
    },
    sessionsOf: (userId) => [...(sessionsByUser.get(userId) ?? [])],
    revoke: endRevoked,
    async close() {
      closing = true;
      clearInterval(sweepTimer);
      subscription?.unsubscribe();
      takeovers?.unsubscribe();
      releases?.unsubscribe();
      identifyQueue.close();
      const closed = [...connections].map(
        (conn) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              conn.ws.terminate();
              resolve();
            }, 1000);
            conn.ws.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            sendControl(conn, Op.RECONNECT, null);
            closeConn(conn, 1012, 'Server restarting.');
          }),
      );
      await Promise.all(closed);
      wss.close();
      await sessionStore.close();
    },
  };
}
