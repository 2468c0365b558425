/**
 * Rich presence and activity invites (docs/social-presence.md): `Activity` and its parts,
 * updateRichPresence / clearRichPresence / setOnlineStatus (gateway op 3), invites sent as DM
 * messages with an `activity` (docs/social-dms.md), accepted with
 * `POST /users/@me/activities/{party_id}/join`, and the ACTIVITY_JOIN dispatch.
 *
 * The platform keeps no presence for a new session, so after each READY the client sends op 3
 * itself: the status of setOnlineStatus (online by default) and the rich presence last set
 * (also one set before connecting). Until then the player shows offline to friends.
 *
 * The invites received are kept in activityInvites.ts; `core.state`'s users, relationships and
 * presences are kept from READY and the dispatches after it in socialSync.ts.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { Activity, ActivityInvite } from './activity.js';
import { MAX_NAME, checkUserId } from './activityParts.js';
import {
  ActivityInvites,
  ownApplication,
  type ActivityInviteCallback,
  type ActivityJoinCallback,
  type ActivityJoinWithApplicationCallback,
  type WireActivityJoin,
} from './activityInvites.js';
import { socialSync } from './socialSync.js';

export * from './activity.js';
export {
  ActivityAssets,
  ActivityButton,
  ActivityParty,
  ActivitySecrets,
  ActivityTimestamps,
  checkUserId,
} from './activityParts.js';
export type {
  ActivityInviteCallback,
  ActivityJoinCallback,
  ActivityJoinWithApplicationCallback,
} from './activityInvites.js';
import { ActivityActionTypes, StatusType } from './enums.js';
import { notReadyError, validationError } from './errors.js';
import type { WireActivity } from './wire.js';

/** The gateway's presence update command. */
const PRESENCE_UPDATE_OP = 3;
/** A DM message's content (docs/messages.md). */
const MAX_CONTENT = 2000;

const WIRE_STATUS: Partial<Record<StatusType, string>> = {
  [StatusType.Online]: 'online',
  [StatusType.Idle]: 'idle',
  [StatusType.Dnd]: 'dnd',
  [StatusType.Invisible]: 'invisible',
  [StatusType.Offline]: 'invisible',
};

export class PresenceArea {
  protected readonly core: ClientCore;
  /** The status op 3 sends (setOnlineStatus), online by default. */
  #status = 'online';
  /** The published activity (op 3 form, with its secrets), or null. */
  #activity: WireActivity | null = null;
  #applicationName: string | null = null;
  /** The invites received, and the invite and join callbacks set below. */
  readonly #invites: ActivityInvites;

  constructor(core: ClientCore) {
    this.core = core;
    // After each READY the player is shown online (or the status set) with the rich presence
    // set before: the platform keeps no presence of a new session.
    socialSync(core).ready.push(() => {
      queueMicrotask(() => {
        if (core.ready) this.#publish();
      });
    });
    this.#invites = new ActivityInvites(core);
  }

  /**
   * Publishes the player's rich presence (gateway op 3) to their friends; a new call replaces it
   * (so a party's new size or privacy reaches them). Before the client is ready it is kept and
   * published at READY. An empty name becomes the application's name (`GET /oauth2/@me`).
   */
  async updateRichPresence(activity: Activity): Promise<void> {
    if (!(activity instanceof Activity)) {
      throw validationError('updateRichPresence: pass an Activity.');
    }
    const wire = activity.toWire();
    if (wire.name === '') wire.name = await this.#defaultName();
    this.#activity = wire;
    if (this.core.ready) this.#publish();
  }

  /** Removes the player's rich presence (op 3 without activities). */
  clearRichPresence(): void {
    this.#activity = null;
    if (this.core.ready) this.#publish();
  }

  /**
   * Sets the player's status: Online, Idle, Dnd, or Invisible (Offline is Invisible: shown offline
   * while connected). Sent with op 3, and again after each reconnect.
   */
  setOnlineStatus(status: StatusType): Promise<void> {
    const wire = WIRE_STATUS[status];
    if (wire === undefined) {
      return Promise.reject(
        validationError(
          `setOnlineStatus: ${String(status)} cannot be set; use Online, Idle, Dnd or Invisible.`,
        ),
      );
    }
    this.#status = wire;
    if (this.core.ready) this.#publish();
    return Promise.resolve();
  }

  /**
   * Invites a user to the player's party: a DM message with `activity: {type: 1, party_id}`
   * (POST /users/{id}/messages). The rich presence must have a party id and a join secret.
   */
  async sendActivityInvite(userId: string, content: string): Promise<void> {
    const id = checkUserId('sendActivityInvite', userId);
    if (typeof content !== 'string' || content.length > MAX_CONTENT) {
      throw validationError(
        `sendActivityInvite: the content must be a string of at most ${MAX_CONTENT} characters.`,
      );
    }
    const partyId = this.#activity?.party?.id;
    if (partyId === undefined || this.#activity?.secrets?.join === undefined) {
      throw validationError(
        'sendActivityInvite: the rich presence has no party to join: updateRichPresence with a party id and a join secret first.',
      );
    }
    await this.core.http.request('POST', `/users/${id}/messages`, {
      json: { content, activity: { type: ActivityActionTypes.Join, party_id: partyId } },
    });
  }

  /**
   * Asks a user to let the player into the party of their rich presence in this game
   * (POST /users/@me/activities/{party_id}/join-request): they get an ActivityInvite of type
   * JoinRequest, and answer with an invite. The client must see the party (a friend's presence).
   */
  async sendActivityJoinRequest(userId: string): Promise<void> {
    const id = checkUserId('sendActivityJoinRequest', userId);
    const own = ownApplication(this.core);
    const partyId = this.core.state.presences
      .get(id)
      ?.activities.find(
        (a) => a.party?.id !== undefined && (own === null || a.application_id === own),
      )?.party?.id;
    if (partyId === undefined) {
      throw validationError(
        'sendActivityJoinRequest: the user is in no party of this game that the player can see.',
      );
    }
    await this.core.http.request(
      'POST',
      `/users/@me/activities/${encodeURIComponent(partyId)}/join-request`,
      { json: { user_id: id } },
    );
  }

  /** Lets the sender of a join request in: an activity invite to the player's party. */
  async sendActivityJoinRequestReply(invite: ActivityInvite): Promise<void> {
    if (!(invite instanceof ActivityInvite) || invite.type() !== ActivityActionTypes.JoinRequest) {
      throw validationError(
        'sendActivityJoinRequestReply: pass the ActivityInvite of type JoinRequest received.',
      );
    }
    await this.sendActivityInvite(invite.senderId(), '');
  }

  /**
   * Accepts an invite (POST /users/@me/activities/{party_id}/join) and resolves with the party's
   * join secret. The player's other sessions in this game get ACTIVITY_JOIN too.
   */
  async acceptActivityInvite(invite: ActivityInvite): Promise<string> {
    if (
      !(invite instanceof ActivityInvite) ||
      invite.senderId() === '' ||
      invite.partyId() === ''
    ) {
      throw validationError(
        'acceptActivityInvite: pass an ActivityInvite with its sender and party id.',
      );
    }
    const key = `${invite.partyId()}\n${invite.senderId()}`;
    this.#invites.accepting(key, true);
    try {
      const join = await this.core.http.request<WireActivityJoin>(
        'POST',
        `/users/@me/activities/${encodeURIComponent(invite.partyId())}/join`,
        {
          json: {
            user_id: invite.senderId(),
            ...(invite.channelId() === '' ? {} : { channel_id: invite.channelId() }),
            ...(invite.messageId() === '' ? {} : { message_id: invite.messageId() }),
          },
        },
      );
      return join.secret;
    } catch (error) {
      this.#invites.accepting(key, false);
      throw error;
    }
  }

  /**
   * Called when an invite to this game arrives in a DM, and when the player accepted an invite
   * on another device (from ACTIVITY_JOIN; that invite carries what the accept named).
   */
  setActivityInviteCreatedCallback(callback: ActivityInviteCallback | null): void {
    this.#invites.callbacks.inviteCreated = callback;
  }

  /** Called when a received invite's validity changes (the party went, the message was deleted). */
  setActivityInviteUpdatedCallback(callback: ActivityInviteCallback | null): void {
    this.#invites.callbacks.inviteUpdated = callback;
  }

  /** Called with the join secret when the player joins a party (accepted here or elsewhere). */
  setActivityJoinCallback(callback: ActivityJoinCallback | null): void {
    this.#invites.callbacks.join = callback;
  }

  /** As setActivityJoinCallback, with the party's application. */
  setActivityJoinWithApplicationCallback(
    callback: ActivityJoinWithApplicationCallback | null,
  ): void {
    this.#invites.callbacks.joinWithApplication = callback;
  }

  #publish(): void {
    const sent = this.core.gateway.send(PRESENCE_UPDATE_OP, {
      since: null,
      afk: false,
      status: this.#status,
      activities: this.#activity === null ? [] : [this.#activity],
    });
    if (!sent) throw notReadyError('updateRichPresence');
    const me = this.core.state.currentUser;
    if (me === null) return;
    const applicationId = this.core.state.applicationId;
    // What friends see: everything but the secrets.
    const shown: WireActivity = { ...(this.#activity ?? { name: '', type: 0 }) };
    delete shown.secrets;
    this.core.state.presences.set(me.id, {
      user: { id: me.id },
      status: this.#status,
      activities:
        this.#activity === null
          ? []
          : [{ ...shown, ...(applicationId === null ? {} : { application_id: applicationId }) }],
    });
  }

  async #defaultName(): Promise<string> {
    if (this.#applicationName === null) {
      const me = await this.core.http.get<{ application: { name: string } }>('/oauth2/@me');
      this.#applicationName = me.application.name.slice(0, MAX_NAME);
    }
    return this.#applicationName;
  }
}
