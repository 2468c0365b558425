/** Webhooks of guild channels (migration 0025). */

/** Webhook types: 1 INCOMING, 2 CHANNEL_FOLLOWER, 3 APPLICATION. */
export const WebhookTypes = { INCOMING: 1, CHANNEL_FOLLOWER: 2, APPLICATION: 3 } as const;

export interface WebhookRecord {
  id: string;
  type: number;
  guildId: string;
  channelId: string;
  /** The user who made it; null when unknown. */
  creatorId: string | null;
  name: string;
  /** An image hash under /avatars/{id}/, or null. */
  avatar: string | null;
  /** SHA-256 (hex) of an incoming webhook's token; null for other types. */
  tokenHash: string | null;
  /** The token sealed with the server's SecretBox (shown again to managers); null without one. */
  tokenSealed: string | null;
  /** The app whose bot made it, else null. */
  applicationId: string | null;
  /** A follower webhook's followed guild and channel, else null. */
  sourceGuildId: string | null;
  sourceChannelId: string | null;
  createdAt: number;
}

export type WebhookPatch = Partial<Pick<WebhookRecord, 'name' | 'avatar' | 'channelId'>>;

export interface WebhookRepository {
  create(webhook: WebhookRecord): Promise<void>;
  findById(webhookId: string): Promise<WebhookRecord | null>;
  /** Oldest first. */
  listByChannel(channelId: string): Promise<WebhookRecord[]>;
  /** Oldest first. */
  listByGuild(guildId: string): Promise<WebhookRecord[]>;
  /** The follower webhooks (type 2) of an announcement channel, oldest first. */
  listFollowers(sourceChannelId: string): Promise<WebhookRecord[]>;
  countByChannel(channelId: string): Promise<number>;
  /** Returns the updated webhook, or null when it is gone. */
  update(webhookId: string, patch: WebhookPatch): Promise<WebhookRecord | null>;
  /** Returns whether it existed. */
  delete(webhookId: string): Promise<boolean>;
}
