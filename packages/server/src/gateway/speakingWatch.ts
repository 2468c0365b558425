/**
 * @module gateway/speakingWatch: Guildhall's op 1001 (docs/gateway.md#guildhalls-own). A person's
 * session follows who speaks in one guild voice channel it may connect to, without being in the
 * call: the web client does, for the embedded app SDK's SPEAKING_START and SPEAKING_STOP in an
 * activity's frame (docs/activities.md). Voice nodes publish a guild's speaking changes on its
 * speaking subject (voice/gateway/speakingFeed.ts); this node watches that subject while one of
 * its sessions follows a channel of the guild, and sends each change of that channel as a
 * SPEAKING_UPDATE dispatch to the sessions that follow it and still may (VIEW_CHANNEL and
 * CONNECT there, a member of the guild). What is followed lives on this node: a session resumed
 * elsewhere asks again.
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import type { SubjectSubscriptions } from '../bus/subscriptions.js';
import type { BusEvent } from '../bus/index.js';
import type { Clock } from '../domain/clock.js';
import { SPEAKING_UPDATE, speakingSubject, type SpeakingUpdate } from '../events/dispatcher.js';
import { InvalidCommandError } from './commandContext.js';
import type { SpeakingSubscribePayload } from './clientOps.js';
import { EncodedDispatch } from './frames.js';
import type { GuildState } from './guildState.js';
import type { Sender } from './send.js';
import type { Session } from './session.js';

/** What a session needs in a channel to follow who speaks there: to see it and join its call. */
const MAY_FOLLOW = P.VIEW_CHANNEL | P.CONNECT;

export interface SpeakingWatch {
  /** Op 1001: follow `channel_id` of `guild_id` (null: nothing). Throws for a session not a person's. */
  follow(session: Session, d: SpeakingSubscribePayload): void;
  /** The session ended: it follows nothing. */
  forget(session: Session): void;
  /** A speaking change from the bus. */
  receive(event: BusEvent): void;
}

export function createSpeakingWatch(deps: {
  subscriptions: SubjectSubscriptions;
  guilds: { get(guildId: string): GuildState | undefined };
  send: Pick<Sender, 'deliver'>;
  clock: Clock;
  onError: (err: unknown) => void;
}): SpeakingWatch {
  const { subscriptions, guilds, send, clock } = deps;
  /** Per guild: the sessions following a channel of it, and which. */
  const followers = new Map<string, Map<Session, string>>();
  /** Per session: the guild it follows a channel of. */
  const following = new Map<Session, string>();

  const mayFollow = (session: Session, guildId: string, channelId: string) => {
    const state = guilds.get(guildId);
    if (state === undefined || !session.guildIds.has(guildId)) return false;
    const permissions = state.channelPermissions(session.userId, channelId, clock.now());
    return (permissions & MAY_FOLLOW) === MAY_FOLLOW;
  };

  const forget = (session: Session) => {
    const guildId = following.get(session);
    if (guildId === undefined) return;
    following.delete(session);
    const inGuild = followers.get(guildId);
    inGuild?.delete(session);
    if (inGuild?.size === 0) {
      followers.delete(guildId);
      subscriptions.release(speakingSubject(guildId));
    }
  };

  return {
    follow(session, d) {
      if (session.isApp || session.sdk || session.grant.kind !== 'session') {
        throw new InvalidCommandError('only a person’s client follows who speaks');
      }
      forget(session);
      const { guild_id: guildId, channel_id: channelId } = d;
      // A channel it may not follow is not followed, as op 43 leaves out what it may not see.
      if (channelId === null || !mayFollow(session, guildId, channelId)) return;
      let inGuild = followers.get(guildId);
      if (inGuild === undefined) {
        inGuild = new Map();
        followers.set(guildId, inGuild);
        subscriptions.acquire(speakingSubject(guildId)).catch(deps.onError);
      }
      inGuild.set(session, channelId);
      following.set(session, guildId);
    },
    forget,
    receive(event) {
      const data = event.data as SpeakingUpdate;
      const inGuild = followers.get(data.guild_id);
      if (inGuild === undefined) return;
      let dispatch: EncodedDispatch | null = null;
      for (const [session, channelId] of inGuild) {
        if (channelId !== data.channel_id || !mayFollow(session, data.guild_id, channelId)) {
          continue;
        }
        dispatch ??= new EncodedDispatch(SPEAKING_UPDATE, data);
        send.deliver(session, dispatch);
      }
    },
  };
}
