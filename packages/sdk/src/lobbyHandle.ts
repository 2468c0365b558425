/**
 * The lobby handles (`LobbyHandle`, `LobbyMemberHandle`, `LinkedChannel`): read live from the
 * client's cache. Apart from lobbies.ts (the area and its operations) so that a message's
 * `lobby()` reaches them without messageHandle.ts and lobbies.ts importing each other.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { lobbyCallInfo } from './lobbyCalls.js';
import type { CallInfoHandle } from './voiceValues.js';
import type { WireChannel, WireLobby, WireLobbyMember, WireUser } from './wire.js';

/** The lobby member flag that lets a member link the lobby to a guild channel. */
export const LOBBY_MEMBER_CAN_LINK = 1;

/** The guild channel a lobby is linked to (`LinkedChannel`): a snapshot. */
export class LinkedChannel {
  readonly #id: string;
  readonly #name: string;
  readonly #guildId: string;

  constructor(channel: WireChannel) {
    this.#id = channel.id;
    this.#name = channel.name ?? '';
    this.#guildId = channel.guild_id ?? '';
  }

  id(): string {
    return this.#id;
  }

  name(): string {
    return this.#name;
  }

  guildId(): string {
    return this.#guildId;
  }
}

/** One member of a lobby (`LobbyMemberHandle`), read live from the cache. */
export class LobbyMemberHandle {
  readonly #core: ClientCore;
  readonly #lobbyId: string;
  readonly #id: string;

  constructor(core: ClientCore, lobbyId: string, id: string) {
    this.#core = core;
    this.#lobbyId = lobbyId;
    this.#id = id;
  }

  #member(): WireLobbyMember | undefined {
    return this.#core.state.lobbies.get(this.#lobbyId)?.members.find((m) => m.id === this.#id);
  }

  id(): string {
    return this.#id;
  }

  /** Whether the member may link the lobby to a guild channel (the CanLinkLobby flag). */
  canLinkLobby(): boolean {
    return ((this.#member()?.flags ?? 0) & LOBBY_MEMBER_CAN_LINK) !== 0;
  }

  /**
   * Whether the member is connected to the lobby: the server's `connected` when it sends one.
   * Guildhall's server does not report it (docs/lobbies.md), so this is false there.
   */
  connected(): boolean {
    return this.#member()?.connected === true;
  }

  metadata(): Record<string, string> {
    return { ...(this.#member()?.metadata ?? {}) };
  }

  /** The member's user as the cache knows it (null when the cache has not seen them). */
  user(): WireUser | null {
    return this.#core.state.users.get(this.#id) ?? this.#member()?.user ?? null;
  }
}

/** A lobby the player is in (`LobbyHandle`), read live from the cache. */
export class LobbyHandle {
  readonly #core: ClientCore;
  readonly #id: string;

  constructor(core: ClientCore, id: string) {
    this.#core = core;
    this.#id = id;
  }

  #lobby(): WireLobby | undefined {
    return this.#core.state.lobbies.get(this.#id);
  }

  id(): string {
    return this.#id;
  }

  metadata(): Record<string, string> {
    return { ...(this.#lobby()?.metadata ?? {}) };
  }

  lobbyMemberIds(): string[] {
    return (this.#lobby()?.members ?? []).map((member) => member.id);
  }

  getLobbyMemberHandle(memberId: string): LobbyMemberHandle | null {
    const found = this.#lobby()?.members.some((member) => member.id === memberId) ?? false;
    return found ? new LobbyMemberHandle(this.#core, this.#id, memberId) : null;
  }

  lobbyMembers(): LobbyMemberHandle[] {
    return this.lobbyMemberIds().map((id) => new LobbyMemberHandle(this.#core, this.#id, id));
  }

  /**
   * The lobby's ongoing call (its participants and their voice states) while anyone is in it,
   * else null. The client learns of calls it is not in through the lobby's voice states.
   */
  getCallInfoHandle(): CallInfoHandle | null {
    return lobbyCallInfo(this.#core, this.#id);
  }

  /** The guild channel the lobby is linked to, or null. */
  linkedChannel(): LinkedChannel | null {
    const channel = this.#lobby()?.linked_channel;
    return channel === undefined || channel === null ? null : new LinkedChannel(channel);
  }
}
