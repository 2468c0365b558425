/**
 * Direct messages: send, edit, delete, summaries, and the local message cache; the message
 * created/updated/deleted callbacks of DMs and lobby messages.
 *
 * The cache (`core.state.histories`, one entry per DM channel) holds message ids oldest first that
 * are **contiguous up to now**: nothing newer than its oldest id is missing. That holds because a
 * history only grows from answers of the server (the newest messages of the channel) and from the
 * live MESSAGE_CREATE dispatches of the same gateway session; a RESUME replays what was missed,
 * and a new session (a READY) clears the whole state, the histories with it.
 * `getUserMessagesWithLimit` answers from it without a request when it holds enough.
 *
 * @module
 */
import { ChannelType } from './enums.js';
import { validationError } from './errors.js';
import type { ClientCore } from './core.js';
import { discloseOnce } from './disclosure.js';
import { cacheAnswers, mergeIds } from './rules.js';
import { requireContent, requireMetadata, requireSnowflake } from './messageChecks.js';
import { ChannelHandle, MessageHandle, UserMessageSummary } from './messageHandle.js';
import type { WireChannel, WireMessage } from './wire.js';

/** The most messages `GET /users/{id}/messages` answers per page. */
const DM_PAGE_LIMIT = 100;
/** The most messages one getUserMessagesWithLimit asks for. */
export const MAX_USER_MESSAGES_LIMIT = 1000;

export type MessageCreatedCallback = (messageId: string) => void;
export type MessageUpdatedCallback = (messageId: string) => void;
export type MessageDeletedCallback = (messageId: string, channelId: string) => void;

const bySnowflake = (a: string, b: string): number => {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

export class MessagesArea {
  protected readonly core: ClientCore;
  #created: MessageCreatedCallback | null = null;
  #updated: MessageUpdatedCallback | null = null;
  #deleted: MessageDeletedCallback | null = null;
  /** Ids deleted in this session: an answer that was under way when they went keeps them out. */
  readonly #deletedIds = new Set<string>();
  /** Counts gateway sessions: an answer that outlived its session does not fill the cache. */
  #session = 0;

  constructor(core: ClientCore) {
    this.core = core;
    const state = core.state;
    core.on('READY', (data) => {
      this.#session += 1;
      this.#deletedIds.clear();
      for (const channel of (data as { private_channels?: WireChannel[] }).private_channels ?? []) {
        this.#keepChannel(channel);
      }
    });
    core.on('CHANNEL_CREATE', (data) => {
      const channel = data as WireChannel;
      if (channel.guild_id === undefined) this.#keepChannel(channel);
    });
    core.on('CHANNEL_UPDATE', (data) => {
      const channel = data as WireChannel;
      if (state.channels.has(channel.id)) this.#keepChannel(channel);
    });
    core.on('CHANNEL_DELETE', (data) => {
      const { id } = data as { id: string };
      state.channels.delete(id);
      state.histories.delete(id);
    });
    core.on('MESSAGE_CREATE', (data) => {
      const message = data as WireMessage & { guild_id?: string };
      if (message.guild_id !== undefined) return;
      this.#keepMessage(message);
      const channel = state.channels.get(message.channel_id);
      if (channel !== undefined) channel.last_message_id = message.id;
      const history = state.histories.get(message.channel_id) ?? { ids: [], complete: false };
      state.histories.set(message.channel_id, mergeIds(history, [message.id]));
      core.invoke(this.#created, message.id);
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
      this.#keepMessage(message);
      core.invoke(this.#created, message.id);
    });
    core.on('LOBBY_MESSAGE_UPDATE', (data) => {
      this.#updateMessage(data as WireMessage);
    });
    core.on('LOBBY_MESSAGE_DELETE', (data) => {
      const { id, lobby_id: lobbyId } = data as { id: string; lobby_id: string };
      this.#forget(id, lobbyId);
    });
  }

  setMessageCreatedCallback(callback: MessageCreatedCallback | null): void {
    this.#created = callback;
  }

  setMessageUpdatedCallback(callback: MessageUpdatedCallback | null): void {
    this.#updated = callback;
  }

  setMessageDeletedCallback(callback: MessageDeletedCallback | null): void {
    this.#deleted = callback;
  }

  /** `POST /users/{id}/messages`: the DM with the user (opened when needed) gets a message. */
  async sendUserMessage(recipientId: string, content: string): Promise<string> {
    const operation = 'sendUserMessage';
    requireSnowflake(operation, 'recipientId', recipientId);
    requireContent(operation, content, 2000);
    this.core.requireReady(operation);
    const message = await this.core.http.request<WireMessage>(
      'POST',
      `/users/${recipientId}/messages`,
      { json: { content } },
    );
    this.#keepMessage(message);
    discloseOnce(this.core, message, recipientId);
    return message.id;
  }

  /**
   * `POST /users/{id}/messages` with `metadata`: a DM carrying the game's key/value data, which
   * the recipients' clients read through `MessageHandle.metadata()`.
   */
  async sendUserMessageWithMetadata(
    recipientId: string,
    content: string,
    metadata: Record<string, string>,
  ): Promise<string> {
    const operation = 'sendUserMessageWithMetadata';
    requireSnowflake(operation, 'recipientId', recipientId);
    requireContent(operation, content, 2000);
    const checked = requireMetadata(operation, 'metadata', metadata);
    this.core.requireReady(operation);
    const message = await this.core.http.request<WireMessage>(
      'POST',
      `/users/${recipientId}/messages`,
      { json: { content, metadata: checked } },
    );
    this.#keepMessage(message);
    discloseOnce(this.core, message, recipientId);
    return message.id;
  }

  /** `PATCH /users/{id}/messages/{message}`: the author edits a DM message. */
  async editUserMessage(recipientId: string, messageId: string, content: string): Promise<void> {
    const operation = 'editUserMessage';
    requireSnowflake(operation, 'recipientId', recipientId);
    requireSnowflake(operation, 'messageId', messageId);
    requireContent(operation, content, 2000);
    this.core.requireReady(operation);
    const message = await this.core.http.request<WireMessage>(
      'PATCH',
      `/users/${recipientId}/messages/${messageId}`,
      { json: { content } },
    );
    this.#keepMessage(message);
  }

  /** `DELETE /users/{id}/messages/{message}`: the author deletes a DM message. */
  async deleteUserMessage(recipientId: string, messageId: string): Promise<void> {
    const operation = 'deleteUserMessage';
    requireSnowflake(operation, 'recipientId', recipientId);
    requireSnowflake(operation, 'messageId', messageId);
    this.core.requireReady(operation);
    await this.core.http.request('DELETE', `/users/${recipientId}/messages/${messageId}`);
  }

  /** A cached message (DM or lobby), or null. */
  getMessageHandle(messageId: string): MessageHandle | null {
    return this.core.state.messages.has(messageId) ? new MessageHandle(this.core, messageId) : null;
  }

  /** A cached DM, group DM or lobby channel, or null. */
  getChannelHandle(channelId: string): ChannelHandle | null {
    const state = this.core.state;
    return state.channels.has(channelId) || state.lobbies.has(channelId)
      ? new ChannelHandle(this.core, channelId)
      : null;
  }

  /**
   * `GET /users/@me/channels`: the last message of each DM with one other user, newest first
   * (DMs without messages are left out).
   */
  async getUserMessageSummaries(): Promise<UserMessageSummary[]> {
    this.core.requireReady('getUserMessageSummaries');
    const channels = await this.core.http.get<WireChannel[]>('/users/@me/channels');
    const summaries: UserMessageSummary[] = [];
    for (const channel of channels) {
      this.#keepChannel(channel);
      const userId = channel.recipients?.[0]?.id;
      const last = channel.last_message_id;
      if (channel.type !== ChannelType.Dm || userId === undefined) continue;
      if (last === undefined || last === null) continue;
      summaries.push(new UserMessageSummary(userId, last));
    }
    return summaries.sort((a, b) => bySnowflake(b.lastMessageId(), a.lastMessageId()));
  }

  /**
   * The newest `limit` messages of the DM with a user, newest first. Answers from the cache,
   * without a request, when it holds that many contiguous messages (or the whole conversation);
   * otherwise `GET /users/{id}/messages` (paged by 100 with `before`) fills the cache.
   */
  async getUserMessagesWithLimit(recipientId: string, limit: number): Promise<MessageHandle[]> {
    const operation = 'getUserMessagesWithLimit';
    requireSnowflake(operation, 'recipientId', recipientId);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_USER_MESSAGES_LIMIT) {
      throw validationError(
        `${operation}: limit must be a whole number from 1 to ${MAX_USER_MESSAGES_LIMIT}.`,
      );
    }
    this.core.requireReady(operation);
    const state = this.core.state;
    const channelId = this.#dmWith(recipientId);
    const cached = channelId === null ? undefined : state.histories.get(channelId);
    if (cached !== undefined && cacheAnswers(cached, limit)) {
      this.core.logger.verbose(`${operation}: answered from the cache`);
      return this.#handles(cached.ids.slice(-limit));
    }
    const session = this.#session;
    const fetched: WireMessage[] = [];
    let before: string | undefined;
    let complete = false;
    while (fetched.length < limit) {
      const pageLimit = Math.min(DM_PAGE_LIMIT, limit - fetched.length);
      const page = await this.core.http.get<WireMessage[]>(`/users/${recipientId}/messages`, {
        limit: pageLimit,
        before,
      });
      fetched.push(...page);
      if (page.length < pageLimit) {
        complete = true;
        break;
      }
      before = page[page.length - 1]?.id;
    }
    for (const message of fetched) this.#keepMessage(message);
    const ids = fetched.map((m) => m.id).filter((id) => !this.#deletedIds.has(id));
    const fetchedChannel = fetched[0]?.channel_id ?? this.#dmWith(recipientId);
    // A new session began meanwhile: what it missed before its READY is not in this answer.
    if (fetchedChannel === null || session !== this.#session) return this.#handles(ids.reverse());
    const known = state.histories.get(fetchedChannel) ?? { ids: [], complete: false };
    const merged = mergeIds({ ids: known.ids, complete: known.complete || complete }, ids);
    state.histories.set(fetchedChannel, merged);
    return this.#handles(merged.ids.slice(-limit));
  }

  #handles(idsOldestFirst: string[]): MessageHandle[] {
    return idsOldestFirst
      .slice()
      .reverse()
      .map((id) => new MessageHandle(this.core, id));
  }

  /**
   * The DM with one user that `GET /users/{id}/messages` reads, as the server picks it: the game
   * DM of the session's application, else the platform DM; null when this session knows neither.
   */
  #dmWith(userId: string): string | null {
    const app = this.core.state.applicationId;
    let platformDm: string | null = null;
    for (const channel of this.core.state.channels.values()) {
      if (channel.type !== ChannelType.Dm) continue;
      if (!(channel.recipients ?? []).some((user) => user.id === userId)) continue;
      if (channel.application_id === undefined) platformDm = channel.id;
      else if (channel.application_id === app) return channel.id;
    }
    return platformDm;
  }

  #keepChannel(channel: WireChannel): void {
    const state = this.core.state;
    const known = state.channels.get(channel.id);
    state.channels.set(channel.id, known === undefined ? channel : { ...known, ...channel });
    for (const user of channel.recipients ?? []) state.cacheUser(user);
  }

  #keepMessage(message: WireMessage): void {
    if (this.#deletedIds.has(message.id)) return;
    const state = this.core.state;
    const known = state.messages.get(message.id);
    state.messages.set(message.id, known === undefined ? message : { ...known, ...message });
    state.cacheUser(message.author);
  }

  #updateMessage(patch: Partial<WireMessage> & { id: string }): void {
    const state = this.core.state;
    const known = state.messages.get(patch.id);
    if (known !== undefined) {
      const next = { ...known, ...patch };
      // A content edit clears the backend's moderation metadata (docs/social-dms.md).
      if (patch.content !== undefined && patch.content !== known.content) {
        delete next.moderation_metadata;
      }
      state.messages.set(patch.id, next);
    } else if (patch.channel_id !== undefined && patch.author !== undefined) {
      this.#keepMessage(patch as WireMessage);
    }
    this.core.invoke(this.#updated, patch.id);
  }

  #forget(messageId: string, channelId: string): void {
    const state = this.core.state;
    this.#deletedIds.add(messageId);
    state.messages.delete(messageId);
    const history = state.histories.get(channelId);
    if (history !== undefined) {
      state.histories.set(channelId, {
        ids: history.ids.filter((id) => id !== messageId),
        complete: history.complete,
      });
    }
    this.core.invoke(this.#deleted, messageId, channelId);
  }
}
