import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { hashSecret } from '../../domain/credentials.js';
import { SEALED_AS, type SecretBox } from '../../domain/secretBox.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, WebhookRecord } from '../../storage/index.js';
import { WebhookTypes } from '../../storage/index.js';
import { loadGuildAccess } from '../access/index.js';
import { recordAudit, snapshotChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { storeImage } from '../imageUploads.js';
import type { CreateWebhookInput, ModifyWebhookInput } from './schemas.js';
import { serializeWebhook, type WebhookWire } from './serialize.js';
import {
  assertPostable,
  assertRoom,
  auditView,
  findWebhook,
  managedChannel as managedChannelAt,
} from './access.js';
import { assertWebhookName } from './names.js';
import { createWebhookViews } from './views.js';
import { createWebhookWrites } from './writes.js';

/** Random bytes of an incoming webhook's token (68 base64url characters, as the platform's). */
const TOKEN_BYTES = 51;

/** What the webhook service needs besides the common deps. */
export interface WebhookServiceDeps extends ServiceDeps {
  secrets: SecretBox;
  /** The public URL (no /api), read at call time. */
  baseUrl: () => string;
}

/**
 * Webhooks of guild channels: create, list, get, modify and delete by a member with
 * MANAGE_WEBHOOKS, or by the token of an incoming webhook. Every change is audited (by a member)
 * and announced as WEBHOOKS_UPDATE once it commits.
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { storage, clock, ids, blobs, secrets } = deps;
  const { tokenOf, managerView, one } = createWebhookViews(deps);
  const { applyPatch, namePatch, remove, announce } = createWebhookWrites(deps);
  const managedChannel = (repos: Repositories, principal: Principal, channelId: string) =>
    managedChannelAt(repos, principal, { channelId, nowMs: clock.now() });

  return {
    /**
     * Where a token route's message goes: the webhook's channel, or with `thread_id` one of its
     * threads (10003 for any other id; 160005 for a locked thread).
     */
    async targetChannel(webhook: WebhookRecord, threadId: string | undefined): Promise<string> {
      if (threadId === undefined) return webhook.channelId;
      const thread = isSnowflake(threadId) ? await storage.threads.find(threadId) : null;
      if (thread?.channel.parentId !== webhook.channelId) throw new ApiError('UNKNOWN_CHANNEL');
      if (thread.locked) throw new ApiError('THREAD_LOCKED');
      return thread.channel.id;
    },

    /**
     * An incoming webhook by id and token: 10015 when the id names none (the routes then ask
     * the interactions), 50027 when the token is not its own.
     */
    async authorize(webhookId: string, token: string): Promise<WebhookRecord | null> {
      const webhook = isSnowflake(webhookId) ? await storage.webhooks.findById(webhookId) : null;
      if (webhook === null) return null;
      const given = Buffer.from(hashSecret(token));
      const expected = Buffer.from(webhook.tokenHash ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ApiError('INVALID_WEBHOOK_TOKEN');
      }
      return webhook;
    },

    /** POST /channels/{id}/webhooks: MANAGE_WEBHOOKS; at most 15 per channel. */
    async create(
      principal: Principal,
      request: { channelId: string; input: CreateWebhookInput; reason: string | null },
    ): Promise<WebhookWire> {
      const { input } = request;
      const channel = await managedChannel(storage, principal, request.channelId);
      assertPostable(channel);
      assertWebhookName('name', input.name);
      await assertRoom(storage, channel.id);
      const id = ids();
      const avatar =
        input.avatar == null
          ? null
          : await storeImage(
              blobs,
              { field: 'avatar', value: input.avatar },
              (hash, ext) => `avatars/${id}/${hash}.${ext}`,
            );
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const webhook: WebhookRecord = {
        id,
        type: WebhookTypes.INCOMING,
        guildId: channel.guildId ?? '',
        channelId: channel.id,
        creatorId: principal.user.id,
        name: input.name,
        avatar,
        tokenHash: hashSecret(token),
        tokenSealed: secrets.seal(token, SEALED_AS.webhookToken(id)),
        applicationId: principal.kind === 'bot' ? principal.applicationId : null,
        sourceGuildId: null,
        sourceChannelId: null,
        createdAt: clock.now(),
      };
      await storage.transaction(async (tx) => {
        await assertRoom(tx, channel.id);
        await tx.webhooks.create(webhook);
        await recordAudit(tx, ids, {
          guildId: webhook.guildId,
          userId: principal.user.id,
          targetId: webhook.id,
          actionType: AuditLogActions.WEBHOOK_CREATE,
          changes: snapshotChanges(auditView(webhook)),
          options: null,
          reason: request.reason,
        });
        announce(tx, webhook, [webhook.channelId]);
      });
      return one(storage, webhook, principal);
    },

    /** GET /channels/{id}/webhooks: MANAGE_WEBHOOKS in the channel. */
    async listForChannel(principal: Principal, channelId: string): Promise<WebhookWire[]> {
      const channel = await managedChannel(storage, principal, channelId);
      return managerView(storage, await storage.webhooks.listByChannel(channel.id), principal);
    },

    /** GET /guilds/{id}/webhooks: MANAGE_WEBHOOKS in the guild. */
    async listForGuild(principal: Principal, guildId: string): Promise<WebhookWire[]> {
      const access = await loadGuildAccess(storage, {
        guildId,
        userId: principal.user.id,
        nowMs: clock.now(),
      });
      access.require(P.MANAGE_WEBHOOKS);
      return managerView(storage, await storage.webhooks.listByGuild(access.guild.id), principal);
    },

    /** GET /webhooks/{id}: MANAGE_WEBHOOKS in its channel. */
    async get(principal: Principal, webhookId: string): Promise<WebhookWire> {
      const webhook = await findWebhook(storage, webhookId);
      await managedChannel(storage, principal, webhook.channelId);
      return one(storage, webhook, principal);
    },

    /**
     * PATCH /webhooks/{id}: name, avatar, and channel_id (another text channel of the guild,
     * where the caller also has MANAGE_WEBHOOKS and there is room).
     */
    async modify(
      principal: Principal,
      request: { webhookId: string; input: ModifyWebhookInput; reason: string | null },
    ): Promise<WebhookWire> {
      const { input } = request;
      const webhook = await findWebhook(storage, request.webhookId);
      await managedChannel(storage, principal, webhook.channelId);
      let channelId: string | undefined;
      if (input.channel_id != null && input.channel_id !== webhook.channelId) {
        const target = await managedChannel(storage, principal, input.channel_id);
        if (target.guildId !== webhook.guildId) {
          throw invalidField(
            ['channel_id'],
            'BASE_TYPE_INVALID',
            'Webhooks can only be moved to channels in the same guild.',
          );
        }
        assertPostable(target);
        await assertRoom(storage, target.id);
        channelId = target.id;
      }
      const patch = {
        ...(await namePatch(webhook, input)),
        ...(channelId === undefined ? {} : { channelId }),
      };
      const updated = await applyPatch(webhook, patch, {
        principal,
        reason: request.reason,
      });
      return one(storage, updated, principal);
    },

    /** DELETE /webhooks/{id}: MANAGE_WEBHOOKS in its channel. */
    async delete(
      principal: Principal,
      request: { webhookId: string; reason: string | null },
    ): Promise<void> {
      const webhook = await findWebhook(storage, request.webhookId);
      await managedChannel(storage, principal, webhook.channelId);
      await remove(webhook, { principal, reason: request.reason });
    },

    /** GET /webhooks/{id}/{token}: the webhook with its token, without its creator. */
    viewByToken(webhook: WebhookRecord): WebhookWire {
      return serializeWebhook(webhook, { baseUrl: deps.baseUrl(), token: tokenOf(webhook) });
    },

    /** PATCH /webhooks/{id}/{token}: name and avatar only. */
    async modifyByToken(
      webhook: WebhookRecord,
      input: Pick<ModifyWebhookInput, 'name' | 'avatar'>,
    ): Promise<WebhookWire> {
      const updated = await applyPatch(webhook, await namePatch(webhook, input), null);
      return serializeWebhook(updated, { baseUrl: deps.baseUrl(), token: tokenOf(updated) });
    },

    /** DELETE /webhooks/{id}/{token}. */
    async deleteByToken(webhook: WebhookRecord): Promise<void> {
      await remove(webhook, null);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
