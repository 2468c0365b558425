/**
 * @module gateway/guildCreate: a session joins a guild. Its GUILD_CREATE is built from the
 * guild's snapshot (loaded once for every session on the node) and what the routing rules let
 * the session see, and is shared, encoded once, by the sessions that see the same.
 */
import type { Clock } from '../domain/clock.js';
import { serializeMember } from '../resources/members/index.js';
import type { MemberRecord } from '../storage/index.js';
import { PreserializedDispatch } from './frames.js';
import { guildCreateExtras } from './payloads.js';
import type { GuildDirectory } from './guildDirectory.js';
import type { GuildSnapshot, GuildState } from './guildState.js';
import type { SessionRegistry } from './registry.js';
import { guildCreateView } from './routing.js';
import type { Sender } from './send.js';
import type { DispatchSource, Session } from './session.js';

export function createGuildJoin(deps: {
  clock: Clock;
  guilds: GuildDirectory;
  registry: SessionRegistry;
  send: Sender;
}) {
  const { clock, guilds, registry, send } = deps;

  const guildCreate = (
    state: GuildState<Session>,
    snapshot: GuildSnapshot,
    input: { session: Session; self: MemberRecord },
  ): PreserializedDispatch => {
    const { session, self } = input;
    const view = guildCreateView(state, { session, snapshot, nowMs: clock.now() });
    const cached = snapshot.payloads.get(view.key);
    if (cached !== undefined) return cached;
    const { channels, threads, presences: shownPresences, scheduledEvents } = view.build();
    const firstMembers = snapshot.members.slice(0, session.largeThreshold);
    const members = firstMembers.map((m) => m.wire);
    if (!firstMembers.some((m) => m.userId === session.userId)) {
      members.push(serializeMember(self, session.user));
    }
    const data = {
      ...snapshot.guild,
      ...guildCreateExtras({
        joinedAtMs: self.joinedAt,
        large: snapshot.memberCount > session.largeThreshold,
        memberCount: snapshot.memberCount,
        voiceStates: snapshot.voiceStates,
        members,
        channels,
        threads,
        presences: shownPresences,
        scheduledEvents,
        // Stages in the channels this session sees; the guild's sounds for every member.
        stageInstances: snapshot.stageInstances.filter((stage) =>
          channels.some((c) => (c as { id?: string }).id === stage.channel_id),
        ),
        soundboardSounds: snapshot.soundboardSounds,
      }),
    };
    const event = new PreserializedDispatch('GUILD_CREATE', JSON.stringify(data));
    snapshot.payloads.set(view.key, event);
    return event;
  };

  /**
   * Loads a guild for a session, sends its GUILD_CREATE and starts its dispatches; nothing when
   * the session is already in the guild. The node watches the guild's subject before the snapshot
   * is read, so a change is either in the snapshot or delivered after the GUILD_CREATE. With
   * `announce: false` (a session taken over from another node, which sent it already) no
   * GUILD_CREATE goes out. `source` is the bus dispatch that brought the join (GUILD_MEMBER_ADD).
   */
  return async (
    session: Session,
    input: { guildId: string; self: MemberRecord; announce?: boolean; source?: DispatchSource },
  ) => {
    const { guildId, self } = input;
    const { state, watching } = guilds.hold(guildId);
    try {
      await watching;
      state.setMember(session.userId, {
        roleIds: self.roleIds,
        communicationDisabledUntil: self.communicationDisabledUntil,
        joinedAt: new Date(self.joinedAt).toISOString(),
      });
      const snapshot = await guilds.snapshotOf(state);
      if (snapshot === null || !registry.has(session.id) || session.guildIds.has(guildId)) return;
      const event =
        input.announce === false ? null : guildCreate(state, snapshot, { session, self });
      state.sessions.add(session);
      session.guildIds.add(guildId);
      if (event !== null) send.deliver(session, event, input.source ?? null);
    } finally {
      guilds.unhold(state);
    }
  };
}

export type GuildCreate = ReturnType<typeof createGuildJoin>;
