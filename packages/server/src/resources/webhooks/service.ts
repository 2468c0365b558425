import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  AuditLogActions,
  ChannelTypes,
  PermissionFlags as P,
  isSnowflake,
} from '@guildhall/protocol';
import { freeBlobs, imageKeys } from '../../blobs/lifecycle.js';
import { hashSecret } from '../../domain/credentials.js';
import { hasAll } from '../../domain/permissions.js';
import { SEALED_AS, type SecretBox } from '../../domain/secretBox.js';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  ChannelRecord,
  Repositories,
  WebhookPatch,
  WebhookRecord,
} from '../../storage/index.js';
import { WebhookTypes } from '../../storage/index.js';
import { loadGuildAccess } from '../access/index.js';
import { diffChanges, recordAudit, snapshotChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { storeImage } from '../imageUploads.js';
import { MESSAGE_CHANNEL_TYPES } from '../messages/index.js';
import type { CreateWebhookInput, ModifyWebhookInput } from './schemas.js';
import { WEBHOOK_LIMITS } from './schemas.js';
import { serializeWebhook, type WebhookView, type WebhookWire } from './serialize.js';

/** Random bytes of an incoming webhook's token (68 base64url characters, as the platform's). */
const TOKEN_BYTES = 51;

/** Substrings a webhook's name may not hold (case-insensitive), as on the platform. */
const FORBIDDEN_NAME_PARTS = ['clyde', 'discord'];

/**
 * Checks a webhook's (or an execute's) name: 50035 USERNAME_INVALID_CONTAINS at `field` when
 * it holds "clyde" or "discord" in any case.
 */
export function assertWebhookName(field: string, name: string): void {
  const lower = name.toLowerCase();
  for (const part of FORBIDDEN_NAME_PARTS) {
    if (lower.includes(part)) {
      throw invalidField([field], 'USERNAME_INVALID_CONTAINS', `Username cannot contain "${part}"`);
    }
  }
}

/** Guild channels a webhook can post in (text-capable, not a DM). */
const WEBHOOK_CHANNEL_TYPES = new Set(
  [...MESSAGE_CHANNEL_TYPES].filter((t) => t !== ChannelTypes.DM && t !== ChannelTypes.GROUP_DM),
);

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

  /** A guild channel the caller may manage webhooks of (VIEW_CHANNEL, then MANAGE_WEBHOOKS). */
  const managedChannel = async (repos: Repositories, principal: Principal, channelId: string) => {
    const channel = isSnowflake(channelId) ? await repos.channels.findById(channelId) : null;
    if (channel === null) throw new ApiError('UNKNOWN_CHANNEL');
    if (channel.guildId === null) throw new ApiError('CANNOT_EXECUTE_ON_DM');
    const access = await loadGuildAccess(repos, {
      guildId: channel.guildId,
      userId: principal.user.id,
      nowMs: clock.now(),
    });
    const permissions = access.inChannel(channel, await repos.overwrites.listByChannel(channel.id));
    if (!hasAll(permissions, P.VIEW_CHANNEL)) throw new ApiError('MISSING_ACCESS');
    if (!hasAll(permissions, P.MANAGE_WEBHOOKS)) throw new ApiError('MISSING_PERMISSIONS');
    return channel;
  };

  const assertPostable = (channel: ChannelRecord) => {
    if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) {
      throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    }
  };

  const assertRoom = async (repos: Repositories, channelId: string) => {
    if ((await repos.webhooks.countByChannel(channelId)) >= WEBHOOK_LIMITS.maxPerChannel) {
      throw new ApiError('MAX_WEBHOOKS');
    }
  };

  /** The token of an incoming webhook, opened from its sealed copy. */
  const tokenOf = (webhook: WebhookRecord): string | null =>
    webhook.tokenSealed === null
      ? null
      : secrets.open(webhook.tokenSealed, SEALED_AS.webhookToken(webhook.id));

  /**
   * Webhooks as their managers see them: with the creator and an incoming webhook's token, but
   * not the token of a webhook another application owns (whose messages may carry that app's
   * interactive components).
   */
  const managerView = async (
    repos: Repositories,
    webhooks: readonly WebhookRecord[],
    viewer: Principal,
  ): Promise<WebhookWire[]> => {
    const creatorIds = [
      ...new Set(webhooks.flatMap((w) => (w.creatorId === null ? [] : [w.creatorId]))),
    ];
    const creators = new Map(
      (creatorIds.length === 0 ? [] : await repos.users.findByIds(creatorIds)).map((u) => [
        u.id,
        u,
      ]),
    );
    const baseUrl = deps.baseUrl();
    // A follower webhook shows the guild and channel it follows, while they exist.
    const sources = new Map<string, Pick<WebhookView, 'sourceGuild' | 'sourceChannel'>>();
    for (const webhook of webhooks) {
      if (webhook.sourceChannelId === null || webhook.sourceGuildId === null) continue;
      const [guild, channel] = await Promise.all([
        repos.guilds.findById(webhook.sourceGuildId),
        repos.channels.findById(webhook.sourceChannelId),
      ]);
      sources.set(webhook.id, {
        sourceGuild: guild,
        sourceChannel: channel === null ? null : { id: channel.id, name: channel.name ?? '' },
      });
    }
    return webhooks.map((webhook) =>
      serializeWebhook(webhook, {
        ...sources.get(webhook.id),
        baseUrl,
        token:
          webhook.applicationId === null || webhook.applicationId === viewer.applicationId
            ? tokenOf(webhook)
            : null,
        creator: webhook.creatorId === null ? null : (creators.get(webhook.creatorId) ?? null),
      }),
    );
  };

  const one = async (repos: Repositories, webhook: WebhookRecord, viewer: Principal) => {
    const [wire] = await managerView(repos, [webhook], viewer);
    if (wire === undefined) throw new ApiError('UNKNOWN_WEBHOOK');
    return wire;
  };

  /** What an audit entry of a webhook shows, in the platform's keys. */
  const auditView = (webhook: WebhookRecord) => ({
    name: webhook.name,
    type: webhook.type,
    channel_id: webhook.channelId,
    avatar_hash: webhook.avatar,
    application_id: webhook.applicationId,
  });

  const findWebhook = async (repos: Repositories, webhookId: string) => {
    const webhook = isSnowflake(webhookId) ? await repos.webhooks.findById(webhookId) : null;
    if (webhook === null) throw new ApiError('UNKNOWN_WEBHOOK');
    return webhook;
  };

  const announce = (
    tx: Repositories,
    webhook: { guildId: string },
    channelIds: readonly string[],
  ) => {
    for (const channelId of new Set(channelIds)) {
      afterCommit(tx, {
        type: 'WEBHOOKS_UPDATE',
        guildId: webhook.guildId,
        channelId,
        data: { guild_id: webhook.guildId, channel_id: channelId },
      });
    }
  };

  /** Writes a name/avatar/channel change; the old avatar's files go once it committed. */
  const applyPatch = async (
    webhook: WebhookRecord,
    patch: WebhookPatch,
    audit: { principal: Principal; reason: string | null } | null,
  ) => {
    const updated = await storage.transaction(async (tx) => {
      const result = await tx.webhooks.update(webhook.id, patch);
      if (result === null) throw new ApiError('UNKNOWN_WEBHOOK');
      if (audit !== null) {
        const changes = diffChanges(auditView(webhook), auditView(result));
        if (changes.length > 0) {
          await recordAudit(tx, ids, {
            guildId: webhook.guildId,
            userId: audit.principal.user.id,
            targetId: webhook.id,
            actionType: AuditLogActions.WEBHOOK_UPDATE,
            changes,
            options: null,
            reason: audit.reason,
          });
        }
      }
      announce(tx, webhook, [webhook.channelId, result.channelId]);
      return result;
    });
    if (patch.avatar !== undefined && patch.avatar !== webhook.avatar) {
      await freeBlobs(storage, blobs, imageKeys(`avatars/${webhook.id}`, webhook.avatar));
    }
    return updated;
  };

  /** The name and avatar of a PATCH, checked; the avatar stored under the webhook's id. */
  const namePatch = async (
    webhook: WebhookRecord,
    input: Pick<ModifyWebhookInput, 'name' | 'avatar'>,
  ): Promise<WebhookPatch> => {
    if (input.name !== undefined) assertWebhookName('name', input.name);
    return {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.avatar === undefined
        ? {}
        : {
            avatar: await storeImage(
              blobs,
              { field: 'avatar', value: input.avatar },
              (hash, ext) => `avatars/${webhook.id}/${hash}.${ext}`,
            ),
          }),
    };
  };

  const remove = async (
    webhook: WebhookRecord,
    audit: { principal: Principal; reason: string | null } | null,
  ) => {
    await storage.transaction(async (tx) => {
      if (!(await tx.webhooks.delete(webhook.id))) throw new ApiError('UNKNOWN_WEBHOOK');
      if (audit !== null) {
        await recordAudit(tx, ids, {
          guildId: webhook.guildId,
          userId: audit.principal.user.id,
          targetId: webhook.id,
          actionType: AuditLogActions.WEBHOOK_DELETE,
          changes: snapshotChanges(auditView(webhook), 'old'),
          options: null,
          reason: audit.reason,
        });
      }
      announce(tx, webhook, [webhook.channelId]);
    });
    await freeBlobs(storage, blobs, imageKeys(`avatars/${webhook.id}`, webhook.avatar));
  };

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
