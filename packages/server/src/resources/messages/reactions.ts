import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { MessageRecord, Repositories } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeUser, type UserWire } from '../users/index.js';
import { isTimedOut, loadMessageChannel, type MessageChannelAccess } from './access.js';
import { serializePartialMember } from '../members/index.js';

/** The most distinct emojis one message may carry. */
export const MAX_REACTION_EMOJIS = 20;

/** An emoji of a reaction route: unicode, or a custom `name:id`. */
export interface ReactionEmoji {
  key: string;
  id: string | null;
  name: string;
  animated: boolean;
}

/** The longest unicode emoji a reaction route takes (joined sequences are long). */
const MAX_UNICODE_EMOJI_LENGTH = 32;
const CUSTOM = /^(?:a:)?([A-Za-z0-9_]{1,32})?:(\d{1,20})$/;
/** A unicode emoji: pictographs, keycaps, flags, with their joiners and modifiers. */
const UNICODE =
  /^(?:[\p{Extended_Pictographic}\p{Regional_Indicator}#*0-9]\uFE0F?\u20E3?|\p{Emoji_Modifier}|\u200D|\uFE0F)+$/u;

/**
 * Reads the {emoji} path segment (already URL-decoded): a custom emoji must exist (10014), a
 * unicode one must look like an emoji (10014 otherwise, as on the platform).
 */
export async function parseEmoji(repos: Repositories, raw: string): Promise<ReactionEmoji> {
  const custom = CUSTOM.exec(raw);
  if (custom !== null) {
    const id = custom[2] ?? '';
    const emoji = isSnowflake(id) ? await repos.emojis.findById(id) : null;
    if (emoji === null) throw new ApiError('UNKNOWN_EMOJI');
    return { key: emoji.id, id: emoji.id, name: emoji.name, animated: emoji.animated };
  }
  if (
    raw.length === 0 ||
    raw.length > MAX_UNICODE_EMOJI_LENGTH ||
    !UNICODE.test(raw) ||
    /^[#*0-9]+$/.test(raw)
  ) {
    throw new ApiError('UNKNOWN_EMOJI');
  }
  return { key: raw, id: null, name: raw, animated: false };
}

/** A reaction dispatch's emoji: `animated` only on a custom one. */
export interface ReactionEmojiWire {
  id: string | null;
  name: string;
  animated?: boolean;
}

const emojiWire = (emoji: ReactionEmoji): ReactionEmojiWire => ({
  id: emoji.id,
  name: emoji.name,
  ...(emoji.id === null ? {} : { animated: emoji.animated }),
});

/** Where a reaction dispatch happened: MESSAGE_REACTION_REMOVE_ALL's whole payload. */
export interface ReactionBasePayload {
  channel_id: string;
  message_id: string;
  guild_id?: string;
}

/** MESSAGE_REACTION_REMOVE: whose reaction left which message. */
export interface ReactionRemovePayload extends ReactionBasePayload {
  user_id: string;
  emoji: ReactionEmojiWire;
  burst: boolean;
  type: number;
}

/** MESSAGE_REACTION_ADD: the reactor's partial member in a guild, the message's author. */
export interface ReactionAddPayload extends ReactionRemovePayload {
  member?: ReturnType<typeof serializePartialMember> & { user: UserWire };
  message_author_id: string;
  burst_colors: string[];
}

/** MESSAGE_REACTION_REMOVE_EMOJI: every reaction of one emoji left the message. */
export interface ReactionRemoveEmojiPayload extends ReactionBasePayload {
  emoji: ReactionEmojiWire;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    MESSAGE_REACTION_ADD: ReactionAddPayload;
    MESSAGE_REACTION_REMOVE: ReactionRemovePayload;
    MESSAGE_REACTION_REMOVE_ALL: ReactionBasePayload;
    MESSAGE_REACTION_REMOVE_EMOJI: ReactionRemoveEmojiPayload;
  }
}

export interface ReactionTarget {
  channelId: string;
  messageId: string;
  emoji: string;
}

/** Reactions: add and remove own, remove a user's, one emoji's or all, list the users. */
export function createReactionService(deps: ServiceDeps) {
  const { storage, clock } = deps;

  const load = async (principal: Principal, target: Omit<ReactionTarget, 'emoji'>) => {
    const access = await loadMessageChannel(storage, {
      channelId: target.channelId,
      userId: principal.user.id,
      nowMs: clock.now(),
    });
    access.require(P.READ_MESSAGE_HISTORY);
    const message = isSnowflake(target.messageId)
      ? await storage.messages.findById(access.channel.id, target.messageId)
      : null;
    if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
    return { access, message };
  };

  const base = (access: MessageChannelAccess, message: MessageRecord) => ({
    channel_id: access.channel.id,
    message_id: message.id,
    ...access.guildWire,
  });

  const removeOne = async (
    access: MessageChannelAccess,
    message: MessageRecord,
    request: { emoji: ReactionEmoji; userId: string },
  ) => {
    // One statement, group-committed: announced once its batch is durable.
    const removed = await storage.groupTransaction((tx) =>
      tx.reactions.remove({
        messageId: message.id,
        emojiKey: request.emoji.key,
        userId: request.userId,
        type: 0,
      }),
    );
    if (removed) {
      afterWrite(storage, {
        type: 'MESSAGE_REACTION_REMOVE',
        ...access.dispatchTo,
        data: {
          ...base(access, message),
          user_id: request.userId,
          emoji: emojiWire(request.emoji),
          burst: false,
          type: 0,
        },
      });
    }
  };

  return {
    /**
     * PUT .../reactions/{emoji}/@me: a new emoji needs ADD_REACTIONS and room (20 distinct);
     * joining an existing one needs only READ_MESSAGE_HISTORY. Timed-out members cannot react.
     */
    async add(principal: Principal, target: ReactionTarget) {
      const { access, message } = await load(principal, target);
      if (isTimedOut(access)) throw new ApiError('MISSING_PERMISSIONS');
      const emoji = await parseEmoji(storage, target.emoji);
      const sendTo = await access.sendTarget(storage);
      await storage.groupTransaction(async (tx) => {
        if (!(await tx.reactions.hasEmoji(message.id, emoji.key))) {
          access.require(P.ADD_REACTIONS);
          if ((await tx.reactions.countEmojis(message.id)) >= MAX_REACTION_EMOJIS) {
            throw new ApiError('MAX_REACTIONS');
          }
        }
        const added = await tx.reactions.add({
          messageId: message.id,
          emojiKey: emoji.key,
          emojiId: emoji.id,
          emojiName: emoji.name,
          animated: emoji.animated,
          type: 0,
          userId: principal.user.id,
          createdAt: clock.now(),
        });
        if (!added) return;
        afterCommit(tx, {
          type: 'MESSAGE_REACTION_ADD',
          ...sendTo,
          data: {
            ...base(access, message),
            user_id: principal.user.id,
            ...(access.member === null
              ? {}
              : {
                  member: {
                    ...serializePartialMember(access.member),
                    user: serializeUser(principal.user),
                  },
                }),
            emoji: emojiWire(emoji),
            message_author_id: message.authorId,
            burst: false,
            burst_colors: [],
            type: 0,
          },
        });
      });
    },

    /** DELETE .../reactions/{emoji}/@me. */
    async removeOwn(principal: Principal, target: ReactionTarget) {
      const { access, message } = await load(principal, target);
      const emoji = await parseEmoji(storage, target.emoji);
      await removeOne(access, message, { emoji, userId: principal.user.id });
    },

    /** DELETE .../reactions/{emoji}/{user_id}: MANAGE_MESSAGES. */
    async removeUser(principal: Principal, target: ReactionTarget & { userId: string }) {
      const { access, message } = await load(principal, target);
      access.require(P.MANAGE_MESSAGES);
      const emoji = await parseEmoji(storage, target.emoji);
      if (!isSnowflake(target.userId)) throw new ApiError('UNKNOWN_USER');
      await removeOne(access, message, { emoji, userId: target.userId });
    },

    /** DELETE .../reactions (every emoji) or .../reactions/{emoji}: MANAGE_MESSAGES. */
    async removeAll(
      principal: Principal,
      target: Omit<ReactionTarget, 'emoji'> & { emoji?: string },
    ) {
      const { access, message } = await load(principal, target);
      access.require(P.MANAGE_MESSAGES);
      const emoji = target.emoji === undefined ? null : await parseEmoji(storage, target.emoji);
      // One statement, group-committed: announced once its batch is durable.
      const removed = await storage.groupTransaction((tx) =>
        tx.reactions.removeAll(message.id, emoji?.key),
      );
      if (removed === 0) return;
      afterWrite(
        storage,
        emoji === null
          ? {
              type: 'MESSAGE_REACTION_REMOVE_ALL',
              ...access.dispatchTo,
              data: base(access, message),
            }
          : {
              type: 'MESSAGE_REACTION_REMOVE_EMOJI',
              ...access.dispatchTo,
              data: { ...base(access, message), emoji: emojiWire(emoji) },
            },
      );
    },

    /** GET .../reactions/{emoji}: the users who reacted, by id, after `after`. */
    async listUsers(
      principal: Principal,
      target: ReactionTarget,
      query: { limit: number; after?: string; type: 0 | 1 },
    ) {
      const { message } = await load(principal, target);
      const emoji = await parseEmoji(storage, target.emoji);
      const userIds = await storage.reactions.listUsers(message.id, {
        emojiKey: emoji.key,
        type: query.type,
        limit: query.limit,
        ...(query.after === undefined ? {} : { after: query.after }),
      });
      const users = new Map((await storage.users.findByIds(userIds)).map((u) => [u.id, u]));
      return userIds.flatMap((id) => {
        const user = users.get(id);
        return user === undefined ? [] : [serializeUser(user)];
      });
    },
  };
}

export type ReactionService = ReturnType<typeof createReactionService>;
