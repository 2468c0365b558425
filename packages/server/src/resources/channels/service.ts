/**
 * The guild channel service: a channel's create and modify here; its reads in reads.ts, its
 * deletion in deletion.ts.
 */
import {
  AuditLogActions,
  ChannelTypes,
  PermissionFlags as P,
  isVoiceChannelType,
} from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { OverwriteRecord, Repositories } from '../../storage/index.js';
import { recordAudit, diffChanges, snapshotChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import { loadGuildAccess } from '../access/index.js';
import { assertGrantable, assertOverwriteTargets, loadChannelAccess } from './access.js';
import { createChannelDeletion, type ChannelServiceDeps } from './deletion.js';
import { channelDispatches } from './dispatch.js';
import { auditView, channelPatch, resolveParent } from './fields.js';
import { overwritesDiffer, syncOverwrites } from './overwrites.js';
import { createChannelReads } from './reads.js';
import { DEFAULT_BITRATE, isThreadOnlyType } from './rules.js';
import type { CreateChannelInput, ModifyChannelInput, OverwriteInputValue } from './schemas.js';
import { serializeChannel } from './serialize.js';
import { putTags } from './tags.js';

export type { ChannelServiceDeps } from './deletion.js';

/** Text and announcement channels may become each other; no other type change exists. */
const CONVERTIBLE = new Set<number>([ChannelTypes.GUILD_TEXT, ChannelTypes.GUILD_ANNOUNCEMENT]);

const toRecords = (channelId: string, overwrites: readonly OverwriteInputValue[]) =>
  overwrites.map((o): OverwriteRecord => ({
    channelId,
    targetId: o.id,
    type: o.type,
    allow: o.allow ?? 0n,
    deny: o.deny ?? 0n,
  }));

/** The guild channel routes: list, create, get, modify and delete. */
export function createChannelService(deps: ChannelServiceDeps) {
  const { storage, clock, ids } = deps;

  const audit = (tx: Repositories, entry: Parameters<typeof recordAudit>[2]) =>
    recordAudit(tx, ids, entry);

  return {
    ...createChannelReads(deps),
    ...createChannelDeletion(deps),

    /**
     * POST /guilds/{id}/channels: MANAGE_CHANNELS. A channel made under a category copies the
     * category's overwrites unless it brings its own.
     */
    async create(
      principal: Principal,
      guildId: string,
      input: CreateChannelInput & { reason: string | null },
    ) {
      return storage.transaction(async (tx) => {
        const access = await loadGuildAccess(tx, {
          guildId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(P.MANAGE_CHANNELS);
        const type = input.type ?? ChannelTypes.GUILD_TEXT;
        const fields = channelPatch(type, { ...input, type });
        const parent = await resolveParent(tx, {
          guildId: access.guild.id,
          type,
          parentId: input.parent_id ?? null,
        });
        const id = ids();
        let overwrites: OverwriteRecord[];
        if (input.permission_overwrites != null) {
          overwrites = toRecords(id, input.permission_overwrites);
          await assertOverwriteTargets(tx, access, input.permission_overwrites);
          assertGrantable(access, access.permissions, overwrites);
        } else {
          const inherited = parent === null ? [] : await tx.overwrites.listByChannel(parent.id);
          overwrites = inherited.map((o) => ({ ...o, channelId: id }));
        }
        const existing = await tx.channels.listByGuild(access.guild.id);
        const channel = await tx.channels.create({
          id,
          guildId: access.guild.id,
          type,
          name: fields.name ?? '',
          position:
            fields.position ?? existing.reduce((max, c) => Math.max(max, c.position + 1), 0),
          parentId: parent?.id ?? null,
          topic: fields.topic ?? null,
          nsfw: fields.nsfw ?? false,
          rateLimitPerUser: fields.rateLimitPerUser ?? 0,
          bitrate: isVoiceChannelType(type) ? (fields.bitrate ?? DEFAULT_BITRATE) : null,
          userLimit: isVoiceChannelType(type) ? (fields.userLimit ?? 0) : null,
          flags: 0,
          lastMessageId: null,
          createdAt: clock.now(),
        });
        for (const overwrite of overwrites) await tx.overwrites.put(overwrite);
        const tags = isThreadOnlyType(type)
          ? await putTags(tx, { channelId: id, input: input.available_tags ?? [], ids })
          : [];
        const wire = serializeChannel(channel, overwrites, tags);
        afterCommit(tx, channelDispatches.channel('CHANNEL_CREATE', wire));
        await audit(tx, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: channel.id,
          actionType: AuditLogActions.CHANNEL_CREATE,
          changes: snapshotChanges(auditView(wire, { overwrites: true })),
          reason: input.reason,
        });
        return wire;
      });
    },

    /**
     * PATCH /channels/{id}: MANAGE_CHANNELS in the channel; overwrites also need MANAGE_ROLES and
     * may hold only bits the caller has in the guild.
     */
    async modify(
      principal: Principal,
      channelId: string,
      input: ModifyChannelInput & { reason: string | null },
    ) {
      return storage.transaction(async (tx) => {
        const access = await loadChannelAccess(tx, {
          channelId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(P.MANAGE_CHANNELS);
        const { channel, guild } = access;
        const type = input.type ?? channel.type;
        if (type !== channel.type && !(CONVERTIBLE.has(type) && CONVERTIBLE.has(channel.type))) {
          throw invalidField(
            ['type'],
            'CHANNEL_TYPE_INVALID',
            'Only text and announcement channels can be converted into each other.',
          );
        }
        const patch = channelPatch(type, input);
        if (type !== channel.type) patch.type = type;
        if (input.parent_id !== undefined) {
          const parent = await resolveParent(tx, {
            guildId: guild.guild.id,
            type,
            parentId: input.parent_id,
          });
          patch.parentId = parent?.id ?? null;
        }
        let nextOverwrites: OverwriteRecord[] | null = null;
        if (input.permission_overwrites != null) {
          access.require(P.MANAGE_ROLES);
          nextOverwrites = toRecords(channel.id, input.permission_overwrites);
          await assertOverwriteTargets(tx, guild, input.permission_overwrites);
          assertGrantable(guild, guild.permissions, nextOverwrites);
        }
        const tagsBefore = await tx.threads.listTags([channel.id]);
        const before = serializeChannel(channel, access.overwrites, tagsBefore);
        const updated = (await tx.channels.update(channel.id, patch)) ?? channel;
        const overwrites = nextOverwrites ?? access.overwrites;
        const tags =
          input.available_tags != null && isThreadOnlyType(updated.type)
            ? await putTags(tx, {
                channelId: channel.id,
                input: input.available_tags,
                ids,
                current: tagsBefore,
              })
            : tagsBefore;
        const after = serializeChannel(updated, overwrites, tags);
        const changes = diffChanges(
          auditView(before, { overwrites: false }),
          auditView(after, { overwrites: false }),
        );
        if (changes.length > 0 || overwritesDiffer(access.overwrites, overwrites)) {
          afterCommit(tx, channelDispatches.channel('CHANNEL_UPDATE', after));
        }
        if (changes.length > 0) {
          await audit(tx, {
            guildId: guild.guild.id,
            userId: principal.user.id,
            targetId: channel.id,
            actionType: AuditLogActions.CHANNEL_UPDATE,
            changes,
            reason: input.reason,
          });
        }
        if (nextOverwrites !== null) {
          await syncOverwrites(
            tx,
            {
              ids,
              guildId: guild.guild.id,
              userId: principal.user.id,
              reason: input.reason,
              roleNames: new Map(guild.roles.map((role) => [role.id, role.name])),
            },
            { channelId: channel.id, current: access.overwrites, next: nextOverwrites },
          );
        }
        return after;
      });
    },
  };
}

export type ChannelService = ReturnType<typeof createChannelService>;
