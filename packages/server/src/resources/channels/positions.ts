import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ChannelPatch, OverwriteRecord } from '../../storage/index.js';
import { recordChanges, diffChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { channelDispatches } from './dispatch.js';
import { loadGuildAccess } from '../access/index.js';
import { resolveParent } from './fields.js';
import { overwritesDiffer, syncOverwrites } from './overwrites.js';
import { serializeChannel } from './serialize.js';
import type { ChannelPositionsInput } from './schemas.js';

/**
 * PATCH /guilds/{id}/channels: MANAGE_CHANNELS. Moves channels (position, parent_id) and, with
 * lock_permissions, makes a channel's overwrites those of its (new) category. Each moved channel
 * gets a CHANNEL_UPDATE entry; synced overwrites get their CHANNEL_OVERWRITE_* entries.
 */
export function createChannelPositionService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;
  return {
    async modify(
      principal: Principal,
      guildId: string,
      input: { moves: ChannelPositionsInput; reason: string | null },
    ): Promise<void> {
      await storage.transaction(async (tx) => {
        const access = await loadGuildAccess(tx, {
          guildId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(P.MANAGE_CHANNELS);
        const channels = new Map(
          (await tx.channels.listByGuild(access.guild.id)).map((c) => [c.id, c]),
        );
        const context = {
          ids,
          guildId: access.guild.id,
          userId: principal.user.id,
          reason: input.reason,
          roleNames: new Map(access.roles.map((role) => [role.id, role.name])),
        };
        for (const [index, move] of input.moves.entries()) {
          const channel = channels.get(move.id);
          if (channel === undefined) {
            throw invalidField([index, 'id'], 'CHANNEL_INVALID', 'Unknown channel in this guild.');
          }
          const patch: ChannelPatch = {};
          if (move.position != null) patch.position = move.position;
          let parentId = channel.parentId;
          if (move.parent_id !== undefined) {
            const parent = await resolveParent(tx, {
              guildId: access.guild.id,
              type: channel.type,
              parentId: move.parent_id,
              path: [index, 'parent_id'],
            });
            parentId = parent?.id ?? null;
            patch.parentId = parentId;
          }
          const updated = (await tx.channels.update(channel.id, patch)) ?? channel;
          channels.set(channel.id, updated);
          const changes = diffChanges(
            { position: channel.position, parent_id: channel.parentId },
            { position: updated.position, parent_id: updated.parentId },
          );
          await recordChanges(tx, ids, {
            guildId: access.guild.id,
            userId: principal.user.id,
            targetId: channel.id,
            actionType: AuditLogActions.CHANNEL_UPDATE,
            changes,
            reason: input.reason,
          });
          let synced: OverwriteRecord[] | null = null;
          if (move.lock_permissions === true && parentId !== null) {
            // Syncing rewrites the channel's overwrites, which PUT /permissions guards with
            // MANAGE_ROLES: moving must not be a way around it.
            access.require(P.MANAGE_ROLES);
            const [current, parentOverwrites] = await Promise.all([
              tx.overwrites.listByChannel(channel.id),
              tx.overwrites.listByChannel(parentId),
            ]);
            const next = parentOverwrites.map((o) => ({ ...o, channelId: channel.id }));
            await syncOverwrites(tx, context, { channelId: channel.id, current, next });
            if (overwritesDiffer(current, next)) synced = next;
          }
          if (changes.length > 0 || synced !== null) {
            const overwrites = synced ?? (await tx.overwrites.listByChannel(channel.id));
            afterCommit(
              tx,
              channelDispatches.channel('CHANNEL_UPDATE', serializeChannel(updated, overwrites)),
            );
          }
        }
      });
    },
  };
}

export type ChannelPositionService = ReturnType<typeof createChannelPositionService>;
