/**
 * Who is in each call the client can see (of the lobbies the player is in, and of its DMs and
 * group DMs), kept from VOICE_STATE_UPDATE for `VoiceArea` (voice.ts): each change reaches the
 * call session of that channel and the voice participant callback.
 *
 * @module
 */
import type { CallSession } from './callSession.js';
import type { ClientCore } from './core.js';
import { lobbyVoiceState } from './voiceEvents.js';
import type { ParticipantState } from './voiceValues.js';

/** Channel types whose calls the SDK joins besides lobbies: a DM and a group DM. */
const CHANNEL_DM = 1;
const CHANNEL_GROUP_DM = 3;

/** A user joined (`joined`) or left a channel's call. */
type ParticipantChanged = (channelId: string, userId: string, joined: boolean) => void;

export class VoiceRoster {
  readonly #core: ClientCore;
  /** The voice area's calls, by channel. */
  readonly #calls: ReadonlyMap<string, CallSession>;
  readonly #changed: ParticipantChanged;
  /** The users in each call, with their voice states. */
  readonly #members = new Map<string, Map<string, ParticipantState>>();

  constructor(
    core: ClientCore,
    calls: ReadonlyMap<string, CallSession>,
    changed: ParticipantChanged,
  ) {
    this.#core = core;
    this.#calls = calls;
    this.#changed = changed;
    core.on('VOICE_STATE_UPDATE', (data) => {
      this.#onVoiceState(data);
    });
  }

  /** The users in a channel's call, or undefined when nobody is known to be in it. */
  members(channelId: string): ReadonlyMap<string, ParticipantState> | undefined {
    return this.#members.get(channelId);
  }

  /** A new gateway session: the server forgot the old session's voice states. */
  clear(): void {
    this.#members.clear();
  }

  /** Whether `channelId` is one of the player's DMs or group DMs (their calls ring). */
  isPrivateChannel(channelId: string): boolean {
    const type = this.#core.state.channels.get(channelId)?.type;
    return type === CHANNEL_DM || type === CHANNEL_GROUP_DM;
  }

  #onVoiceState(data: unknown): void {
    const parsed = lobbyVoiceState(data);
    if (parsed === null) return;
    const { userId, channelId, state, sessionId } = parsed;
    const self = userId === this.#core.state.currentUser?.id;
    // A user is in at most one lobby's call and one DM's call: out of every other of its kind.
    const dm = channelId === null ? null : this.isPrivateChannel(channelId);
    for (const [lobbyId, members] of this.#members) {
      if (lobbyId === channelId || (dm !== null && this.isPrivateChannel(lobbyId) !== dm)) continue;
      if (!members.delete(userId)) continue;
      this.#calls.get(lobbyId)?.onVoiceState({ userId, state: null, sessionId: null, self });
      this.#changed(lobbyId, userId, false);
      if (members.size === 0) this.#members.delete(lobbyId);
    }
    if (channelId === null) {
      for (const call of this.#calls.values()) {
        call.onVoiceState({ userId, state: null, sessionId: null, self });
      }
      return;
    }
    if (
      !this.#core.state.lobbies.has(channelId) &&
      !this.isPrivateChannel(channelId) &&
      !this.#calls.has(channelId)
    ) {
      return;
    }
    let members = this.#members.get(channelId);
    if (members === undefined) {
      members = new Map();
      this.#members.set(channelId, members);
    }
    const added = !members.has(userId);
    members.set(userId, state);
    this.#calls.get(channelId)?.onVoiceState({ userId, state, sessionId, self });
    if (added) this.#changed(channelId, userId, true);
  }
}
