/**
 * What the messages area hands out, read live from the cache: `ChannelHandle` (a DM, group DM or
 * lobby channel), `MessageHandle` (one DM or lobby message) and `UserMessageSummary`.
 *
 * @module
 */
import { ChannelType } from './enums.js';
import type { ClientCore } from './core.js';
import { DisclosureTypes } from './disclosure.js';
import { LobbyHandle } from './lobbyHandle.js';
import { additionalContentOf, type AdditionalContent } from './messageContent.js';
import { UserHandle } from './users.js';
import type { WireMessage, WireUser } from './wire.js';

/** The platform's epoch (2015-01-01T00:00:00Z), for a snowflake's time. */
const PLATFORM_EPOCH_MS = 1_420_070_400_000n;

/** The time a snowflake was made, in ms since the Unix epoch. */
export function snowflakeTime(id: string): number {
  return /^\d+$/.test(id) ? Number((BigInt(id) >> 22n) + PLATFORM_EPOCH_MS) : 0;
}

/**
 * A DM, group DM or lobby channel as the cache knows it (`ChannelHandle`). Reads live: after the
 * channel leaves the cache, `name()` is '' and `recipients()` empty.
 */
export class ChannelHandle {
  readonly #core: ClientCore;
  readonly #id: string;

  constructor(core: ClientCore, id: string) {
    this.#core = core;
    this.#id = id;
  }

  id(): string {
    return this.#id;
  }

  /** The group DM's name, the lobby's id for a lobby, else the other user's display name. */
  name(): string {
    const channel = this.#core.state.channels.get(this.#id);
    if (channel === undefined) return this.#core.state.lobbies.has(this.#id) ? this.#id : '';
    if (channel.name !== undefined && channel.name !== null && channel.name !== '') {
      return channel.name;
    }
    return (channel.recipients ?? []).map((user) => user.global_name ?? user.username).join(', ');
  }

  type(): ChannelType {
    const channel = this.#core.state.channels.get(this.#id);
    if (channel !== undefined) return channel.type as ChannelType;
    return ChannelType.Lobby;
  }

  /** The ids of the users in the channel: the DM's recipients, or the lobby's members. */
  recipients(): string[] {
    const channel = this.#core.state.channels.get(this.#id);
    if (channel !== undefined) return (channel.recipients ?? []).map((user) => user.id);
    return (this.#core.state.lobbies.get(this.#id)?.members ?? []).map((member) => member.id);
  }
}

/**
 * One message of a DM or a lobby (`MessageHandle`), read live from the cache: an edit shows at
 * once; after a delete the getters answer empty values.
 */
export class MessageHandle {
  readonly #core: ClientCore;
  readonly #id: string;

  constructor(core: ClientCore, id: string) {
    this.#core = core;
    this.#id = id;
  }

  #message(): WireMessage | undefined {
    return this.#core.state.messages.get(this.#id);
  }

  id(): string {
    return this.#id;
  }

  /** The text as the player should see it. */
  content(): string {
    return this.#message()?.content ?? '';
  }

  /** The text as sent (the same as `content()`: Guildhall does not rewrite content). */
  rawContent(): string {
    return this.#message()?.content ?? '';
  }

  authorId(): string {
    return this.#message()?.author.id ?? '';
  }

  /** The author as the cache last saw them. */
  author(): WireUser | null {
    const id = this.#message()?.author.id;
    return id === undefined ? null : (this.#core.state.users.get(id) ?? null);
  }

  /** The DM channel's id, or the lobby's id for a lobby message. */
  channelId(): string {
    return this.#message()?.channel_id ?? '';
  }

  channel(): ChannelHandle | null {
    const channelId = this.#message()?.channel_id;
    if (channelId === undefined) return null;
    const known =
      this.#core.state.channels.has(channelId) || this.#core.state.lobbies.has(channelId);
    return known ? new ChannelHandle(this.#core, channelId) : null;
  }

  /** For a DM: the user who is not the author ('' for a lobby or group DM message). */
  recipientId(): string {
    const message = this.#message();
    if (message === undefined || message.lobby_id !== undefined) return '';
    const channel = this.#core.state.channels.get(message.channel_id);
    if (channel?.type !== ChannelType.Dm) return '';
    const me = this.#core.state.currentUser?.id;
    if (message.author.id !== me) return me ?? '';
    return channel.recipients?.[0]?.id ?? '';
  }

  /** The lobby of a lobby message, else null. */
  lobbyId(): string | null {
    return this.#message()?.lobby_id ?? null;
  }

  /** The lobby of a lobby message the player is in, else null. */
  lobby(): LobbyHandle | null {
    const lobbyId = this.lobbyId();
    return lobbyId !== null && this.#core.state.lobbies.has(lobbyId)
      ? new LobbyHandle(this.#core, lobbyId)
      : null;
  }

  /** For a DM: the user who is not the author, as a handle; else null (`recipientId()`). */
  recipient(): UserHandle | null {
    const id = this.recipientId();
    return id === '' ? null : new UserHandle(this.#core, id);
  }

  /**
   * The author's extra name in the lobby (a character name, say) that the game backend set on
   * their membership when the message was sent; null for a DM or a member without one.
   */
  additionalName(): string | null {
    return this.#message()?.lobby_member?.additional_name ?? null;
  }

  /** What the message carries besides text (attachments, a poll, …), or null when only text. */
  additionalContent(): AdditionalContent | null {
    const message = this.#message();
    return message === undefined ? null : additionalContentOf(message);
  }

  /** When it was sent, in ms since the Unix epoch (from `timestamp`, else from its id). */
  sentTimestamp(): number {
    const message = this.#message();
    if (message === undefined) return 0;
    const parsed = message.timestamp === undefined ? Number.NaN : Date.parse(message.timestamp);
    return Number.isNaN(parsed) ? snowflakeTime(message.id) : parsed;
  }

  /** When it was last edited, in ms since the Unix epoch; 0 when never. */
  editedTimestamp(): number {
    const edited = this.#message()?.edited_timestamp;
    if (edited === undefined || edited === null) return 0;
    const parsed = Date.parse(edited);
    return Number.isNaN(parsed) ? 0 : parsed;
  }

  /** The metadata the sending game attached (sendUserMessageWithMetadata, sendLobbyMessageWithMetadata). */
  metadata(): Record<string, string> {
    return { ...(this.#message()?.metadata ?? {}) };
  }

  /** The game backend's moderation metadata: only in answers of history requests. */
  moderationMetadata(): Record<string, string> {
    return { ...(this.#message()?.moderation_metadata ?? {}) };
  }

  /** The application whose SDK sent it, or null when it was sent from the platform's client. */
  applicationId(): string | null {
    return this.#message()?.application_id ?? null;
  }

  /**
   * `MessageDataVisibleOnDiscord` for the disclosure the client injected the first time the
   * player's message would show in the platform's client (disclosure.ts); null for any other.
   */
  disclosureType(): DisclosureTypes | null {
    const type = this.#message()?.disclosure_type;
    return type === DisclosureTypes.MessageDataVisibleOnDiscord ? type : null;
  }

  /** Whether a game (an SDK token) sent it. */
  sentFromGame(): boolean {
    return this.applicationId() !== null;
  }
}

/** The last message of one DM (`UserMessageSummary`). */
export class UserMessageSummary {
  readonly #userId: string;
  readonly #lastMessageId: string;

  constructor(userId: string, lastMessageId: string) {
    this.#userId = userId;
    this.#lastMessageId = lastMessageId;
  }

  userId(): string {
    return this.#userId;
  }

  lastMessageId(): string {
    return this.#lastMessageId;
  }
}
