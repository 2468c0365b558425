/** Messages, their attachments, pins and reactions (migration 0005). */

/** One file of a message; its bytes are in the blob store under `attachments/{id}`. */
export interface AttachmentRecord {
  id: string;
  messageId: string;
  channelId: string;
  /** Order within the message, from 0. */
  position: number;
  filename: string;
  description: string | null;
  contentType: string | null;
  size: number;
  /** Attachment flags (IS_SPOILER 1 << 3). */
  flags: number;
  title: string | null;
}

/** A message_reference: type 0 DEFAULT (a reply, or a system message's subject), 1 FORWARD. */
export interface MessageReferenceRecord {
  type: number;
  channelId: string;
  messageId: string | null;
  guildId: string | null;
}

export interface MessageRecord {
  id: string;
  channelId: string;
  /** Null outside a guild. */
  guildId: string | null;
  authorId: string;
  /** Message type: 0 DEFAULT, 6 CHANNEL_PINNED_MESSAGE, 19 REPLY... */
  type: number;
  content: string;
  /** Wire embed objects, as validated and stored. */
  embeds: unknown[];
  flags: number;
  tts: boolean;
  mentionEveryone: boolean;
  /** Resolved user mentions, in order of first appearance. */
  mentionUserIds: string[];
  mentionRoleIds: string[];
  reference: MessageReferenceRecord | null;
  /** Wire message_snapshots of a forward (frozen when forwarded), else null. */
  snapshots: unknown[] | null;
  nonce: string | null;
  applicationId: string | null;
  webhookId: string | null;
  /** Epoch ms when pinned, or null. */
  pinnedAt: number | null;
  editedAt: number | null;
  createdAt: number;
  /** In position order. */
  attachments: AttachmentRecord[];
  /** A DM's activity invite (type 1 JOIN and the party); absent or null on other messages. */
  activity?: MessageActivityRecord | null;
  /** Wire components (v1 or v2) as validated; absent or empty when the message has none. */
  components?: unknown[];
  /** The wire interaction_metadata of an interaction's response or followup, else absent/null. */
  interactionMetadata?: Record<string, unknown> | null;
  /**
   * The wire `interaction` (deprecated MessageInteraction: id, type, name, user) of a command's
   * response, stored beside its metadata; absent/null otherwise and on messages stored before it.
   */
  interaction?: Record<string, unknown> | null;
  /** The name and avatar a webhook's message shows as its author (authorId is the webhook's id). */
  webhookAuthor?: WebhookAuthorRecord | null;
  /**
   * An ephemeral interaction message (flag 64): the only user who may see it. Channel reads,
   * search and dispatches to anyone else leave such messages out.
   */
  ephemeralUserId?: string | null;
  /** The metadata a game attached to a DM it sent (SendUserMessageWithMetadata), else absent. */
  metadata?: Record<string, string> | null;
  /** A CALL message's (type 3) call: who joined and when it ended; absent on other messages. */
  call?: MessageCallRecord | null;
}

/** The call a CALL message records. */
export interface MessageCallRecord {
  /** Everyone who joined, in the order they first joined. */
  participants: string[];
  /** Epoch ms the call ended; null while it goes on. */
  endedAt: number | null;
}

/** A webhook message's author as shown: the webhook's name and avatar hash at send time. */
export interface WebhookAuthorRecord {
  username: string;
  /** An avatar hash under the webhook's CDN path, or null. */
  avatar: string | null;
}

/** An activity invite carried by a DM message (rich presence party). */
export interface MessageActivityRecord {
  type: number;
  partyId: string;
}

export type NewMessage = Omit<MessageRecord, 'pinnedAt' | 'editedAt'>;

export type MessagePatch = Partial<
  Pick<
    MessageRecord,
    | 'content'
    | 'embeds'
    | 'flags'
    | 'mentionEveryone'
    | 'mentionUserIds'
    | 'mentionRoleIds'
    | 'components'
    | 'call'
  >
> & { editedAt?: number };

/** Paging of GET /channels/{id}/messages: at most one of around, before, after. */
export interface MessageListQuery {
  limit: number;
  around?: string;
  before?: string;
  after?: string;
}

/** The attachments a message edit keeps: existing ids with their new description and flags. */
export interface KeptAttachment {
  id: string;
  position: number;
  description: string | null;
  flags: number;
}

export interface MessageRepository {
  /**
   * Inserts the message with its attachments (run it in a transaction when there are any). The
   * channel's last_message_id is derived from the messages when the channel is read.
   */
  create(message: NewMessage): Promise<void>;
  /** A message of the channel as channel reads see it: null for an ephemeral one. */
  findById(channelId: string, messageId: string): Promise<MessageRecord | null>;
  /** A message of the channel, ephemeral ones included (its webhook's or app's routes). */
  findAnyById(channelId: string, messageId: string): Promise<MessageRecord | null>;
  /** One attachment by id, in any channel (the attachment CDN checks its owner), or null. */
  findAttachment(attachmentId: string): Promise<AttachmentRecord | null>;
  /** Messages by id in any channel (referenced and forwarded messages); missing ids are absent. */
  findByIds(messageIds: readonly string[]): Promise<MessageRecord[]>;
  /** Newest first, as the platform lists; `around` gives up to `limit` centred on the id. */
  list(channelId: string, query: MessageListQuery): Promise<MessageRecord[]>;
  /** The author's message with this nonce in the channel at or after `sinceId`, if any. */
  findByNonce(query: {
    channelId: string;
    authorId: string;
    nonce: string;
    sinceId: string;
  }): Promise<MessageRecord | null>;
  /** When the author last posted in the channel at or after `sinceId` (slowmode), or null. */
  lastPostedAt(query: {
    channelId: string;
    authorId: string;
    sinceId: string;
  }): Promise<number | null>;
  update(channelId: string, messageId: string, patch: MessagePatch): Promise<void>;
  /**
   * Keeps only `kept` of the message's attachments (updating their description, flags and order)
   * and adds `added`; returns the attachments removed.
   */
  replaceAttachments(
    messageId: string,
    change: { kept: readonly KeptAttachment[]; added: readonly AttachmentRecord[] },
  ): Promise<AttachmentRecord[]>;
  /** Deletes messages of the channel (with attachments and reactions); returns the ids deleted. */
  delete(channelId: string, messageIds: readonly string[]): Promise<string[]>;
  /** Sets or clears pinned_at; returns whether the message exists in the channel. */
  setPinnedAt(channelId: string, messageId: string, pinnedAt: number | null): Promise<boolean>;
  /** Pinned messages, most recently pinned first, pinned before `before` (epoch ms) if given. */
  listPins(channelId: string, query: { limit: number; before?: number }): Promise<MessageRecord[]>;
  countPins(channelId: string): Promise<number>;
  /** Ids of the author's messages in these channels at or after `sinceId` (a ban's window). */
  listIdsByAuthor(query: {
    channelIds: readonly string[];
    authorId: string;
    sinceId: string;
  }): Promise<{ channelId: string; id: string }[]>;
  /**
   * Deletes every message a user wrote and every reaction they added (a provisional account
   * merged away: its messages are not retrievable afterwards). Returns the messages deleted.
   */
  deleteAllByUser(userId: string): Promise<number>;
}

/** One user's reaction. `emojiKey` is the unicode emoji itself or the custom emoji's id. */
export interface ReactionRecord {
  messageId: string;
  emojiKey: string;
  emojiId: string | null;
  emojiName: string;
  animated: boolean;
  /** 0 normal, 1 burst. */
  type: 0 | 1;
  userId: string;
  createdAt: number;
}

/** One emoji's reactions on a message, as a message object's reactions[] shows them. */
export interface ReactionSummary {
  messageId: string;
  emojiKey: string;
  emojiId: string | null;
  emojiName: string;
  animated: boolean;
  normal: number;
  burst: number;
  /** Whether the viewer reacted with it (normal, burst). */
  me: boolean;
  meBurst: boolean;
}

export interface ReactionRepository {
  /** Returns whether the reaction was new. */
  add(reaction: ReactionRecord): Promise<boolean>;
  /** Removes one user's reaction of a type; returns whether it existed. */
  remove(reaction: {
    messageId: string;
    emojiKey: string;
    userId: string;
    type: 0 | 1;
  }): Promise<boolean>;
  /** Removes every reaction of a message, or only one emoji's; returns how many there were. */
  removeAll(messageId: string, emojiKey?: string): Promise<number>;
  /** The distinct emojis on a message. */
  countEmojis(messageId: string): Promise<number>;
  hasEmoji(messageId: string, emojiKey: string): Promise<boolean>;
  /** User ids who reacted with the emoji and type, by user id, after `after`. */
  listUsers(
    messageId: string,
    query: { emojiKey: string; type: 0 | 1; limit: number; after?: string },
  ): Promise<string[]>;
  /** Every emoji's reactions on these messages, each message's in first-reaction order. */
  summarize(messageIds: readonly string[], viewerId: string): Promise<ReactionSummary[]>;
}
