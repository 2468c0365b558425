/**
 * The lobbies the player is in (`core.state.lobbies`), kept from READY and the LOBBY_* dispatches
 * (docs/lobbies.md#events), with the lobby callbacks those dispatches run; `LobbiesArea`
 * (lobbies.ts) sets the callbacks and keeps what its requests answer here too.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import type { WireLobby, WireLobbyMember, WireMessage } from './wire.js';

export type LobbyCreatedCallback = (lobbyId: string) => void;
export type LobbyDeletedCallback = (lobbyId: string) => void;
export type LobbyUpdatedCallback = (lobbyId: string) => void;
export type LobbyMemberAddedCallback = (lobbyId: string, memberId: string) => void;
export type LobbyMemberRemovedCallback = (lobbyId: string, memberId: string) => void;
export type LobbyMemberUpdatedCallback = (lobbyId: string, memberId: string) => void;

/** The callbacks the game set (null: none). */
interface LobbyCallbacks {
  created: LobbyCreatedCallback | null;
  deleted: LobbyDeletedCallback | null;
  updated: LobbyUpdatedCallback | null;
  memberAdded: LobbyMemberAddedCallback | null;
  memberRemoved: LobbyMemberRemovedCallback | null;
  memberUpdated: LobbyMemberUpdatedCallback | null;
}

export class LobbyCache {
  readonly #core: ClientCore;
  readonly callbacks: LobbyCallbacks = {
    created: null,
    deleted: null,
    updated: null,
    memberAdded: null,
    memberRemoved: null,
    memberUpdated: null,
  };
  /** Lobbies whose LOBBY_CREATE (or READY) this session has seen: a later one is an update. */
  readonly #announced = new Set<string>();

  constructor(core: ClientCore) {
    this.#core = core;
    const state = core.state;
    const callbacks = this.callbacks;
    core.on('READY', (data) => {
      this.#announced.clear();
      for (const lobby of (data as { lobbies?: WireLobby[] }).lobbies ?? []) {
        this.keep(lobby);
        this.#announced.add(lobby.id);
      }
    });
    core.on('LOBBY_CREATE', (data) => {
      const lobby = data as WireLobby;
      const known = this.#announced.has(lobby.id);
      this.#announced.add(lobby.id);
      this.keep(lobby);
      core.invoke(known ? callbacks.updated : callbacks.created, lobby.id);
    });
    core.on('LOBBY_UPDATE', (data) => {
      const lobby = data as WireLobby;
      this.keep(lobby);
      core.invoke(callbacks.updated, lobby.id);
    });
    core.on('LOBBY_DELETE', (data) => {
      const { id } = data as { id: string };
      this.drop(id);
    });
    core.on('LOBBY_MEMBER_ADD', (data) => {
      const { lobby_id: lobbyId, member } = data as { lobby_id: string; member: WireLobbyMember };
      const lobby = state.lobbies.get(lobbyId);
      if (lobby === undefined) return;
      const added = !lobby.members.some((m) => m.id === member.id);
      lobby.members = [...lobby.members.filter((m) => m.id !== member.id), member];
      core.invoke(added ? callbacks.memberAdded : callbacks.memberUpdated, lobbyId, member.id);
    });
    core.on('LOBBY_MEMBER_UPDATE', (data) => {
      const { lobby_id: lobbyId, member } = data as { lobby_id: string; member: WireLobbyMember };
      const lobby = state.lobbies.get(lobbyId);
      if (lobby === undefined) return;
      lobby.members = lobby.members.map((m) => (m.id === member.id ? { ...m, ...member } : m));
      core.invoke(callbacks.memberUpdated, lobbyId, member.id);
    });
    core.on('LOBBY_MEMBER_REMOVE', (data) => {
      const { lobby_id: lobbyId, member } = data as { lobby_id: string; member: WireLobbyMember };
      const lobby = state.lobbies.get(lobbyId);
      if (lobby === undefined) return;
      lobby.members = lobby.members.filter((m) => m.id !== member.id);
      core.invoke(callbacks.memberRemoved, lobbyId, member.id);
      // The player left or was removed: the lobby is no longer theirs to see.
      if (member.id === state.currentUser?.id) this.drop(lobbyId);
    });
  }

  keep(lobby: WireLobby): void {
    const state = this.#core.state;
    state.lobbies.set(lobby.id, { ...lobby, members: [...lobby.members] });
    for (const member of lobby.members) state.cacheUser(member.user);
  }

  keepMessage(message: WireMessage): void {
    const state = this.#core.state;
    const known = state.messages.get(message.id);
    state.messages.set(message.id, known === undefined ? message : { ...known, ...message });
    state.cacheUser(message.author);
  }

  /** The lobby is no longer the player's: out of the state, and the deleted callback runs. */
  drop(lobbyId: string): void {
    this.#announced.delete(lobbyId);
    if (this.#core.state.lobbies.delete(lobbyId))
      this.#core.invoke(this.callbacks.deleted, lobbyId);
  }
}
