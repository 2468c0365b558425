import {
  MessageFlags,
  MessageTypes,
  PLATFORM_EPOCH_MS,
  isSnowflake,
  snowflakeFromTimestamp,
} from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  ChannelRecord,
  MemberRecord,
  MessageActivityRecord,
  MessageRecord,
  Repositories,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { loadMessageChannel, type MessageChannelAccess } from './access.js';
import { attachmentKey, type newAttachments } from './attachments.js';
import type { AttachmentLinks } from './serialize.js';
import type { CreateMessageInput, EmbedInput } from './schemas.js';
import { viewMessages } from './views.js';

/** Message flags a sender may set (SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS). */
export const SETTABLE_FLAGS = MessageFlags.SUPPRESS_EMBEDS | MessageFlags.SUPPRESS_NOTIFICATIONS;
/** Message types a user may edit or reply to (the others are system messages). */
export const EDITABLE_TYPES = new Set<number>([MessageTypes.DEFAULT, MessageTypes.REPLY]);

/** The lowest id made at `ms` or later (clamped to the platform epoch). */
export const idAtOrAfter = (ms: number) =>
  snowflakeFromTimestamp(Math.max(PLATFORM_EPOCH_MS, Math.floor(ms)));

/** Embeds as stored and sent: the request objects with their type. */
export function embedsWire(embeds: readonly EmbedInput[]): unknown[] {
  return embeds.map((embed) => ({
    type: 'rich',
    ...embed,
    ...(embed.fields === undefined
      ? {}
      : { fields: embed.fields.map((f) => ({ ...f, inline: f.inline ?? false })) }),
  }));
}

/** Message flags an application (a bot, an app's webhook) may also set: IS_COMPONENTS_V2. */
export const APP_SETTABLE_FLAGS = SETTABLE_FLAGS | MessageFlags.IS_COMPONENTS_V2;

/**
 * The flags a create or edit asks for, refused (50035) when it sets one a sender may not:
 * `settable` is SETTABLE_FLAGS for people, APP_SETTABLE_FLAGS for applications.
 */
export function assertFlags(flags: number | null | undefined, settable = SETTABLE_FLAGS): number {
  const value = flags ?? 0;
  if ((value & ~settable) !== 0) {
    throw invalidField(['flags'], 'MESSAGE_FLAGS_INVALID', 'Invalid message flags.');
  }
  return value;
}

export interface MessageServiceOptions {
  /** What attachment URLs are made of, read at call time: the base URL is known once listening. */
  links: () => AttachmentLinks;
  /** The rules of DMs and group DMs (resources/dms); without them nobody may post in one. */
  privateRules?: PrivateMessageRules;
  /** Auto-moderation of guild messages (resources/autoModeration); none: nothing is checked. */
  moderation?: MessageModeration;
  /** The rules of threads (resources/threads); without them threads take no messages. */
  threadRules?: ThreadMessageRules;
}

/**
 * Auto-moderation as the create path asks it, before a guild message is written: runs the
 * guild's rules and their actions, and throws 200000 when one blocks the message.
 */
export interface MessageModeration {
  checkMessage(check: {
    guildId: string;
    channel: ChannelRecord;
    member: MemberRecord;
    /** The author's guild-level permissions. */
    permissions: bigint;
    content: string;
    /** The id the message is written with when it is not blocked. */
    messageId: string;
    /** An edit of a message already written (the spam trigger counts only new messages). */
    edit?: boolean;
  }): Promise<void>;
}

/**
 * What threads add to a message create (resources/threads implements it): a locked thread
 * refuses it, an archived one wakes, and the thread counts it.
 */
export interface ThreadMessageRules {
  /** Throws 160005 for a locked thread; unarchives an archived one. */
  beforePost(
    tx: Repositories,
    request: { threadId: string; userId: string; permissions: bigint },
  ): Promise<void>;
  /**
   * In the post's group transaction (repository calls only): the thread counts the message and
   * wakes, and its author joins it.
   */
  posted(
    tx: Repositories,
    request: { threadId: string; userId: string; nowMs: number },
  ): Promise<void>;
}

/**
 * What DMs and group DMs add to the message paths (resources/dms implements it): who may post
 * (blocks, privacy, provisional accounts), the activity invite, and what a change causes beyond
 * the MESSAGE_* dispatch (reopened DMs, game webhook events, moderation metadata cleared).
 */
export interface PrivateMessageRules {
  /** Throws 50007 (or 50035) when the caller may not post this; the message's extra fields. */
  beforeCreate(
    repos: Repositories,
    request: { principal: Principal; access: MessageChannelAccess; input: CreateMessageInput },
  ): Promise<{ applicationId: string | null; activity: MessageActivityRecord | null }>;
  /** In the create's transaction, once the message row is written. */
  created(
    tx: Repositories,
    request: { principal: Principal; access: MessageChannelAccess; message: MessageRecord },
  ): Promise<void>;
  /** In the edit's transaction: `contentChanged` when content, embeds or files changed. */
  updated(
    tx: Repositories,
    request: { access: MessageChannelAccess; message: MessageRecord; contentChanged: boolean },
  ): Promise<void>;
  /** In the delete's transaction. */
  deleted(
    tx: Repositories,
    request: { access: MessageChannelAccess; message: MessageRecord },
  ): Promise<void>;
}

/** New attachments with their staged files, as `newAttachments` makes them. */
export type Uploads = ReturnType<typeof newAttachments>;

/**
 * What the message service's parts share: the caller's access to a channel, a message by id
 * (10008 when absent), messages as the caller sees them, and writes that carry uploaded files.
 */
export function createMessageHelpers(deps: ServiceDeps, options: MessageServiceOptions) {
  const { clock, blobs } = deps;

  const accessFor = (repos: Repositories, principal: Principal, channelId: string) =>
    loadMessageChannel(repos, { channelId, userId: principal.user.id, nowMs: clock.now() });

  /** Moves staged files under their attachments' keys. */
  const storeUploads = (uploads: Uploads) =>
    Promise.all(
      uploads.map(({ attachment, file }) =>
        file.blob.commit(
          attachmentKey(attachment.id),
          attachment.contentType ?? 'application/octet-stream',
        ),
      ),
    );

  /**
   * Files first (a message never points at a file that is not there), then the rows; when
   * writing the rows fails, the files go again.
   */
  const withUploads = async (uploads: Uploads, write: () => Promise<void>) => {
    await storeUploads(uploads);
    try {
      await write();
    } catch (err) {
      await Promise.all(
        uploads.map(({ attachment }) => blobs.delete(attachmentKey(attachment.id))),
      );
      throw err;
    }
  };

  const findMessage = async (repos: Repositories, channelId: string, messageId: string) => {
    const message = isSnowflake(messageId)
      ? await repos.messages.findById(channelId, messageId)
      : null;
    if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
    return message;
  };

  const view = (repos: Repositories, principal: Principal, messages: readonly MessageRecord[]) =>
    viewMessages(repos, { principal, messages, links: options.links() });

  return { accessFor, withUploads, findMessage, view };
}

export type MessageHelpers = ReturnType<typeof createMessageHelpers>;
