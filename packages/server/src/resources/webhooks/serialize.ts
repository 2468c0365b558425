import type { GuildRecord, UserRecord, WebhookRecord } from '../../storage/index.js';
import { WebhookTypes } from '../../storage/index.js';
import { serializeUser } from '../users/index.js';

/** What a webhook object shows besides its row. */
export interface WebhookView {
  /** Its creator, shown to those who manage it (not on the token routes). */
  creator?: UserRecord | null;
  /** An incoming webhook's token, opened from its sealed copy; absent when not shown. */
  token?: string | null;
  /** The public URL (no /api) the execute URL is made of. */
  baseUrl: string;
  /** A follower webhook's source guild and channel, when they still exist. */
  sourceGuild?: Pick<GuildRecord, 'id' | 'name' | 'icon'> | null;
  sourceChannel?: { id: string; name: string } | null;
}

/** An incoming webhook's execute URL, as the platform shows it. */
export function webhookUrl(baseUrl: string, webhookId: string, token: string): string {
  return `${baseUrl}/api/webhooks/${webhookId}/${token}`;
}

/**
 * A webhook on the wire (GuildIncomingWebhookResponse, ChannelFollowerWebhookResponse or
 * ApplicationIncomingWebhookResponse): `token` and `url` only for an incoming webhook shown
 * with its token, `source_*` only for a follower.
 */
export function serializeWebhook(webhook: WebhookRecord, view: WebhookView) {
  const { token } = view;
  const incoming = webhook.type === WebhookTypes.INCOMING;
  return {
    id: webhook.id,
    type: webhook.type,
    guild_id: webhook.guildId,
    channel_id: webhook.channelId,
    name: webhook.name,
    avatar: webhook.avatar,
    application_id: webhook.applicationId,
    ...(view.creator == null ? {} : { user: serializeUser(view.creator) }),
    ...(incoming && token != null
      ? { token, url: webhookUrl(view.baseUrl, webhook.id, token) }
      : {}),
    ...(webhook.type === WebhookTypes.CHANNEL_FOLLOWER && view.sourceGuild != null
      ? {
          source_guild: {
            id: view.sourceGuild.id,
            name: view.sourceGuild.name,
            icon: view.sourceGuild.icon,
          },
        }
      : {}),
    ...(webhook.type === WebhookTypes.CHANNEL_FOLLOWER && view.sourceChannel != null
      ? { source_channel: view.sourceChannel }
      : {}),
  };
}

export type WebhookWire = ReturnType<typeof serializeWebhook>;
