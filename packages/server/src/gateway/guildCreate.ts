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
import { guildCreateView, type Presence } from './routing.js';
import type { Sender } from './send.js';
import type { Session } from './session.js';

export function createGuildJoin(deps: {
  clock: Clock;
  guilds: GuildDirectory;
  registry: SessionRegistry;
  send: Sender;
  presences: ReadonlyMap<string, Presence>;
}) {
  const { clock, guilds, registry, send, presences } = deps;

  const guildCreate = (
    state: GuildState<Session>,
    snapshot: GuildSnapshot,
    input: { session: Session; self: MemberRecord },
  ): PreserializedDispatch => {
    const { session, self } = input;
    const view = guildCreateView(state, { session, snapshot, presences, nowMs: clock.now() });
    const cached = snapshot.payloads.get(view.key);
    if (cached !== undefined) return cached;
    const { channels, presences: shownPresences, scheduledEvents } = view.build();
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
        presences: shownPresences,
        scheduledEvents,
      }),
    };
    const event = new PreserializedDispatch('GUILD_CREATE', JSON.stringify(data));
    snapshot.payloads.set(view.key, event);
    return event;
  };

  /** Loads a guild for a session, sends its GUILD_CREATE and starts its dispatches. */
  return async (session: Session, input: { guildId: string; self: MemberRecord }) => {
    const state = guilds.stateOf(input.guildId);
    state.setMember(session.userId, {
      roleIds: input.self.roleIds,
      communicationDisabledUntil: input.self.communicationDisabledUntil,
      joinedAt: new Date(input.self.joinedAt).toISOString(),
    });
    const snapshot = await guilds.snapshotOf(state);
    if (snapshot === null || !registry.has(session.id)) {
      if (state.sessions.size === 0) guilds.forget(input.guildId);
      return;
    }
    const event = guildCreate(state, snapshot, { session, self: input.self });
    state.sessions.add(session);
    session.guildIds.add(input.guildId);
    send.deliver(session, event);
  };
}

export type GuildCreate = ReturnType<typeof createGuildJoin>;
