/**
 * What the webhook service checks before it changes anything: who may manage a channel's
 * webhooks, where webhooks may post, the per-channel limit, and the webhook an id names.
 */
import { ChannelTypes, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ChannelRecord, Repositories, WebhookRecord } from '../../storage/index.js';
import { loadGuildAccess } from '../access/index.js';
import { MESSAGE_CHANNEL_TYPES } from '../messages/index.js';
import { WEBHOOK_LIMITS } from './schemas.js';

/** Guild channels a webhook can post in (text-capable, not a DM). */
const WEBHOOK_CHANNEL_TYPES = new Set(
  [...MESSAGE_CHANNEL_TYPES].filter((t) => t !== ChannelTypes.DM && t !== ChannelTypes.GROUP_DM),
);

/** A guild channel the caller may manage webhooks of (VIEW_CHANNEL, then MANAGE_WEBHOOKS). */
export async function managedChannel(
  repos: Repositories,
  principal: Principal,
  at: { channelId: string; nowMs: number },
): Promise<ChannelRecord> {
  const { channelId, nowMs } = at;
  const channel = isSnowflake(channelId) ? await repos.channels.findById(channelId) : null;
  if (channel === null) throw new ApiError('UNKNOWN_CHANNEL');
  if (channel.guildId === null) throw new ApiError('CANNOT_EXECUTE_ON_DM');
  const access = await loadGuildAccess(repos, {
    guildId: channel.guildId,
    userId: principal.user.id,
    nowMs,
  });
  const permissions = access.inChannel(channel, await repos.overwrites.listByChannel(channel.id));
  if (!hasAll(permissions, P.VIEW_CHANNEL)) throw new ApiError('MISSING_ACCESS');
  if (!hasAll(permissions, P.MANAGE_WEBHOOKS)) throw new ApiError('MISSING_PERMISSIONS');
  return channel;
}

/** 50024 unless webhooks can post in the channel. */
export function assertPostable(channel: ChannelRecord): void {
  if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) {
    throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
  }
}

/** 30007 when the channel holds as many webhooks as it may. */
export async function assertRoom(repos: Repositories, channelId: string): Promise<void> {
  if ((await repos.webhooks.countByChannel(channelId)) >= WEBHOOK_LIMITS.maxPerChannel) {
    throw new ApiError('MAX_WEBHOOKS');
  }
}

/** What an audit entry of a webhook shows, in the platform's keys. */
export const auditView = (webhook: WebhookRecord) => ({
  name: webhook.name,
  type: webhook.type,
  channel_id: webhook.channelId,
  avatar_hash: webhook.avatar,
  application_id: webhook.applicationId,
});

/** The webhook of an id, or 10015. */
export async function findWebhook(repos: Repositories, webhookId: string): Promise<WebhookRecord> {
  const webhook = isSnowflake(webhookId) ? await repos.webhooks.findById(webhookId) : null;
  if (webhook === null) throw new ApiError('UNKNOWN_WEBHOOK');
  return webhook;
}
