import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { requiredPermissions } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, StickerPatch, StickerRecord } from '../../storage/index.js';
import { diffChanges, snapshotChanges, recordAudit, recordChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { stickerDispatches } from './dispatch.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { holdsEither, requireEditRights, type Mutation } from '../expressions/index.js';
import { detectStickerFile } from './fileType.js';
import {
  MAX_STICKER_BYTES,
  STICKER_LIMIT_TIER_0,
  type CreateStickerInput,
  type ModifyStickerInput,
} from './schemas.js';
import { auditedSticker, serializeSticker } from './serialize.js';
import { maxSizeMessage } from '../imageUploads.js';

const EXPRESSIONS = { create: P.CREATE_GUILD_EXPRESSIONS, manage: P.MANAGE_GUILD_EXPRESSIONS };

/** GUILD_STICKERS_UPDATE with the guild's whole sticker list as it stands in `tx`. */
async function announceStickerList(tx: Repositories, guildId: string): Promise<void> {
  const stickers = await tx.stickers.listByGuild(guildId);
  afterCommit(
    tx,
    stickerDispatches.stickersUpdate(
      guildId,
      stickers.map((sticker) => serializeSticker(sticker, null)),
    ),
  );
}

/** Guild stickers: list, get, create, modify, delete (files in the blob store). */
export function createStickerService(deps: ServiceDeps) {
  const { storage, clock, ids, blobs } = deps;

  const accessFor = accessLoader(clock);

  const findIn = async (repos: Repositories, access: GuildAccess, stickerId: string) => {
    const sticker = isSnowflake(stickerId) ? await repos.stickers.findById(stickerId) : null;
    if (sticker?.guildId !== access.guild.id) throw new ApiError('UNKNOWN_STICKER');
    return sticker;
  };

  const present = async (repos: Repositories, access: GuildAccess, sticker: StickerRecord) => {
    const creator =
      sticker.creatorId !== null && holdsEither(access, EXPRESSIONS)
        ? await repos.users.findById(sticker.creatorId)
        : null;
    return serializeSticker(sticker, creator);
  };

  return {
    async list(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      const stickers = await storage.stickers.listByGuild(access.guild.id);
      return Promise.all(stickers.map((sticker) => present(storage, access, sticker)));
    },

    /**
     * GET /stickers/{id} for a guild sticker: any caller may look one up by id (a message shows
     * it); who made it shows only to the guild's expression managers.
     */
    async getAny(principal: Principal, stickerId: string) {
      const sticker = isSnowflake(stickerId) ? await storage.stickers.findById(stickerId) : null;
      if (sticker === null) throw new ApiError('UNKNOWN_STICKER');
      const member = await storage.members.find(sticker.guildId, principal.user.id);
      if (member === null) return serializeSticker(sticker, null);
      return present(storage, await accessFor(storage, principal, sticker.guildId), sticker);
    },

    async get(principal: Principal, guildId: string, stickerId: string) {
      const access = await accessFor(storage, principal, guildId);
      return present(storage, access, await findIn(storage, access, stickerId));
    },

    async create(principal: Principal, guildId: string, input: CreateStickerInput & Mutation) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, guildId);
        // Spec, Versioning: CREATE_GUILD_EXPRESSIONS from 2026-02-23, MANAGE_ before.
        access.require(requiredPermissions.createExpressions(clock.now()));
        if (input.file.length > MAX_STICKER_BYTES) {
          throw invalidField(['file'], 'BINARY_TYPE_MAX_SIZE', maxSizeMessage(MAX_STICKER_BYTES));
        }
        const format = detectStickerFile(input.file);
        if (format === null) throw new ApiError('INVALID_FILE_UPLOADED');
        const existing = await tx.stickers.listByGuild(access.guild.id);
        if (existing.length >= STICKER_LIMIT_TIER_0) throw new ApiError('MAX_STICKERS');
        const sticker: StickerRecord = {
          id: ids(),
          guildId: access.guild.id,
          name: input.name,
          description: input.description ?? null,
          tags: input.tags,
          formatType: format.formatType,
          creatorId: principal.user.id,
          available: true,
          createdAt: clock.now(),
        };
        // The file goes first: a failed insert leaves an unreachable file, never a broken sticker.
        await blobs.put(`stickers/${sticker.id}`, {
          bytes: input.file,
          contentType: format.contentType,
        });
        await tx.stickers.create(sticker);
        await announceStickerList(tx, access.guild.id);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: sticker.id,
          actionType: AuditLogActions.STICKER_CREATE,
          changes: snapshotChanges(auditedSticker(sticker)),
          reason: input.reason,
        });
        return serializeSticker(sticker, principal.user);
      });
    },

    async modify(
      principal: Principal,
      target: { guildId: string; stickerId: string },
      input: ModifyStickerInput & Mutation,
    ) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const sticker = await findIn(tx, access, target.stickerId);
        requireEditRights(access, sticker.creatorId, EXPRESSIONS);
        const patch: StickerPatch = {};
        if (input.name !== undefined) patch.name = input.name;
        if (input.tags !== undefined) patch.tags = input.tags;
        if (input.description !== undefined) patch.description = input.description;
        const updated = await tx.stickers.update(sticker.id, patch);
        if (updated === null) throw new ApiError('UNKNOWN_STICKER');
        const changes = diffChanges(auditedSticker(sticker), auditedSticker(updated));
        if (changes.length > 0) await announceStickerList(tx, access.guild.id);
        await recordChanges(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: sticker.id,
          actionType: AuditLogActions.STICKER_UPDATE,
          changes,
          reason: input.reason,
        });
        return present(tx, access, updated);
      });
    },

    async delete(
      principal: Principal,
      target: { guildId: string; stickerId: string },
      m: Mutation,
    ) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const sticker = await findIn(tx, access, target.stickerId);
        requireEditRights(access, sticker.creatorId, EXPRESSIONS);
        await tx.stickers.delete(sticker.id);
        freeBlobsAfterCommit(tx, blobs, [`stickers/${sticker.id}`]);
        await announceStickerList(tx, access.guild.id);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: sticker.id,
          actionType: AuditLogActions.STICKER_DELETE,
          changes: snapshotChanges(auditedSticker(sticker), 'old'),
          reason: m.reason,
        });
      });
    },
  };
}

export type StickerService = ReturnType<typeof createStickerService>;
