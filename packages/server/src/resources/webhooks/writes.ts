/**
 * The writes the webhook service shares between its member routes and its token routes: a
 * change of name, avatar or channel, and a removal, each audited when a member made it and
 * announced as WEBHOOKS_UPDATE once it commits; replaced avatars' files freed after.
 */
import { AuditLogActions } from '@guildhall/protocol';
import { freeBlobs, imageKeys } from '../../blobs/lifecycle.js';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, WebhookPatch, WebhookRecord } from '../../storage/index.js';
import { diffChanges, recordAudit, snapshotChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { storeImage } from '../imageUploads.js';
import { auditView } from './access.js';
import type { ModifyWebhookInput } from './schemas.js';
import { assertWebhookName } from './names.js';

/** WEBHOOKS_UPDATE for each channel, once the transaction commits. */
declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    /** A channel's webhooks changed; clients fetch them again. */
    WEBHOOKS_UPDATE: { guild_id: string; channel_id: string };
  }
}

function announce(
  tx: Repositories,
  webhook: { guildId: string },
  channelIds: readonly string[],
): void {
  for (const channelId of new Set(channelIds)) {
    afterCommit(tx, {
      type: 'WEBHOOKS_UPDATE',
      guildId: webhook.guildId,
      channelId,
      data: { guild_id: webhook.guildId, channel_id: channelId },
    });
  }
}

export function createWebhookWrites(deps: ServiceDeps) {
  const { storage, ids, blobs } = deps;

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

  return { applyPatch, namePatch, remove, announce };
}
