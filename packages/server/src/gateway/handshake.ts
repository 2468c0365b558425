/**
 * @module gateway/handshake: IDENTIFY opens a session (READY, then a GUILD_CREATE per guild);
 * RESUME takes one back (from this node, or from another through the shared store) and replays
 * what it missed (gateway/resume.ts).
 */
import { randomBytes } from 'node:crypto';
import { GatewayCapabilities } from '@guildhall/protocol';
import type { Clock } from '../domain/clock.js';
import { currentUserView, mayAccess, type Access } from '../domain/tokenAccess.js';
import type { SessionStartLimit } from '../resources/gatewayInfo/index.js';
import type { IdentifyBuckets } from '../sharedState/index.js';
import type { ApplicationRecord, MemberRecord, Storage } from '../storage/index.js';
import type { IdentifyPayload, PresenceUpdatePayload } from './clientOps.js';
import { readyCalls } from './dmCallCommand.js';
import { EncodedDispatch } from './frames.js';
import type { GuildCreate } from './guildCreate.js';
import type { Handoff } from './handoff.js';
import type { GatewayHooks } from './hooks.js';
import type { Lifecycle } from './lifecycle.js';
import { IdentifyQueue } from './identifyQueue.js';
import type { Login } from './login.js';
import { createLoginRefusals, grantOf } from './loginRefusals.js';
import { readyPayload, type ReadySocial } from './payloads.js';
import type { Presences } from './presences.js';
import { friendPresenceWire } from './routing.js';
import type { SocialProviders } from './social.js';
import { CHANNEL_OBFUSCATION_MANDATORY_FROM_MS, type GatewayOptions } from './options.js';
import { storedSession, type SessionRegistry } from './registry.js';
import { createResume } from './resume.js';
import type { Sender } from './send.js';
import type { Connection, Session } from './session.js';
import type { SessionStore } from './sessionStore.js';
import type { Timers } from '../domain/clock.js';
import { SECOND_MS } from '../domain/time.js';

const SESSION_ID_BYTES = 16;

export function createHandshake(deps: {
  storage: Storage;
  /** The platform's clock (dated rules). */
  clock: Clock;
  /** The real clock the identify queue paces IDENTIFYs by. */
  wireClock: Clock;
  timers: Timers;
  /** A test harness's answer to a login instead of READY or RESUMED (gateway/hooks.ts). */
  hooks: GatewayHooks;
  options: GatewayOptions;
  sessionStartLimit: SessionStartLimit;
  identifyBuckets: IdentifyBuckets;
  sessionStore: SessionStore;
  gatewayUrl: () => string;
  login: Login;
  registry: SessionRegistry;
  handoff: Handoff;
  send: Sender;
  /** Where each IDENTIFY and RESUME, taken or refused, is logged and counted. */
  lifecycle: Lifecycle;
  joinGuild: GuildCreate;
  /**
   * Holds guilds (their subjects watched) until the returned function is called: READY's joins
   * then wait on no subscription one by one.
   */
  holdGuilds: (guildIds: readonly string[]) => Promise<() => void>;
  /** Whether the gateway is shutting down (an IDENTIFY that waited its turn stops). */
  closing: () => boolean;
  /** The social graph the READY of an SDK session or a person's session shows. */
  social: SocialProviders;
  /** Where the friends' presences READY shows are read. */
  presences: Presences;
  /** Sets a session's presence as op 3 does: IDENTIFY's `presence`, once READY is out. */
  setPresence: (session: Session, presence: PresenceUpdatePayload) => Promise<void>;
}) {
  const { storage, clock, options, login, registry, send, lifecycle } = deps;
  const refusals = createLoginRefusals(deps);
  const { refuseWithClose, refuseWithInvalidSession, faultAnswered } = refusals;
  const resume = createResume({ ...deps, ...refusals });
  const identifyQueue = new IdentifyQueue({
    buckets: deps.identifyBuckets,
    clock: deps.wireClock,
    timers: deps.timers,
    perBucket: options.identifiesPerBucket,
  });

  /**
   * What an SDK session's READY, or a person's own, shows of its user's social graph:
   * relationships, DMs, the application's lobbies the user is in, and the friends' presences,
   * each only when the session's token may read it (domain/tokenAccess.ts, as over REST; a part
   * it may not read is empty and not read at all). Read after the user's subject is watched: a
   * change is in it or arrives after READY.
   */
  const readySocial = async (session: Session, sdk: boolean): Promise<ReadySocial> => {
    const scope = { userId: session.userId, applicationId: sdk ? session.applicationId : null };
    const readIf = <T>(access: Access, read: () => Promise<readonly T[]>) =>
      mayAccess(session.grant, access) ? read() : Promise.resolve([]);
    const [relationships, privateChannels, lobbies, friendIds] = await Promise.all([
      readIf('relationships', () => deps.social.relationships(scope)),
      readIf('dmChannels', () => deps.social.privateChannels(scope)),
      sdk ? readIf('lobbies', () => deps.social.lobbies(scope)) : undefined,
      readIf('presences', () => deps.social.friendIds(session.userId)),
    ]);
    const live = await deps.presences.get(friendIds);
    const presences = friendIds
      .map((id) => friendPresenceWire(id, live.get(id)))
      .filter((p) => p !== null);
    return {
      relationships,
      privateChannels,
      presences,
      ...(lobbies === undefined ? {} : { lobbies }),
    };
  };

  const sendReady = async (
    session: Session,
    input: {
      conn: Connection;
      members: MemberRecord[];
      application: ApplicationRecord | null;
      social?: ReadySocial;
      showEmail: boolean;
    },
  ) => {
    const { conn, members, application } = input;
    // READY first, then what the session's subjects brought while it was being read.
    send.releaseHeld(session, {
      first: new EncodedDispatch(
        'READY',
        readyPayload({
          version: conn.version,
          user: session.user,
          isApp: !input.showEmail,
          ...(input.social === undefined ? {} : { social: input.social }),
          members,
          sessionId: session.id,
          resumeGatewayUrl: deps.gatewayUrl(),
          shard: session.shard,
          application,
        }),
      ),
    });
    // A CALL_CREATE per call in progress in the person's DMs, as the platform sends after READY.
    for (const call of await readyCalls(storage, session, input.social))
      send.deliver(session, call);
    for (const member of members) {
      await deps.joinGuild(session, { guildId: member.guildId, self: member });
    }
  };

  /**
   * IDENTIFY on `conn`; `admit` counts the connection as logged in once the identify is accepted
   * (the connection loop's, gateway/connection.ts).
   */
  const identify = async (conn: Connection, d: IdentifyPayload, admit: () => void) => {
    const checked = await login.check(await login.authenticate(d.token), {
      intents: d.intents,
      shard: d.shard,
    });
    if (checked.refused !== null) {
      refuseWithClose(conn, { kind: 'identify', who: {} }, checked.refused);
      return;
    }
    const { principal, intents, shard, application, guildIds, sdk } = checked;
    const isApp = principal.user.bot;
    const userId = principal.user.id;
    if (faultAnswered(conn, 'identify', { ...principal, sessionId: null })) return;
    if (isApp) {
      if (!(await deps.sessionStartLimit.spend(userId))) {
        refuseWithInvalidSession(
          conn,
          { kind: 'identify', who: { userId, shard } },
          'session_start_limit',
        );
        return;
      }
      const queuedAt = deps.wireClock.now();
      await identifyQueue.acquire(`${userId}:${shard[0] % options.maxConcurrency}`);
      lifecycle.identifyWaited((deps.wireClock.now() - queuedAt) / SECOND_MS);
    }
    if (!conn.transport.open || deps.closing()) return;
    if (d.compress && conn.encoding === 'json') conn.transport.compressPayloads = true;
    const obfuscate =
      (d.capabilities & GatewayCapabilities.CHANNEL_OBFUSCATION) !== 0 ||
      (isApp &&
        (clock.now() >= CHANNEL_OBFUSCATION_MANDATORY_FROM_MS ||
          (application !== null &&
            (await storage.gateway.privateChannelObfuscation(application.id)))));
    const session: Session = {
      id: randomBytes(SESSION_ID_BYTES).toString('hex'),
      userId,
      user: principal.user,
      isApp,
      applicationId: principal.applicationId,
      sdk,
      grant: grantOf(principal),
      intents,
      obfuscate,
      largeThreshold: d.large_threshold,
      shard,
      seq: 0,
      guildIds: new Set(),
      credential: principal.tokenHash,
      conn,
      detachedAt: 0,
      replay: [],
      // Nothing reaches the session before its READY.
      held: [],
    };
    admit();
    conn.session = session;
    lifecycle.identified(session, conn);
    const watchingUser = registry.register(session);
    deps.sessionStore.save(storedSession(session));
    // The user's and the guilds' subjects are watched before what READY and each GUILD_CREATE
    // show is read: a change is in them, or arrives after them.
    await watchingUser;
    const members = await login.sharedRead(`members:${userId}:${guildIds.join(',')}`, () =>
      storage.members.findForUser(userId, guildIds),
    );
    // A bot's READY has no social graph; a person's session and an SDK session do.
    const social = sdk || !principal.user.bot ? await readySocial(session, sdk) : undefined;
    const release = await deps.holdGuilds(members.map((m) => m.guildId));
    // The email as GET /users/@me shows it to the token: a person's own token, or `email`.
    const showEmail = currentUserView(session.grant).email;
    conn.socket.cork();
    try {
      await sendReady(session, {
        conn,
        members,
        application,
        showEmail,
        ...(social === undefined ? {} : { social }),
      });
    } finally {
      conn.socket.uncork();
      release();
    }
    // After READY, so the session's own PRESENCE_UPDATE (if it hears it) follows its READY.
    if (d.presence !== undefined) await deps.setPresence(session, d.presence);
  };

  return {
    identify,
    resume,
    close: () => {
      identifyQueue.close();
    },
  };
}

export type Handshake = ReturnType<typeof createHandshake>;
