import {
  AuditLogActions,
  ChannelTypes,
  MessageFlags,
  MessageTypes,
  PermissionFlags as P,
  isSnowflake,
} from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import {
  WebhookTypes,
  type MessageRecord,
  type NewMessage,
  type Repositories,
  type WebhookRecord,
} from '../../storage/index.js';
import { recordAudit, snapshotChanges } from '../auditLog/index.js';
import { loadChannelAccess } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import {
  loadMessageChannel,
  loadMessageContext,
  serializeMessage,
  type AttachmentLinks,
} from '../messages/index.js';
import { WEBHOOK_LIMITS } from '../webhooks/index.js';

export interface AnnouncementServiceDeps extends ServiceDeps {
  links: () => AttachmentLinks;
}

/** Channels a follower webhook may post in: text and announcement channels. */
const FOLLOWER_TARGET_TYPES = new Set<number>([
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.GUILD_ANNOUNCEMENT,
]);

/**
 * Announcement channels (docs/threads.md#announcement-channels): following one makes a follower
 * webhook (type 2) in the follower's channel; crossposting a message posts a copy through every
 * follower webhook (flag IS_CROSSPOST, a reference to the original) and marks the original
 * CROSSPOSTED.
 */
export function createAnnouncementService(deps: AnnouncementServiceDeps) {
  const { storage, clock, ids } = deps;

  /** A message as the caller or a dispatch sees it, with `guild_id`. */
  const wireOf = async (repos: Repositories, message: MessageRecord, viewerId: string) => {
    const context = await loadMessageContext(repos, [message], {
      links: deps.links(),
      viewerId,
      reader: null,
    });
    return serializeMessage(message, context);
  };

  /** The copy a follower webhook posts of a crossposted message. */
  const copyFor = (
    webhook: WebhookRecord,
    original: MessageRecord,
    sourceGuildId: string,
  ): NewMessage => ({
    id: ids(),
    channelId: webhook.channelId,
    guildId: webhook.guildId,
    authorId: webhook.id,
    type: MessageTypes.DEFAULT,
    content: original.content,
    embeds: original.embeds,
    flags: MessageFlags.IS_CROSSPOST,
    tts: false,
    mentionEveryone: false,
    mentionUserIds: [],
    mentionRoleIds: [],
    reference: {
      type: 0,
      channelId: original.channelId,
      messageId: original.id,
      guildId: sourceGuildId,
    },
    snapshots: null,
    nonce: null,
    applicationId: null,
    webhookId: webhook.id,
    createdAt: clock.now(),
    attachments: [],
    components: original.components ?? [],
    webhookAuthor: { username: webhook.name, avatar: webhook.avatar },
  });

  return {
    /**
     * POST /channels/{id}/followers: the caller may view the announcement channel and manage the
     * webhooks of `webhook_channel_id`, where the follower webhook goes (at most 15 per channel).
     */
    async follow(
      principal: Principal,
      request: { channelId: string; targetChannelId: string; reason: string | null },
    ) {
      return storage.transaction(async (tx) => {
        const nowMs = clock.now();
        const source = await loadChannelAccess(tx, {
          channelId: request.channelId,
          userId: principal.user.id,
          nowMs,
        });
        source.require(0n);
        if (source.channel.type !== ChannelTypes.GUILD_ANNOUNCEMENT) {
          throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
        }
        const target = await loadChannelAccess(tx, {
          channelId: request.targetChannelId,
          userId: principal.user.id,
          nowMs,
        });
        target.require(P.MANAGE_WEBHOOKS);
        if (!FOLLOWER_TARGET_TYPES.has(target.channel.type)) {
          throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
        }
        if ((await tx.webhooks.countByChannel(target.channel.id)) >= WEBHOOK_LIMITS.maxPerChannel) {
          throw new ApiError('MAX_WEBHOOKS');
        }
        const name = `${source.guild.guild.name} #${source.channel.name ?? ''}`.slice(
          0,
          WEBHOOK_LIMITS.maxName,
        );
        const webhook: WebhookRecord = {
          id: ids(),
          type: WebhookTypes.CHANNEL_FOLLOWER,
          guildId: target.guild.guild.id,
          channelId: target.channel.id,
          creatorId: principal.user.id,
          name,
          avatar: null,
          tokenHash: null,
          tokenSealed: null,
          applicationId: null,
          sourceGuildId: source.guild.guild.id,
          sourceChannelId: source.channel.id,
          createdAt: nowMs,
        };
        await tx.webhooks.create(webhook);
        await recordAudit(tx, ids, {
          guildId: webhook.guildId,
          userId: principal.user.id,
          targetId: webhook.id,
          actionType: AuditLogActions.WEBHOOK_CREATE,
          changes: snapshotChanges({ name, type: webhook.type, channel_id: webhook.channelId }),
          reason: request.reason,
        });
        afterCommit(tx, {
          type: 'WEBHOOKS_UPDATE',
          guildId: webhook.guildId,
          channelId: webhook.channelId,
          data: { guild_id: webhook.guildId, channel_id: webhook.channelId },
        });
        return { channel_id: source.channel.id, webhook_id: webhook.id };
      });
    },

    /**
     * POST /channels/{id}/messages/{message_id}/crosspost: in an announcement channel, the
     * author (SEND_MESSAGES) or MANAGE_MESSAGES; once per message (40033).
     */
    async crosspost(principal: Principal, request: { channelId: string; messageId: string }) {
      const original = await storage.transaction(async (tx) => {
        const access = await loadMessageChannel(tx, {
          channelId: request.channelId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(0n);
        const guildId = access.guildId;
        if (access.channel.type !== ChannelTypes.GUILD_ANNOUNCEMENT || guildId === null) {
          throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
        }
        const message = isSnowflake(request.messageId)
          ? await tx.messages.findById(access.channel.id, request.messageId)
          : null;
        if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
        access.require(
          message.authorId === principal.user.id ? P.SEND_MESSAGES : P.MANAGE_MESSAGES,
        );
        if ((message.flags & MessageFlags.CROSSPOSTED) !== 0) {
          throw new ApiError('MESSAGE_ALREADY_CROSSPOSTED');
        }
        const flags = message.flags | MessageFlags.CROSSPOSTED;
        await tx.messages.update(access.channel.id, message.id, { flags });
        const updated = { ...message, flags };
        afterCommit(tx, {
          type: 'MESSAGE_UPDATE',
          guildId,
          channelId: access.channel.id,
          data: { ...(await wireOf(tx, updated, principal.user.id)), guild_id: guildId },
        });
        for (const webhook of await tx.webhooks.listFollowers(access.channel.id)) {
          const copy = copyFor(webhook, updated, guildId);
          await tx.messages.create(copy);
          const record = { ...copy, pinnedAt: null, editedAt: null };
          afterCommit(tx, {
            type: 'MESSAGE_CREATE',
            guildId: webhook.guildId,
            channelId: webhook.channelId,
            data: { ...(await wireOf(tx, record, principal.user.id)), guild_id: webhook.guildId },
          });
        }
        return updated;
      });
      return wireOf(storage, original, principal.user.id);
    },
  };
}

export type AnnouncementService = ReturnType<typeof createAnnouncementService>;
