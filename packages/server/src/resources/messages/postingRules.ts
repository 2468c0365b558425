/**
 * @module resources/messages/postingRules: what the create path checks beyond permissions:
 * slowmode, the reply or forward a message names, and a private channel's rules.
 */
import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { requiredPermissions } from '../../domain/permissions.js';
import { canReadMessageContent } from '../../domain/messageContent.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { MessageActivityRecord, MessageRecord, NewMessage } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import type { MessageChannelAccess } from './access.js';
import { contentReaderFor } from './reader.js';
import { type CreateMessageInput } from './schemas.js';
import {
  EDITABLE_TYPES,
  idAtOrAfter,
  type MessageHelpers,
  type MessageServiceOptions,
} from './shared.js';
import { SECOND_MS } from '../../domain/time.js';

/** The create path's checks, built from the message service's deps. */
export function createPostingRules(
  deps: ServiceDeps,
  options: MessageServiceOptions,
  helpers: MessageHelpers,
) {
  const { storage } = deps;
  const { accessFor, findMessage } = helpers;

  /** Slowmode: 20016 with retry_after unless exempt (bots always are). */
  const checkSlowmode = async (principal: Principal, access: MessageChannelAccess) => {
    const seconds = access.channel.rateLimitPerUser;
    if (seconds <= 0 || principal.user.bot) return;
    const now = access.nowMs;
    if (requiredPermissions.bypassSlowmode(now).some((bits) => access.has(bits))) return;
    const windowMs = seconds * SECOND_MS;
    const last = await storage.messages.lastPostedAt({
      channelId: access.channel.id,
      authorId: principal.user.id,
      sinceId: idAtOrAfter(now - windowMs),
    });
    if (last !== null && last + windowMs > now) {
      throw new ApiError('SLOWMODE_RATE_LIMIT', {
        extra: { retry_after: (last + windowMs - now) / SECOND_MS, global: false },
      });
    }
  };

  /** The reply or forward a create names, checked. */
  const resolveReference = async (
    principal: Principal,
    access: MessageChannelAccess,
    input: CreateMessageInput,
  ): Promise<{
    reference: NewMessage['reference'];
    replied: MessageRecord | null;
    forwarded: MessageRecord | null;
  }> => {
    const ref = input.message_reference;
    if (ref == null) return { reference: null, replied: null, forwarded: null };
    const channelId = ref.channel_id ?? access.channel.id;
    if ((ref.type ?? 0) === 1) {
      const source =
        channelId === access.channel.id ? access : await accessFor(storage, principal, channelId);
      source.require(P.READ_MESSAGE_HISTORY);
      const message = await findMessage(storage, source.channel.id, ref.message_id);
      const reader = await contentReaderFor(storage, principal);
      const canRead =
        reader === null ||
        canReadMessageContent(reader, {
          authorId: message.authorId,
          inDirectChannel: message.guildId === null,
          mentionedUserIds: message.mentionUserIds,
        });
      if (!canRead) throw new ApiError('CANNOT_FORWARD_UNREADABLE_MESSAGE');
      return {
        reference: {
          type: 1,
          channelId: source.channel.id,
          messageId: message.id,
          guildId: source.guildId,
        },
        replied: null,
        forwarded: message,
      };
    }
    access.require(P.READ_MESSAGE_HISTORY);
    if (channelId !== access.channel.id) {
      throw invalidField(
        ['message_reference'],
        'MESSAGE_REFERENCE_INVALID_CHANNEL',
        'Cannot reply to a message in a different channel.',
      );
    }
    const replied = isSnowflake(ref.message_id)
      ? await storage.messages.findById(channelId, ref.message_id)
      : null;
    if (replied === null) {
      if (ref.fail_if_not_exists === false)
        return { reference: null, replied: null, forwarded: null };
      throw invalidField(
        ['message_reference'],
        'MESSAGE_REFERENCE_UNKNOWN_MESSAGE',
        'Unknown message',
      );
    }
    if (!EDITABLE_TYPES.has(replied.type)) throw new ApiError('CANNOT_EXECUTE_ON_SYSTEM_MESSAGE');
    return {
      reference: {
        type: 0,
        channelId,
        messageId: replied.id,
        guildId: access.guildId,
      },
      replied,
      forwarded: null,
    };
  };

  /**
   * What a private channel's rules say of a create (who may post, the activity invite); an
   * activity invite anywhere else is refused.
   */
  const privateExtras = async (
    principal: Principal,
    access: MessageChannelAccess,
    input: CreateMessageInput,
  ): Promise<{ applicationId: string | null; activity: MessageActivityRecord | null }> => {
    if (input.metadata != null && (access.privateChannel === null || principal.kind !== 'bearer')) {
      throw invalidField(
        ['metadata'],
        'BASE_TYPE_INVALID',
        'Metadata is sent by a game (an SDK token) in a DM.',
      );
    }
    if (access.privateChannel === null) {
      if (input.activity != null) {
        throw invalidField(['activity'], 'BASE_TYPE_INVALID', 'Activity invites are sent in DMs.');
      }
      return { applicationId: null, activity: null };
    }
    const rules = options.privateRules;
    if (rules === undefined) throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
    return rules.beforeCreate(storage, { principal, access, input });
  };

  return { checkSlowmode, resolveReference, privateExtras };
}
