/**
 * The local cache of DMs and messages (`core.state`'s channels, messages and histories), kept
 * from READY and the CHANNEL_*, MESSAGE_* and LOBBY_MESSAGE_* dispatches, with the message
 * callbacks those dispatches run; `MessagesArea` (messages.ts) sets the callbacks and keeps what
 * its requests answer here too. Why a history may answer without a request: messages.ts.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { mergeIds } from './rules.js';
import type { WireChannel, WireMessage } from './wire.js';

export type MessageCreatedCallback = (messageId: string) => void;
export type MessageUpdatedCallback = (messageId: string) => void;
export type MessageDeletedCallback = (messageId: string, channelId: string) => void;

/** The callbacks the game set (null: none). */
interface MessageCallbacks {
  created: MessageCreatedCallback | null;
  updated: MessageUpdatedCallback | null;
  deleted: MessageDeletedCallback | null;
}

export class MessageCache {
  readonly #core: ClientCore;
  readonly callbacks: MessageCallbacks = { created: null, updated: null, deleted: null };
  /** Ids deleted in this session: an answer that was under way when they went keeps them out. */
  readonly #deletedIds = new Set<string>();
  /** Counts gateway sessions: an answer that outlived its session does not fill the cache. */
  #session = 0;

  constructor(core: ClientCore) {
    this.#core = core;
    const state = core.state;
    core.on('READY', (data) => {
      this.#session += 1;
      this.#deletedIds.clear();
      for (const channel of (data as { private_channels?: WireChannel[] }).private_channels ?? []) {
        this.keepChannel(channel);
      }
    });
    core.on('CHANNEL_CREATE', (data) => {
      const channel = data as WireChannel;
      if (channel.guild_id === undefined) this.keepChannel(channel);
    });
    core.on('CHANNEL_UPDATE', (data) => {
      const channel = data as WireChannel;
      if (state.channels.has(channel.id)) this.keepChannel(channel);
    });
    core.on('CHANNEL_DELETE', (data) => {
      const { id } = data as { id: string };
      state.channels.delete(id);
      state.histories.delete(id);
    });
    core.on('MESSAGE_CREATE', (data) => {
      const message = data as WireMessage & { guild_id?: string };
      if (message.guild_id !== undefined) return;
      this.keepMessage(message);
      const channel = state.channels.get(message.channel_id);
      if (channel !== undefined) channel.last_message_id = message.id;
      const history = state.histories.get(message.channel_id) ?? { ids: [], complete: false };
      state.histories.set(message.channel_id, mergeIds(history, [message.id]));
      core.invoke(this.callbacks.created, message.id);
    });
    core.on('MESSAGE_UPDATE', (data) => {
      const patch = data as Partial<WireMessage> & { id: string; guild_id?: string };
      if (patch.guild_id !== undefined) return;
      this.#updateMessage(patch);
    });
    core.on('MESSAGE_DELETE', (data) => {
      const {
        id,
        channel_id: channelId,
        guild_id: guildId,
      } = data as {
        id: string;
        channel_id: string;
        guild_id?: string;
      };
      if (guildId !== undefined) return;
      this.#forget(id, channelId);
    });
    core.on('LOBBY_MESSAGE_CREATE', (data) => {
      const message = data as WireMessage;
      this.keepMessage(message);
      core.invoke(this.callbacks.created, message.id);
    });
    core.on('LOBBY_MESSAGE_UPDATE', (data) => {
      this.#updateMessage(data as WireMessage);
    });
    core.on('LOBBY_MESSAGE_DELETE', (data) => {
      const { id, lobby_id: lobbyId } = data as { id: string; lobby_id: string };
      this.#forget(id, lobbyId);
    });
  }

  /** The gateway session's number: a request's answer fills the cache only in its own session. */
  get session(): number {
    return this.#session;
  }

  /** Whether the message was deleted in this session. */
  isDeleted(messageId: string): boolean {
    return this.#deletedIds.has(messageId);
  }

  keepChannel(channel: WireChannel): void {
    const state = this.#core.state;
    const known = state.channels.get(channel.id);
    state.channels.set(channel.id, known === undefined ? channel : { ...known, ...channel });
    for (const user of channel.recipients ?? []) state.cacheUser(user);
  }

  keepMessage(message: WireMessage): void {
    if (this.#deletedIds.has(message.id)) return;
    const state = this.#core.state;
    const known = state.messages.get(message.id);
    state.messages.set(message.id, known === undefined ? message : { ...known, ...message });
    state.cacheUser(message.author);
  }

  #updateMessage(patch: Partial<WireMessage> & { id: string }): void {
    const state = this.#core.state;
    const known = state.messages.get(patch.id);
    if (known !== undefined) {
      const next = { ...known, ...patch };
      // A content edit clears the backend's moderation metadata (docs/social-dms.md).
      if (patch.content !== undefined && patch.content !== known.content) {
        delete next.moderation_metadata;
      }
      state.messages.set(patch.id, next);
    } else if (patch.channel_id !== undefined && patch.author !== undefined) {
      this.keepMessage(patch as WireMessage);
    }
    this.#core.invoke(this.callbacks.updated, patch.id);
  }

  #forget(messageId: string, channelId: string): void {
    const state = this.#core.state;
    this.#deletedIds.add(messageId);
    state.messages.delete(messageId);
    const history = state.histories.get(channelId);
    if (history !== undefined) {
      state.histories.set(channelId, {
        ids: history.ids.filter((id) => id !== messageId),
        complete: history.complete,
      });
    }
    this.#core.invoke(this.callbacks.deleted, messageId, channelId);
  }
}
