/**
 * @module rpc/voiceStates: the voice states the daemon's gateway session sees (GUILD_CREATE's
 * `voice_states`, then VOICE_STATE_UPDATE), kept per channel: the person's own (where they are
 * in voice, whichever of their clients joined) and everyone's in the channels of their guilds,
 * as the RPC events VOICE_STATE_CREATE / UPDATE / DELETE and VOICE_CHANNEL_SELECT describe them.
 */

/** A voice state as the gateway sends it. */
interface WireVoiceState {
  guild_id?: string | null;
  channel_id: string | null;
  user_id: string;
  session_id?: string;
  mute?: boolean;
  deaf?: boolean;
  self_mute?: boolean;
  self_deaf?: boolean;
  suppress?: boolean;
  member?: { nick?: string | null; user?: Record<string, unknown> };
}

/** A voice state as RPC sends it (GET_CHANNEL's `voice_states`, the VOICE_STATE_* events). */
export interface RpcVoiceState {
  voice_state: {
    mute: boolean;
    deaf: boolean;
    self_mute: boolean;
    self_deaf: boolean;
    suppress: boolean;
  };
  user: Record<string, unknown>;
  nick: string | null;
  volume: number;
  mute: boolean;
  pan: { left: number; right: number };
}

/** Where the person is in voice. */
export interface OwnVoice {
  guildId: string;
  channelId: string;
  sessionId: string | null;
  selfMute: boolean;
  selfDeaf: boolean;
}

export type VoiceStateEvent =
  | {
      evt: 'VOICE_STATE_CREATE' | 'VOICE_STATE_UPDATE' | 'VOICE_STATE_DELETE';
      channelId: string;
      data: RpcVoiceState;
    }
  | { evt: 'VOICE_CHANNEL_SELECT'; data: { channel_id: string | null; guild_id: string | null } };

interface Held {
  guildId: string;
  rpc: RpcVoiceState;
  wire: WireVoiceState;
}

function rpcState(wire: WireVoiceState): RpcVoiceState {
  const user = wire.member?.user ?? { id: wire.user_id };
  return {
    voice_state: {
      mute: wire.mute ?? false,
      deaf: wire.deaf ?? false,
      self_mute: wire.self_mute ?? false,
      self_deaf: wire.self_deaf ?? false,
      suppress: wire.suppress ?? false,
    },
    user: {
      id: user['id'] ?? wire.user_id,
      username: user['username'] ?? '',
      discriminator: user['discriminator'] ?? '0',
      global_name: user['global_name'] ?? null,
      avatar: user['avatar'] ?? null,
      bot: user['bot'] ?? false,
    },
    nick: wire.member?.nick ?? null,
    // The person's own per-user settings (SET_USER_VOICE_SETTINGS) are not kept: unchanged.
    volume: 100,
    mute: false,
    pan: { left: 1, right: 1 },
  };
}

export class VoiceStates {
  /** channel id → user id → state. */
  readonly #channels = new Map<string, Map<string, Held>>();
  /** user id → the channel they are in. */
  readonly #where = new Map<string, string>();
  readonly #personId: string;
  #own: OwnVoice | null = null;
  readonly #listeners: ((event: VoiceStateEvent) => void)[] = [];

  constructor(personId: string) {
    this.#personId = personId;
  }

  /** Calls `listener` with every change; the function returned stops it. */
  onEvent(listener: (event: VoiceStateEvent) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners.indexOf(listener);
      if (at >= 0) this.#listeners.splice(at, 1);
    };
  }

  /** Resolves true once the person is in `channelId` (null: in none), false after `timeoutMs`. */
  waitForOwn(channelId: string | null, timeoutMs: number): Promise<boolean> {
    if ((this.#own?.channelId ?? null) === channelId) return Promise.resolve(true);
    return new Promise((resolve) => {
      const stop = this.onEvent(() => {
        if ((this.#own?.channelId ?? null) !== channelId) return;
        clearTimeout(timer);
        stop();
        resolve(true);
      });
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, timeoutMs);
      timer.unref();
    });
  }

  own(): OwnVoice | null {
    return this.#own;
  }

  /** The states in a channel, in the order they came. */
  inChannel(channelId: string): RpcVoiceState[] {
    return [...(this.#channels.get(channelId)?.values() ?? [])].map((h) => h.rpc);
  }

  /** A new gateway session: what it reports replaces what was known. */
  reset(): void {
    this.#channels.clear();
    this.#where.clear();
    this.#setOwn(null);
  }

  guildCreate(guild: { id: string; voice_states?: WireVoiceState[] }): void {
    for (const state of guild.voice_states ?? []) this.update({ ...state, guild_id: guild.id });
  }

  update(wire: WireVoiceState): void {
    const guildId = wire.guild_id;
    if (typeof guildId !== 'string') return; // a lobby call's or a DM call's
    const before = this.#where.get(wire.user_id);
    if (before !== undefined && before !== wire.channel_id) {
      const held = this.#channels.get(before)?.get(wire.user_id);
      this.#channels.get(before)?.delete(wire.user_id);
      this.#where.delete(wire.user_id);
      if (held !== undefined)
        this.#emit({ evt: 'VOICE_STATE_DELETE', channelId: before, data: held.rpc });
    }
    if (wire.channel_id !== null) {
      const channel = this.#channels.get(wire.channel_id) ?? new Map<string, Held>();
      this.#channels.set(wire.channel_id, channel);
      const known = channel.has(wire.user_id);
      const held = { guildId, rpc: rpcState(wire), wire };
      channel.set(wire.user_id, held);
      this.#where.set(wire.user_id, wire.channel_id);
      this.#emit({
        evt: known ? 'VOICE_STATE_UPDATE' : 'VOICE_STATE_CREATE',
        channelId: wire.channel_id,
        data: held.rpc,
      });
    }
    if (wire.user_id !== this.#personId) return;
    this.#setOwn(
      wire.channel_id === null
        ? null
        : {
            guildId,
            channelId: wire.channel_id,
            sessionId: wire.session_id ?? null,
            selfMute: wire.self_mute ?? false,
            selfDeaf: wire.self_deaf ?? false,
          },
    );
  }

  #setOwn(own: OwnVoice | null): void {
    const was = this.#own;
    this.#own = own;
    if (was?.channelId === own?.channelId) return;
    this.#emit({
      evt: 'VOICE_CHANNEL_SELECT',
      data: { channel_id: own?.channelId ?? null, guild_id: own?.guildId ?? null },
    });
  }

  #emit(event: VoiceStateEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
