import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { requiredPermissions } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { EmojiPatch, EmojiRecord, Repositories, RoleRecord } from '../../storage/index.js';
import { diffChanges, snapshotChanges, recordAudit, recordChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { holdsEither, requireEditRights, type Mutation } from '../expressions/index.js';
import {
  EMOJI_LIMIT_TIER_0,
  MAX_EMOJI_BYTES,
  type CreateEmojiInput,
  type ModifyEmojiInput,
} from './schemas.js';
import { decodeImage, putImage } from '../imageUploads.js';
import { announceEmojiList } from './dispatch.js';
import { serializeEmoji } from './serialize.js';

const EXPRESSIONS = { create: P.CREATE_GUILD_EXPRESSIONS, manage: P.MANAGE_GUILD_EXPRESSIONS };

/** Every role id must name a role of this guild; a stranger's is a 50035 on that index. */
function checkRoles(roles: readonly RoleRecord[], roleIds: readonly string[]): string[] {
  const known = new Set(roles.map((role) => role.id));
  roleIds.forEach((roleId, index) => {
    if (!known.has(roleId)) throw invalidField(['roles', index], 'UNKNOWN_ROLE', 'Unknown role');
  });
  return [...new Set(roleIds)];
}

/** Guild emoji: list, get, create, modify, delete (images in the blob store). */
export function createEmojiService(deps: ServiceDeps) {
  const { storage, clock, ids, blobs } = deps;

  const accessFor = accessLoader(clock);

  const findIn = async (repos: Repositories, access: GuildAccess, emojiId: string) => {
    const emoji = isSnowflake(emojiId) ? await repos.emojis.findById(emojiId) : null;
    if (emoji?.guildId !== access.guild.id) throw new ApiError('UNKNOWN_EMOJI');
    return emoji;
  };

  /** The wire emoji; the creator shows only to holders of an expressions permission. */
  const present = async (repos: Repositories, access: GuildAccess, emoji: EmojiRecord) => {
    const creator =
      emoji.creatorId !== null && holdsEither(access, EXPRESSIONS)
        ? await repos.users.findById(emoji.creatorId)
        : null;
    return serializeEmoji(emoji, creator);
  };

  return {
    async list(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      const emojis = await storage.emojis.listByGuild(access.guild.id);
      return Promise.all(emojis.map((emoji) => present(storage, access, emoji)));
    },

    async get(principal: Principal, guildId: string, emojiId: string) {
      const access = await accessFor(storage, principal, guildId);
      return present(storage, access, await findIn(storage, access, emojiId));
    },

    async create(principal: Principal, guildId: string, input: CreateEmojiInput & Mutation) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, guildId);
        // Spec, Versioning: CREATE_GUILD_EXPRESSIONS from 2026-02-23, MANAGE_ before.
        access.require(requiredPermissions.createExpressions(clock.now()));
        const image = decodeImage('image', input.image, { maxBytes: MAX_EMOJI_BYTES });
        const roleIds = checkRoles(access.roles, input.roles ?? []);
        const animated = image.contentType === 'image/gif';
        const existing = await tx.emojis.listByGuild(access.guild.id);
        if (existing.filter((emoji) => emoji.animated === animated).length >= EMOJI_LIMIT_TIER_0) {
          throw new ApiError(animated ? 'MAX_ANIMATED_EMOJIS' : 'MAX_EMOJIS');
        }
        const emoji: EmojiRecord = {
          id: ids(),
          guildId: access.guild.id,
          name: input.name,
          creatorId: principal.user.id,
          animated,
          roleIds,
          available: true,
          createdAt: clock.now(),
        };
        // The blob goes first: a failed insert leaves an unreachable file, never a broken emoji
        // (the CDN route serves only emoji that exist).
        await putImage(blobs, `emojis/${emoji.id}`, image);
        await tx.emojis.create(emoji);
        await announceEmojiList(tx, access.guild.id);
        const wire = serializeEmoji(emoji, principal.user);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: emoji.id,
          actionType: AuditLogActions.EMOJI_CREATE,
          changes: snapshotChanges({ name: wire.name, roles: wire.roles }),
          reason: input.reason,
        });
        return wire;
      });
    },

    async modify(
      principal: Principal,
      target: { guildId: string; emojiId: string },
      input: ModifyEmojiInput & Mutation,
    ) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const emoji = await findIn(tx, access, target.emojiId);
        requireEditRights(access, emoji.creatorId, EXPRESSIONS);
        const patch: EmojiPatch = {};
        if (input.name !== undefined) patch.name = input.name;
        if (input.roles !== undefined) patch.roleIds = checkRoles(access.roles, input.roles ?? []);
        const updated = await tx.emojis.update(emoji.id, patch);
        if (updated === null) throw new ApiError('UNKNOWN_EMOJI');
        const changes = diffChanges(
          { name: emoji.name, roles: emoji.roleIds },
          { name: updated.name, roles: updated.roleIds },
        );
        if (changes.length > 0) await announceEmojiList(tx, access.guild.id);
        await recordChanges(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: emoji.id,
          actionType: AuditLogActions.EMOJI_UPDATE,
          changes,
          reason: input.reason,
        });
        return present(tx, access, updated);
      });
    },

    async delete(principal: Principal, target: { guildId: string; emojiId: string }, m: Mutation) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const emoji = await findIn(tx, access, target.emojiId);
        requireEditRights(access, emoji.creatorId, EXPRESSIONS);
        await tx.emojis.delete(emoji.id);
        freeBlobsAfterCommit(tx, blobs, [`emojis/${emoji.id}`]);
        await announceEmojiList(tx, access.guild.id);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: emoji.id,
          actionType: AuditLogActions.EMOJI_DELETE,
          changes: snapshotChanges({ name: emoji.name, roles: emoji.roleIds }, 'old'),
          reason: m.reason,
        });
      });
    },
  };
}

export type EmojiService = ReturnType<typeof createEmojiService>;
