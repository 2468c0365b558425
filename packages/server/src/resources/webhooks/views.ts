/**
 * Webhooks as their managers see them (webhooks/serialize.ts for the shape), with the tokens
 * opened from their sealed copies.
 */
import type { SecretBox } from '../../domain/secretBox.js';
import { SEALED_AS } from '../../domain/secretBox.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, WebhookRecord } from '../../storage/index.js';
import { serializeWebhook, type WebhookView, type WebhookWire } from './serialize.js';

export interface WebhookViewDeps {
  secrets: SecretBox;
  /** The public URL (no /api), read at call time. */
  baseUrl: () => string;
}

export function createWebhookViews(deps: WebhookViewDeps) {
  const { secrets } = deps;
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

  return { tokenOf, managerView, one };
}
