/**
 * The activity invites the player receives (docs/social-presence.md): invites to this game found
 * in DM messages, join requests (ACTIVITY_JOIN_REQUEST), joins (ACTIVITY_JOIN), each invite's
 * validity as the sender's presence changes, and the invite and join callbacks they run.
 * `PresenceArea` (presence.ts) sets the callbacks and sends and accepts invites.
 *
 * @module
 */
import { ActivityInvite } from './activity.js';
import type { ClientCore } from './core.js';
import { ActivityActionTypes } from './enums.js';
import { socialSync } from './socialSync.js';
import type { WireMessage, WireUser } from './wire.js';

/** Received invites the client keeps watching (the newest ones). */
const MAX_KEPT_INVITES = 200;

export type ActivityInviteCallback = (invite: ActivityInvite) => void;
/** `Client::ActivityJoinCallback`: the join secret of the party to join. */
export type ActivityJoinCallback = (joinSecret: string) => void;
/** `Client::ActivityJoinWithApplicationCallback`. */
export type ActivityJoinWithApplicationCallback = (
  applicationId: string,
  joinSecret: string,
) => void;

/** The ACTIVITY_JOIN dispatch and the join route's answer. */
export interface WireActivityJoin {
  secret: string;
  application_id: string;
  party_id: string;
  user_id: string;
  channel_id?: string;
  message_id?: string;
}

/** The callbacks the game set (null: none). */
interface InviteCallbacks {
  inviteCreated: ActivityInviteCallback | null;
  inviteUpdated: ActivityInviteCallback | null;
  join: ActivityJoinCallback | null;
  joinWithApplication: ActivityJoinWithApplicationCallback | null;
}

/** The player's application: the session's, else the one the client was given. */
export function ownApplication(core: ClientCore): string | null {
  return core.state.applicationId ?? core.applicationId;
}

export class ActivityInvites {
  readonly #core: ClientCore;
  readonly callbacks: InviteCallbacks = {
    inviteCreated: null,
    inviteUpdated: null,
    join: null,
    joinWithApplication: null,
  };
  /** Invites received, by message id, with whether each is still valid. */
  readonly #invites = new Map<string, ActivityInvite>();
  /** Accepts this client made whose ACTIVITY_JOIN has not arrived: `party\nuser`. */
  readonly #accepting = new Set<string>();

  constructor(core: ClientCore) {
    this.#core = core;
    const callbacks = this.callbacks;
    socialSync(core).presenceChanged.push((userId) => {
      this.#revalidate(userId);
    });
    core.on('MESSAGE_CREATE', (data) => {
      this.#onMessage(data as WireMessage & { application?: { id: string }; guild_id?: string });
    });
    core.on('MESSAGE_DELETE', (data) => {
      const { id } = data as { id: string };
      const invite = this.#invites.get(id);
      if (invite === undefined) return;
      this.#invites.delete(id);
      if (invite.isValid()) {
        invite.setIsValid(false);
        core.invoke(callbacks.inviteUpdated, invite);
      }
    });
    core.on('ACTIVITY_JOIN', (data) => {
      this.#onJoin(data as WireActivityJoin);
    });
    // Someone asks to join the player's party: an invite of type JoinRequest, answered with
    // sendActivityJoinRequestReply.
    core.on('ACTIVITY_JOIN_REQUEST', (data) => {
      const request = data as { user: WireUser; application_id: string; party_id: string };
      core.state.cacheUser(request.user);
      core.invoke(
        callbacks.inviteCreated,
        ActivityInvite.of({
          senderId: request.user.id,
          channelId: '',
          messageId: '',
          type: ActivityActionTypes.JoinRequest,
          applicationId: request.application_id,
          partyId: request.party_id,
          isValid: true,
        }),
      );
    });
  }

  /**
   * Marks an accept of this client (`key`: `party\nuser`) as under way, so that its ACTIVITY_JOIN
   * does not report the invite again; `underWay` false: the accept failed.
   */
  accepting(key: string, underWay: boolean): void {
    if (underWay) this.#accepting.add(key);
    else this.#accepting.delete(key);
  }

  /** Whether the inviter's presence (when the client sees it) still shows the party. */
  #stillValid(senderId: string, partyId: string, applicationId: string): boolean {
    const presence = this.#core.state.presences.get(senderId);
    const pair = this.#core.state.relationships.get(senderId);
    const seen = presence !== undefined || pair?.discord?.type === 1 || pair?.game?.type === 1;
    if (!seen) return true;
    return (presence?.activities ?? []).some(
      (a) => a.party?.id === partyId && a.application_id === applicationId,
    );
  }

  #onMessage(message: WireMessage & { application?: { id: string }; guild_id?: string }): void {
    if (message.activity?.party_id === undefined || message.guild_id !== undefined) return;
    const me = this.#core.state.currentUser;
    if (me === null || message.author.id === me.id) return;
    const applicationId = message.application_id ?? message.application?.id ?? '';
    const own = ownApplication(this.#core);
    if (own !== null && applicationId !== own) return;
    const invite = ActivityInvite.of({
      senderId: message.author.id,
      channelId: message.channel_id,
      messageId: message.id,
      type: message.activity.type as ActivityActionTypes,
      applicationId,
      partyId: message.activity.party_id,
      isValid: this.#stillValid(message.author.id, message.activity.party_id, applicationId),
    });
    this.#invites.set(message.id, invite);
    if (this.#invites.size > MAX_KEPT_INVITES) {
      const oldest = this.#invites.keys().next();
      if (oldest.done !== true) this.#invites.delete(oldest.value);
    }
    this.#core.invoke(this.callbacks.inviteCreated, invite);
  }

  #revalidate(userId: string): void {
    for (const invite of this.#invites.values()) {
      if (invite.senderId() !== userId) continue;
      const valid = this.#stillValid(userId, invite.partyId(), invite.applicationId());
      if (valid === invite.isValid()) continue;
      invite.setIsValid(valid);
      this.#core.invoke(this.callbacks.inviteUpdated, invite);
    }
  }

  #onJoin(join: WireActivityJoin): void {
    const key = `${join.party_id}\n${join.user_id}`;
    if (!this.#accepting.delete(key)) {
      // Accepted on another device: the game hears of the invite it answered.
      this.#core.invoke(
        this.callbacks.inviteCreated,
        ActivityInvite.of({
          senderId: join.user_id,
          channelId: join.channel_id ?? '',
          messageId: join.message_id ?? '',
          type: ActivityActionTypes.Join,
          applicationId: join.application_id,
          partyId: join.party_id,
          isValid: true,
        }),
      );
    }
    this.#core.invoke(this.callbacks.join, join.secret);
    this.#core.invoke(this.callbacks.joinWithApplication, join.application_id, join.secret);
  }
}
