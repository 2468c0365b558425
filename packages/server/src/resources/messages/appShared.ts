/**
 * @module resources/messages/appShared: what the webhook and interaction message paths share:
 * who a message is by and whose it is, the channel it goes to, where its dispatches go.
 */
import { MessageFlags, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Dispatch } from '../../events/dispatcher.js';
import type {
  MessageRecord,
  MessageReferenceRecord,
  Repositories,
  RoleRecord,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { MESSAGE_CHANNEL_TYPES } from './access.js';
import { resolveMentions } from './mentions.js';
import { loadMessageContext, serializeMessage, type MessageWire } from './serialize.js';
import { type WebhookMessageInput } from './schemas.js';
import { type MessageServiceOptions } from './shared.js';
import { componentsText } from '../components/index.js';

/** Who a message made through a webhook route is by. */
export type MessageAuthor =
  | {
      kind: 'webhook';
      webhookId: string;
      username: string;
      avatar: string | null;
      /** The app that owns the webhook (app-owned webhooks may send interactive components). */
      applicationId: string | null;
    }
  | {
      kind: 'interaction';
      applicationId: string;
      botUserId: string;
      /** 20 CHAT_INPUT_COMMAND, 23 CONTEXT_MENU_COMMAND, 0 DEFAULT, 19 REPLY… */
      type: number;
      interactionMetadata: Record<string, unknown>;
      /** The deprecated `interaction` of a command's response (its name), else null. */
      interaction: Record<string, unknown> | null;
      /**
       * The user an ephemeral message (flag 64 in the input's flags) is for: the invoking user.
       * Only that user ever sees such a message; a flag 64 without it is refused.
       */
      ephemeralUserId: string | null;
      /**
       * A deferred response's placeholder (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE): sent empty with
       * the LOADING flag, which its first edit clears.
       */
      loading?: boolean;
      /** What the message points at (a message command's response: its target message). */
      reference?: MessageReferenceRecord | null;
    };

/** Whose messages a webhook route may read and change: a webhook's, or an app's (interactions). */
export type MessageOwner =
  | { webhookId: string }
  | {
      applicationId: string;
      /**
       * The app's bot user, whose own messages count too: the message a component was clicked on
       * (UPDATE_MESSAGE, and the original response after DEFERRED_UPDATE_MESSAGE).
       */
      botUserId?: string;
    };

/**
 * Runs inside the transaction that writes the message (an interaction's acknowledgement, which
 * commits with its response or not at all); it may throw to refuse the write.
 */
export type WithinWrite = (tx: Repositories, message: MessageRecord) => Promise<void>;

/** Flags a webhook or interaction message may be sent with. */
export const APP_FLAGS =
  MessageFlags.SUPPRESS_EMBEDS |
  MessageFlags.SUPPRESS_NOTIFICATIONS |
  MessageFlags.IS_COMPONENTS_V2;
/** Flags an edit may change: embeds suppressed or not, and the switch to components v2. */
export const EDIT_FLAGS = MessageFlags.SUPPRESS_EMBEDS | MessageFlags.IS_COMPONENTS_V2;

/** The channel an app message goes to, loaded without a caller: guild roles or recipients. */
export interface AppChannel {
  id: string;
  guildId: string | null;
  roles: ReadonlyMap<string, RoleRecord>;
  /** A DM's or group DM's recipients; empty in a guild. */
  recipientIds: readonly string[];
}

export async function loadAppChannel(repos: Repositories, channelId: string): Promise<AppChannel> {
  const channel = isSnowflake(channelId) ? await repos.channels.findById(channelId) : null;
  if (channel !== null && channel.guildId !== null) {
    if (!MESSAGE_CHANNEL_TYPES.has(channel.type)) {
      throw new ApiError('CANNOT_SEND_IN_NON_TEXT_CHANNEL');
    }
    const roles = await repos.roles.listByGuild(channel.guildId);
    return {
      id: channel.id,
      guildId: channel.guildId,
      roles: new Map(roles.map((role) => [role.id, role])),
      recipientIds: [],
    };
  }
  const found = isSnowflake(channelId) ? await repos.privateChannels.find(channelId) : null;
  if (found === null) throw new ApiError('UNKNOWN_CHANNEL');
  return {
    id: found.channel.id,
    guildId: null,
    roles: new Map(),
    recipientIds: found.recipients.map((r) => r.userId),
  };
}

/**
 * Where a message's dispatches go: an ephemeral message only to its user's sessions (a
 * user-addressed dispatch, never the guild's), else the guild or the private channel's recipients.
 */
export function dispatchTarget(
  channel: AppChannel,
  message: MessageRecord,
): Pick<Dispatch, 'guildId' | 'channelId' | 'userIds'> {
  if (message.ephemeralUserId != null) {
    return { guildId: null, channelId: channel.id, userIds: [message.ephemeralUserId] };
  }
  if (channel.guildId !== null) return { guildId: channel.guildId, channelId: channel.id };
  return { guildId: null, channelId: channel.id, userIds: channel.recipientIds };
}

export const ownsMessage = (owner: MessageOwner, message: MessageRecord) =>
  'webhookId' in owner
    ? message.webhookId === owner.webhookId && message.interactionMetadata == null
    : (message.applicationId === owner.applicationId &&
        message.webhookId === owner.applicationId) ||
      (owner.botUserId !== undefined &&
        message.authorId === owner.botUserId &&
        message.webhookId === null);

/** Who the components validator sees: an app's webhook may send interactive components. */
export const senderOf = (author: MessageAuthor) =>
  author.kind === 'webhook' && author.applicationId === null ? 'webhook' : 'app_webhook';

/** What mentions are parsed from: the content, or a v2 message's Text Displays. */
export const mentionText = (flags: number, content: string, components: readonly unknown[]) =>
  (flags & MessageFlags.IS_COMPONENTS_V2) === 0 ? content : componentsText(components);

/** 50035 on `poll`: polls do not exist here yet. */
export function refusePoll(poll: unknown): void {
  if (poll !== undefined && poll !== null) {
    throw invalidField(['poll'], 'BASE_TYPE_INVALID', 'Polls are not supported.');
  }
}

/** Reading an app's messages back, built from the message service's deps. */
export function createAppMessageHelpers(deps: ServiceDeps, options: MessageServiceOptions) {
  const { storage } = deps;

  const wireOf = async (repos: Repositories, message: MessageRecord): Promise<MessageWire> => {
    const context = await loadMessageContext(repos, [message], {
      links: options.links(),
      viewerId: message.authorId,
      reader: null,
    });
    return serializeMessage(message, context);
  };

  /** The owner's message (ephemeral ones included), else 10008. */
  const ownedMessage = async (channelId: string, messageId: string, owner: MessageOwner) => {
    const message =
      isSnowflake(channelId) && isSnowflake(messageId)
        ? await storage.messages.findAnyById(channelId, messageId)
        : null;
    if (message === null || !ownsMessage(owner, message)) throw new ApiError('UNKNOWN_MESSAGE');
    return message;
  };

  const mentionsOf = (
    channel: AppChannel,
    content: string,
    allowed: WebhookMessageInput['allowed_mentions'],
  ) =>
    // A webhook (and an app's interaction message) may mention @everyone and any role.
    resolveMentions(storage, {
      content,
      allowed,
      roles: channel.roles,
      guildId: channel.guildId,
      permissions: P.MENTION_EVERYONE,
      repliedUserId: null,
    });

  return { wireOf, ownedMessage, mentionsOf };
}

export type AppMessageHelpers = ReturnType<typeof createAppMessageHelpers>;
