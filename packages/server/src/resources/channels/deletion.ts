/**
 * A guild channel's deletion: its threads go with it, its attachments' files once it commits, a
 * deleted category's channels are left without a parent and the guild's settings stop naming it.
 */
import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { attachmentKey, freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { GuildRecord, Repositories } from '../../storage/index.js';
import { recordAudit, snapshotChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { loadChannelAccess } from './access.js';
import { channelDispatches } from './dispatch.js';
import { auditView } from './fields.js';
import { overwritesByChannel, serializeChannel } from './serialize.js';

/**
 * What the channel service needs beyond every service's deps: the GUILD_UPDATE a deleted channel
 * causes (`announceGuildUpdate` of `guilds/`). It is passed in because `guilds/` builds channels
 * and so imports `channels/`, not the other way round.
 */
export interface ChannelServiceDeps extends ServiceDeps {
  announceGuildUpdate: (tx: Repositories, guild: GuildRecord) => Promise<void>;
}

export function createChannelDeletion(deps: ChannelServiceDeps) {
  const { storage, clock, ids, announceGuildUpdate } = deps;

  return {
    /** DELETE /channels/{id}: MANAGE_CHANNELS; answers with the channel as it was. */
    async delete(principal: Principal, channelId: string, reason: string | null) {
      return storage.transaction(async (tx) => {
        const access = await loadChannelAccess(tx, {
          channelId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(P.MANAGE_CHANNELS);
        const { channel, guild } = access;
        const wire = serializeChannel(channel, access.overwrites);
        const g = guild.guild;
        const children = (await tx.channels.listByGuild(g.id)).filter(
          (c) => c.parentId === channel.id,
        );
        const attachmentIds = await tx.blobRefs.attachmentIds({ channelId: channel.id });
        // Its threads go with it (their messages and members with them).
        for (const archived of [false, true]) {
          for (const thread of await tx.threads.listByParent(channel.id, { archived })) {
            attachmentIds.push(
              ...(await tx.blobRefs.attachmentIds({ channelId: thread.channel.id })),
            );
            await tx.channels.delete(thread.channel.id);
          }
        }
        await tx.channels.delete(channel.id);
        freeBlobsAfterCommit(tx, deps.blobs, attachmentIds.map(attachmentKey));
        afterCommit(tx, channelDispatches.channel('CHANNEL_DELETE', wire));
        // A deleted category's channels are left without a parent.
        const childOverwrites = overwritesByChannel(
          await tx.overwrites.listByChannels(children.map((c) => c.id)),
        );
        for (const child of children) {
          const orphan = serializeChannel(
            { ...child, parentId: null },
            childOverwrites.get(child.id) ?? [],
          );
          afterCommit(tx, channelDispatches.channel('CHANNEL_UPDATE', orphan));
        }
        // The guild's settings stop pointing at a channel that is gone.
        const cleared = {
          ...(g.afkChannelId === channel.id ? { afkChannelId: null } : {}),
          ...(g.systemChannelId === channel.id ? { systemChannelId: null } : {}),
          ...(g.rulesChannelId === channel.id ? { rulesChannelId: null } : {}),
          ...(g.publicUpdatesChannelId === channel.id ? { publicUpdatesChannelId: null } : {}),
        };
        if (Object.keys(cleared).length > 0) {
          const updated = await tx.guilds.update(g.id, cleared);
          if (updated !== null) await announceGuildUpdate(tx, updated);
        }
        await recordAudit(tx, ids, {
          guildId: g.id,
          userId: principal.user.id,
          targetId: channel.id,
          actionType: AuditLogActions.CHANNEL_DELETE,
          changes: snapshotChanges(auditView(wire, { overwrites: true }), 'old'),
          reason,
        });
        return wire;
      });
    },
  };
}
