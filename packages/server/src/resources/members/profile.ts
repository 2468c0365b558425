import { freeBlobsAfterCommit, imageKeys } from '../../blobs/lifecycle.js';
import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { MemberPatch, MemberRecord, Repositories } from '../../storage/index.js';
import { diffChanges, recordChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { memberDispatches } from './dispatch.js';
import type { AccessFor } from '../access/index.js';
import type { GuildRequest } from '../roles/index.js';
import { storeImage } from '../imageUploads.js';
import type { ModifyCurrentMemberInput } from './schemas.js';
import type { MemberWire } from './serialize.js';

/**
 * Spec, Modify Current Member: bots may set their guild avatar, banner and bio from September 10,
 * 2025. Before that date those fields are ignored for bots, as unknown fields are.
 */
export const BOT_MEMBER_PROFILE_FROM_MS = Date.UTC(2025, 8, 10);

/**
 * Checks a member whose names changed against the guild's auto-moderation profile rule, inside
 * the change's transaction (resources/autoModeration implements it).
 */
export type ProfileCheck = (
  tx: Repositories,
  request: { guildId: string; userId: string },
) => Promise<void>;

interface Helpers {
  accessFor: AccessFor;
  one(repos: Repositories, member: MemberRecord): Promise<MemberWire>;
  profileCheck?: ProfileCheck | undefined;
}

/**
 * PATCH /guilds/{id}/members/@me: the caller's own nick (CHANGE_NICKNAME or MANAGE_NICKNAMES)
 * and guild profile. Images are stored under guild-avatars/ and guild-banners/ and served at
 * /guilds/{guild_id}/users/{user_id}/avatars|banners/{hash}.png.
 */
export function createCurrentMemberUpdater(deps: ServiceDeps, helpers: Helpers) {
  const { storage, clock, ids, blobs } = deps;
  return (principal: Principal, request: GuildRequest, input: ModifyCurrentMemberInput) =>
    storage.transaction(async (tx) => {
      const access = await helpers.accessFor(tx, principal, request.guildId);
      const guildId = access.guild.id;
      const userId = principal.user.id;
      const member = await tx.members.find(guildId, userId);
      if (member === null) throw new ApiError('UNKNOWN_MEMBER');
      const patch: MemberPatch = {};
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const set = <K extends keyof MemberPatch>(
        key: K,
        auditKey: string,
        value: MemberPatch[K],
      ) => {
        patch[key] = value;
        before[auditKey] = member[key];
        after[auditKey] = value;
      };
      if (input.nick !== undefined) {
        if ((access.permissions & (P.CHANGE_NICKNAME | P.MANAGE_NICKNAMES)) === 0n) {
          throw new ApiError('MISSING_PERMISSIONS');
        }
        set('nick', 'nick', input.nick);
      }
      const profile = principal.kind !== 'bot' || clock.now() >= BOT_MEMBER_PROFILE_FROM_MS;
      if (profile) {
        if (input.bio !== undefined) set('bio', 'bio', input.bio);
        for (const [field, kind] of [
          ['avatar', 'guild-avatars'],
          ['banner', 'guild-banners'],
        ] as const) {
          const value = input[field];
          if (value === undefined) continue;
          const hash = await storeImage(
            blobs,
            { field, value },
            (digest, ext) => `${kind}/${guildId}/${userId}/${digest}.${ext}`,
          );
          set(field, `${field}_hash`, hash);
        }
      }
      let updated = await tx.members.update(guildId, userId, patch);
      if (updated === null) throw new ApiError('UNKNOWN_MEMBER');
      if (patch.nick !== undefined && helpers.profileCheck !== undefined) {
        await helpers.profileCheck(tx, { guildId, userId });
        updated = (await tx.members.find(guildId, userId)) ?? updated;
      }
      freeBlobsAfterCommit(tx, blobs, [
        ...(patch.avatar === undefined
          ? []
          : imageKeys(`guild-avatars/${guildId}/${userId}`, member.avatar)),
        ...(patch.banner === undefined
          ? []
          : imageKeys(`guild-banners/${guildId}/${userId}`, member.banner)),
      ]);
      const changes = diffChanges(before, after);
      const wire = await helpers.one(tx, updated);
      if (changes.length > 0) afterCommit(tx, memberDispatches.memberUpdate(guildId, wire));
      await recordChanges(tx, ids, {
        guildId,
        userId,
        targetId: userId,
        actionType: AuditLogActions.MEMBER_UPDATE,
        changes,
        reason: request.reason,
      });
      return wire;
    });
}
