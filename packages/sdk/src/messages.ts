/**
 * Direct messages: send, edit, delete, summaries, and the local message cache; the message
 * created/updated/deleted callbacks of DMs and lobby messages.
 *
 * The cache (`core.state.histories`, one entry per DM channel) holds message ids oldest first that
 * are **contiguous up to now**: nothing newer than its oldest id is missing. That holds because a
 * history only grows from answers of the server (the newest messages of the channel) and from the
 * live MESSAGE_CREATE dispatches of the same gateway session; a RESUME replays what was missed,
 * and a new session (a READY) clears the whole state, the histories with it.
 * `getUserMessagesWithLimit` answers from it without a request when it holds enough; the
 * dispatches keep it in messageCache.ts.
 *
 * @module
 */
import { ChannelType } from './enums.js';
import { validationError } from './errors.js';
import type { ClientCore } from './core.js';
import { discloseOnce } from './disclosure.js';
import { cacheAnswers, mergeIds } from './rules.js';
import { requireContent, requireMetadata, requireSnowflake } from './messageChecks.js';
import {
  MessageCache,
  type MessageCreatedCallback,
  type MessageDeletedCallback,
  type MessageUpdatedCallback,
} from './messageCache.js';
import { ChannelHandle, MessageHandle, UserMessageSummary } from './messageHandle.js';
import type { WireChannel, WireMessage } from './wire.js';

/** The most messages `GET /users/{id}/messages` answers per page. */
const DM_PAGE_LIMIT = 100;
/** The most messages one getUserMessagesWithLimit asks for. */
export const MAX_USER_MESSAGES_LIMIT = 1000;

export type {
  MessageCreatedCallback,
  MessageDeletedCallback,
  MessageUpdatedCallback,
} from './messageCache.js';

const bySnowflake = (a: string, b: string): number => {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

export class MessagesArea {
  protected readonly core: ClientCore;
  /** The cache kept from the dispatches, and the callbacks set below. */
  readonly #cache: MessageCache;

  constructor(core: ClientCore) {
    this.core = core;
    this.#cache = new MessageCache(core);
  }

  setMessageCreatedCallback(callback: MessageCreatedCallback | null): void {
    this.#cache.callbacks.created = callback;
  }

  setMessageUpdatedCallback(callback: MessageUpdatedCallback | null): void {
    this.#cache.callbacks.updated = callback;
  }

  setMessageDeletedCallback(callback: MessageDeletedCallback | null): void {
    this.#cache.callbacks.deleted = callback;
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
    this.#cache.keepMessage(message);
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
    this.#cache.keepMessage(message);
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
    this.#cache.keepMessage(message);
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
      this.#cache.keepChannel(channel);
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
    const session = this.#cache.session;
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
    for (const message of fetched) this.#cache.keepMessage(message);
    const ids = fetched.map((m) => m.id).filter((id) => !this.#cache.isDeleted(id));
    const fetchedChannel = fetched[0]?.channel_id ?? this.#dmWith(recipientId);
    // A new session began meanwhile: what it missed before its READY is not in this answer.
    if (fetchedChannel === null || session !== this.#cache.session)
      return this.#handles(ids.reverse());
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
}
