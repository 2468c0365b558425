import {
  AuditLogActions,
  MessageTypes,
  PermissionFlags as P,
  isSnowflake,
} from '@guildhall/protocol';
import { requiredPermissions } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { MessageRecord, Repositories } from '../../storage/index.js';
import { recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { loadMessageChannel, type MessageChannelAccess } from './access.js';
import type { AttachmentLinks } from './serialize.js';
import { dispatchPayload, viewMessages } from './views.js';
import { MAX_PINS_PAGE } from './schemas.js';

/** The most pins a channel may hold. */
export const MAX_PINS = 250;

const iso = (ms: number) => new Date(ms).toISOString();

export interface PinRequest {
  channelId: string;
  messageId: string;
  reason: string | null;
}

/**
 * Pins: the paginated list, pin and unpin (PIN_MESSAGES from its enforcement date, before it
 * MANAGE_MESSAGES), the 250 limit, a CHANNEL_PINNED_MESSAGE system message, CHANNEL_PINS_UPDATE.
 * The deprecated /channels/{id}/pins routes use the same service.
 */
export function createPinService(deps: ServiceDeps, options: { links: () => AttachmentLinks }) {
  const { storage, clock, ids } = deps;

  const load = (principal: Principal, channelId: string) =>
    loadMessageChannel(storage, { channelId, userId: principal.user.id, nowMs: clock.now() });

  const findMessage = async (channelId: string, messageId: string) => {
    const message = isSnowflake(messageId)
      ? await storage.messages.findById(channelId, messageId)
      : null;
    if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
    return message;
  };

  const pinsUpdate = (tx: Repositories, access: MessageChannelAccess, last: number | null) => {
    const channelId = access.channel.id;
    afterCommit(tx, {
      type: 'CHANNEL_PINS_UPDATE',
      ...access.dispatchTo,
      data: {
        ...access.guildWire,
        channel_id: channelId,
        last_pin_timestamp: last === null ? null : iso(last),
      },
    });
  };

  /** GET /channels/{id}/messages/pins: empty without READ_MESSAGE_HISTORY. */
  const list = async (
    principal: Principal,
    channelId: string,
    query: { limit: number; before?: number },
  ) => {
    const access = await load(principal, channelId);
    access.require(0n);
    if (!access.has(P.READ_MESSAGE_HISTORY)) return { items: [], has_more: false };
    const pinned = await storage.messages.listPins(access.channel.id, {
      limit: query.limit + 1,
      ...(query.before === undefined ? {} : { before: query.before }),
    });
    const page = pinned.slice(0, query.limit);
    const wires = await viewMessages(storage, {
      principal,
      messages: page,
      links: options.links(),
    });
    return {
      items: wires.map((message, index) => ({
        pinned_at: iso(page[index]?.pinnedAt ?? 0),
        message,
      })),
      has_more: pinned.length > query.limit,
    };
  };

  return {
    list,

    /** GET /channels/{id}/pins (deprecated): the 50 latest pins as an array. */
    async listDeprecated(principal: Principal, channelId: string) {
      const page = await list(principal, channelId, { limit: MAX_PINS_PAGE });
      return page.items.map((item) => item.message);
    },

    /** PUT .../pins/{message_id}: pinning a pinned message changes nothing. */
    async pin(principal: Principal, request: PinRequest) {
      const access = await load(principal, request.channelId);
      const now = access.nowMs;
      access.require(requiredPermissions.pinMessages(now));
      const message = await findMessage(access.channel.id, request.messageId);
      if (message.pinnedAt !== null) return;
      const system: MessageRecord = {
        id: ids(),
        channelId: access.channel.id,
        guildId: access.guildId,
        authorId: principal.user.id,
        type: MessageTypes.CHANNEL_PINNED_MESSAGE,
        content: '',
        embeds: [],
        flags: 0,
        tts: false,
        mentionEveryone: false,
        mentionUserIds: [],
        mentionRoleIds: [],
        reference: {
          type: 0,
          channelId: access.channel.id,
          messageId: message.id,
          guildId: access.guildId,
        },
        snapshots: null,
        nonce: null,
        applicationId: null,
        webhookId: null,
        pinnedAt: null,
        editedAt: null,
        createdAt: now,
        attachments: [],
      };
      await storage.transaction(async (tx) => {
        if ((await tx.messages.countPins(access.channel.id)) >= MAX_PINS) {
          throw new ApiError('MAX_PINS');
        }
        await tx.messages.setPinnedAt(access.channel.id, message.id, now);
        await tx.messages.create(system);
        if (access.guildId !== null) {
          await recordAudit(tx, ids, {
            guildId: access.guildId,
            userId: principal.user.id,
            targetId: message.authorId,
            actionType: AuditLogActions.MESSAGE_PIN,
            reason: request.reason,
            options: { channel_id: access.channel.id, message_id: message.id },
          });
        }
        const wire = await dispatchPayload(tx, {
          message: system,
          viewerId: principal.user.id,
          links: options.links(),
        });
        afterCommit(tx, {
          type: 'MESSAGE_CREATE',
          ...access.dispatchTo,
          data: {
            ...wire,
            ...access.guildWire,
            ...access.memberWire(),
          },
        });
        pinsUpdate(tx, access, now);
      });
    },

    /** DELETE .../pins/{message_id}: unpinning a message that is not pinned changes nothing. */
    async unpin(principal: Principal, request: PinRequest) {
      const access = await load(principal, request.channelId);
      access.require(requiredPermissions.pinMessages(access.nowMs));
      const message = await findMessage(access.channel.id, request.messageId);
      if (message.pinnedAt === null) return;
      await storage.transaction(async (tx) => {
        await tx.messages.setPinnedAt(access.channel.id, message.id, null);
        if (access.guildId !== null) {
          await recordAudit(tx, ids, {
            guildId: access.guildId,
            userId: principal.user.id,
            targetId: message.authorId,
            actionType: AuditLogActions.MESSAGE_UNPIN,
            reason: request.reason,
            options: { channel_id: access.channel.id, message_id: message.id },
          });
        }
        const [newest] = await tx.messages.listPins(access.channel.id, { limit: 1 });
        pinsUpdate(tx, access, newest?.pinnedAt ?? null);
      });
    },
  };
}

export type PinService = ReturnType<typeof createPinService>;
